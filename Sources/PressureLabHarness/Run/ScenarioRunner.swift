import PressureLab
import PressureLabHeap
import SystemPackage

/// Runs a scenario under a cleanup policy and a termination policy: builds the device and
/// its apps, plays the script (with `repeat` expanded and `random` drawn from the seed),
/// and records the timeline, owners, counters and latency histograms.
///
/// Determinism: the same scenario, policies and seed give the same trace and the same
/// byte counts (bytes are measured, but the work that allocates them is the same), with
/// one exception by design: `cost-aware` decides from reload times measured in the run,
/// so its releases, and the bytes that follow, can differ between runs.
public struct ScenarioRunner {
    /// The tool's version, written into results.
    public static let toolVersion = "0.1.0"

    public init() {}

    /// The OS generation a cleanup policy's apps behave as (their callbacks): the policy's
    /// own (``CleanupPolicy/generation``), else iOS 6 and later.
    public static func generation(for policy: String) -> OSGeneration {
        CleanupKind(rawValue: policy)?.generation ?? .iOS6
    }

    /// One run. `trace` receives every event as it happens; `memory`, when given, each app's
    /// measured bytes at the end of every step (for a trace's memory tracks).
    ///
    /// The first run of a process is preceded by a warm-up (``RunnerWarmUp``), so that its
    /// figures do not depend on being the first.
    ///
    /// With a `profile`, every latency also has a device time (its work times the profile's
    /// costs), and `cost-aware` decides on device time.
    ///
    /// `device` adjusts what the device is beyond the scenario and the profile: a termination
    /// policy of its own in place of `termination`'s, a swap file (experiments use them).
    public func run(_ scenario: Scenario, policy: CleanupKind, termination: TerminationKind, seed: UInt64? = nil, repeatIndex: Int = 0,
                    profile: DeviceProfile? = nil, compressor: Compressor? = nil, device: DeviceAdjustments = .init(),
                    trace: ((TraceEvent) -> Void)? = nil, memory: ((String, Int) -> Void)? = nil,
                    progress: ((Int, Int) -> Void)? = nil) throws -> RunResult {
        RunnerWarmUp.ensure()
        return try runMeasured(scenario, policy: policy, termination: termination, seed: seed, repeatIndex: repeatIndex,
                               profile: profile, compressor: compressor, device: device, trace: trace, memory: memory,
                               progress: progress)
    }

    /// What an experiment sets on the device beyond the scenario and the profile.
    public struct DeviceAdjustments: Sendable {
        /// A termination policy in place of the run's kind's (its name is the run's termination).
        public var terminationPolicy: (any TerminationPolicy & Sendable)?
        /// A swap file on flash of this many bytes.
        public var swapFileBytes: Int?

        public init(terminationPolicy: (any TerminationPolicy & Sendable)? = nil, swapFileBytes: Int? = nil) {
            self.terminationPolicy = terminationPolicy
            self.swapFileBytes = swapFileBytes
        }
    }

    /// One run, without the warm-up.
    func runMeasured(_ scenario: Scenario, policy: CleanupKind, termination: TerminationKind, seed: UInt64?, repeatIndex: Int,
                     profile: DeviceProfile? = nil, compressor: Compressor? = nil, device adjustments: DeviceAdjustments = .init(),
                     trace: ((TraceEvent) -> Void)?, memory: ((String, Int) -> Void)? = nil,
                     progress: ((Int, Int) -> Void)?) throws -> RunResult {
        let run = try play(scenario, policy: policy, termination: termination, seed: seed, profile: profile,
                           compressor: compressor, device: adjustments, trace: trace, memory: memory, progress: progress)
        var metrics = run.playback.metrics(statistics: run.statistics)
        if profile != nil { metrics.addDeviceTime(statistics: run.statistics, device: run.device) }
        metrics.noteSaturatedMetrics()
        let result = RunResult(scenario: scenario.name, policy: .builtIn(policy), termination: .builtIn(termination), seed: run.seed,
                               repeat: repeatIndex, metrics: metrics,
                               owners: Self.owners(run.device), timeline: run.playback.timeline, peakOwners: run.playback.peakOwners,
                               profile: profile?.name, storage: run.storage.kind)
        run.end()
        return result
    }

    /// A run played to its last step, before its figures are read.
    struct PlayedRun {
        let playback: Playback
        let statistics: ReloadStatistics
        let device: Device
        let apps: [String: Application]
        let storage: RunStorage
        let seed: UInt64

        /// Stops the ledgers' peak tracking and ends every app's process.
        func end() {
            for app in apps.values { app.runtime.ledger.stopTrackingPeak() }
            for app in apps.values { app.kill() }
        }
    }

    /// Builds the device and its apps and plays the script (``runMeasured(_:policy:termination:seed:repeatIndex:profile:compressor:device:trace:memory:progress:)``
    /// without its results: what the warm-up needs).
    func play(_ scenario: Scenario, policy: CleanupKind, termination: TerminationKind, seed: UInt64?,
              profile: DeviceProfile? = nil, compressor: Compressor? = nil, device adjustments: DeviceAdjustments = .init(),
              trace: ((TraceEvent) -> Void)?, memory: ((String, Int) -> Void)? = nil,
              progress: ((Int, Int) -> Void)?) throws -> PlayedRun {
        let cleanup = policy.makePolicy()
        let terminationPolicy: any TerminationPolicy
        if let adjusted = adjustments.terminationPolicy { terminationPolicy = adjusted } else { terminationPolicy = termination.policy }
        let seed = seed ?? scenario.seed
        let recorder = TraceRecorder(isEnabled: trace != nil, keepsEvents: false, sink: trace)
        let statistics = ReloadStatistics()
        // The profile's compressor (or the override) compresses suspended apps' memory, and
        // memory is filled with contents as compressible as the profile declares per kind:
        // the device gives every app it installs what the model says.
        let model = DeviceModel(scenario: scenario, profile: profile, compressor: compressor, seed: seed,
                                swapFileBytes: adjustments.swapFileBytes)
        let device = Device(model: model, termination: terminationPolicy)
        // The swap file is written as pages move out, up to its size: it must fit the disk.
        if let swap = adjustments.swapFileBytes, let free = HostFiles.freeBytes(at: FilePath(TemporaryFiles.systemDirectory)),
           swap > free / 2 {
            throw HarnessError.cannotWrite(path: TemporaryFiles.systemDirectory,
                                           reason: "a swap file of \(swap) bytes is more than half of the \(free) bytes free there")
        }
        // The run's own files go to a tmpfs when the host has one with room (RunStorage).
        let storage: RunStorage
        do {
            storage = try TemporaryFiles.selectStorage(need: scenario.storageNeed(
                swapFileBytes: adjustments.swapFileBytes, hostLimitBytes: HostMemory.current().safeLimit()))
        } catch {
            throw HarnessError.cannotWrite(path: "PRESSURELAB_STORAGE", reason: error.description)
        }
        // The device's OS release decides the unload cycle when the scenario names one.
        let generation = scenario.device.os?.generation ?? cleanup.generation ?? .iOS6
        var apps: [String: Application] = [:]
        for spec in scenario.apps {
            let app = try spec.makeApplication(generation: generation, cleanup: cleanup, trace: recorder, statistics: statistics)
            apps[spec.name] = app
            device.install(app)
        }
        var play = Playback(scenario: scenario, device: device, apps: apps, recorder: recorder,
                            random: SplitMix64(seed: seed), total: scenario.expandedStepCount, progress: progress)
        play.memory = memory
        try play.run(scenario.script)
        return PlayedRun(playback: play, statistics: statistics, device: device, apps: apps, storage: storage, seed: seed)
    }

    /// One app's ledger balances, by owner.
    typealias AppBalances = (app: String, balances: [MemoryOwner: Int])

    /// Every installed app's balances now (the dictionaries are shared, not copied).
    static func balances(_ device: Device) -> [AppBalances] {
        device.apps.map { ($0.name, $0.app.runtime.ledger.allBalances) }
    }

    /// Every controller's retained bytes (categories summed), app by app, in controller order.
    static func owners(_ device: Device) -> [RunResult.Owner] { owners(balances(device)) }

    static func owners(_ apps: [AppBalances]) -> [RunResult.Owner] {
        var owners: [RunResult.Owner] = []
        for (app, balances) in apps {
            var byController: [ControllerID: Int] = [:]
            for (owner, bytes) in balances { byController[owner.controller, default: 0] += bytes }
            for (controller, bytes) in byController.sorted(by: { $0.key < $1.key }) where bytes != 0 {
                owners.append(.init(app: app, controller: controller.instance == 0 ? "app-data" : controller.description,
                                    retainedBytes: bytes))
            }
        }
        return owners
    }
}
