import PressureLab
import PressureLabHeap
import SystemPackage

/// One run: a scenario's apps on its device under a cleanup policy and a termination policy, played step by step
/// (``perform(_:)``, ``play(_:)``) or to the end (`run()`), and read as a ``RunResult`` at the end (`finish()`). The
/// engine every runner in PressureLab uses: the command line's runs, comparisons, baselines and sweeps (through
/// ``RunPlan``), the device experiment, the policy and generation comparisons, the test API.
///
/// ```swift
/// let simulation = try Simulation(scenario, cleanup: Cleanup(DropModelsFirst()), termination: .jetsam)
/// try simulation.perform(.launch("photos"))
/// let outcome = try simulation.perform(.push("detail"))   // what the device did: launches, kills, freezes
/// let result = simulation.finish()
/// ```
///
/// A policy that never returns blocks the thread that performs the step: Swift cannot
/// interrupt it. Without a ``watchdog`` (the in-process default) the call waits for ever; with
/// one, the watchdog reports the step, the policy and its call on its own thread and the
/// caller decides (the command line ends the process, exit 1). A policy's mistake throws
/// `PolicyError/mistake(_:)` (``perform(_:)``).
///
/// Determinism: the same scenario, policies, seed and profile give the same trace, byte
/// counts and device times. (Without a profile `cost-aware` decides on reload times
/// measured in the run, so its releases, and the bytes that follow, can differ.)
///
/// The first simulation of a process is preceded by a warm-up (`RunnerWarmUp`), so that
/// its figures do not depend on being the first.
public final class Simulation {
    /// The scenario being run.
    public let scenario: Scenario
    /// The cleanup policy of every app.
    public let cleanup: Cleanup
    /// The device's termination policy.
    public let termination: Termination
    /// The seed of everything random (the scenario's unless given).
    public let seed: UInt64
    /// The device profile device times are modelled with (nil: host time only).
    public let profile: DeviceProfile?
    /// The device the apps run on.
    public let device: Device
    /// The scenario's apps, by name.
    public let apps: [String: Application]
    /// Every lifecycle callback and state change (kept in `TraceRecorder/events` with `keepsEvents`).
    public let recorder: TraceRecorder
    /// Where the run's own files are (a tmpfs or the disk).
    public let storage: RunStorage

    /// Reload latencies measured so far (host time, and device time with a profile), every app's.
    public let statistics: ReloadStatistics
    private let progress: ((Int, Int) -> Void)?
    private let memory: ((String, Int) -> Void)?
    /// Watches each step's time when set (``RunWatchdog``). Without one a policy that does not
    /// return blocks the calling thread for ever: Swift cannot interrupt it.
    public var watchdog: RunWatchdog?
    /// Called after every step with the device as the step left it (``DeviceExperiment``'s own measures).
    public var afterStep: ((Device) -> Void)?
    private var random: SplitMix64, total: Int
    private(set) var timeline: [RunResult.TimelineEntry] = []
    private(set) var step = 0, skipped = 0
    private var peakBytes = -1
    /// Clean resident bytes (measured) and the per-platform footprint, sampled after each step.
    private(set) var cleanPeak = 0, cleanSum = 0, platformFootprintPeak = 0
    private var finished = false
    /// The bytes retained at the end of each cycle of the script's `repeat:` (``run(repeatIndex:)``).
    var cycles = CycleRecorder()
    /// The policies' mistakes so far, each with its step (with `Device/lenientPolicies`:
    /// otherwise the first ends the run).
    public private(set) var policyMistakes: [PolicyMistake] = []

    /// Builds the device and installs the scenario's apps (none runs yet).
    /// - Parameters:
    ///   - scenario: what to run.
    ///   - cleanup: the cleanup policy of every app.
    ///   - termination: the device's termination policy.
    ///   - seed: in place of the scenario's.
    ///   - profile: the device's costs, memory, compressor and release; nil: host time only.
    ///   - compressor: in place of the profile's.
    ///   - swapFileBytes: a swap file on flash of this many bytes (the device experiment's).
    ///   - trace: receives every event as it happens (and each app's bytes every step, when it samples memory).
    ///   - events: called with every event as it happens.
    ///   - keepsEvents: keep the events in ``recorder`` (tests; short runs).
    ///   - progress: called every 256 steps with (steps done, steps in all).
    /// - Throws: `PolicyError` for a policy this program does not know or one that takes a built-in one's name;
    ///   what the runtime throws for a screen that cannot be registered; ``HarnessError`` when the run's files have no room.
    public convenience init(_ scenario: Scenario, cleanup: Cleanup = .ios6, termination: Termination = .jetsam,
                            seed: UInt64? = nil, profile: DeviceProfile? = nil, compressor: Compressor? = nil,
                            swapFileBytes: Int? = nil, trace: (any TraceOutput)? = nil, events: ((TraceEvent) -> Void)? = nil,
                            keepsEvents: Bool = false, progress: ((Int, Int) -> Void)? = nil) throws {
        RunnerWarmUp.ensure()
        let sink: ((TraceEvent) -> Void)?
        switch (trace, events) {
        case (let trace?, let events?): sink = { event in trace.write(event); events(event) }
        case (let trace?, nil): sink = { trace.write($0) }
        case (nil, let events): sink = events
        }
        try self.init(unwarmed: scenario, cleanup: cleanup, termination: termination, seed: seed, profile: profile,
                      compressor: compressor, swapFileBytes: swapFileBytes, events: sink,
                      keepsEvents: keepsEvents, memory: trace.flatMap { trace in
                          trace.samplesMemory ? { trace.sampleMemory(app: $0, bytes: $1) } : nil
                      }, progress: progress)
    }

    /// The simulation without the warm-up (what the warm-up itself runs).
    init(unwarmed scenario: Scenario, cleanup: Cleanup, termination: Termination, seed: UInt64?, profile: DeviceProfile?,
         compressor: Compressor?, swapFileBytes: Int?, events: ((TraceEvent) -> Void)?, keepsEvents: Bool,
         memory: ((String, Int) -> Void)?, progress: ((Int, Int) -> Void)?) throws {
        try PolicyRegistry.check(cleanup)
        try PolicyRegistry.check(termination)
        let cleanupPolicy = try cleanup.makePolicy()
        let terminationPolicy = try termination.makePolicy()
        self.scenario = scenario
        self.cleanup = cleanup
        self.termination = termination
        self.seed = seed ?? scenario.seed
        self.profile = profile
        self.progress = progress
        self.memory = memory
        self.random = SplitMix64(seed: self.seed)
        self.total = scenario.expandedStepCount
        recorder = TraceRecorder(isEnabled: events != nil || keepsEvents, keepsEvents: keepsEvents, sink: events)
        statistics = ReloadStatistics()
        // The profile's compressor (or the override) compresses suspended apps' memory, and
        // memory is filled with contents as compressible as the profile declares per kind:
        // the device gives every app it installs what the model says.
        let model = DeviceModel(scenario: scenario, profile: profile, compressor: compressor, seed: self.seed,
                                swapFileBytes: swapFileBytes)
        device = Device(model: model, termination: terminationPolicy)
        // The swap file is written as pages move out, up to its size: it must fit the disk.
        if let swap = swapFileBytes, let free = HostFiles.freeBytes(at: FilePath(TemporaryFiles.systemDirectory)), swap > free / 2 {
            throw HarnessError.cannotWrite(path: TemporaryFiles.systemDirectory,
                                           reason: "a swap file of \(swap) bytes is more than half of the \(free) bytes free there")
        }
        // The run's own files go to a tmpfs when the host has one with room (RunStorage).
        do {
            storage = try TemporaryFiles.selectStorage(need: scenario.storageNeed(
                swapFileBytes: swapFileBytes, hostLimitBytes: HostMemory.current().safeLimit()))
        } catch {
            throw HarnessError.cannotWrite(path: "PRESSURELAB_STORAGE", reason: error.description)
        }
        // The device's OS release decides the unload cycle when the scenario names one.
        let generation = scenario.device.os?.unloadCycle ?? cleanupPolicy.generation ?? .iOS6
        var apps: [String: Application] = [:]
        for spec in scenario.apps {
            let app = try spec.makeApplication(generation: generation, cleanup: cleanupPolicy, trace: recorder,
                                               statistics: statistics)
            apps[spec.name] = app
            device.install(app)
        }
        self.apps = apps
    }

    // MARK: - Steps

    /// Performs one action as the scenario's next step: the device applies it and ends the
    /// step (`Device/perform(_:)`), and the step joins the timeline with what the device did.
    ///
    /// - Throws: what the runtime throws (a screen that cannot be built); `PolicyError/mistake(_:)` when a policy returned
    ///   an action or a plan the device could not carry out (located at this step; only counted in `policyMistakes` with
    ///   `device.lenientPolicies`); `RuntimeError/memoryRefused(app:_:)` when the host itself had no memory for an
    ///   allocation; ``WorkLimitExceeded`` when unloads rebuilt more views than allowed.
    @discardableResult
    public func perform(_ action: UserAction) throws -> StepOutcome {
        precondition(!finished, "a finished simulation performs no more steps")
        step += 1
        recorder.step = step
        let outcome: StepOutcome
        watchdog?.beginStep(step, action.label)
        defer { watchdog?.endStep() }
        do {
            outcome = try device.perform(action)
        } catch PolicyError.mistake(let mistake) {
            throw PolicyError.mistake(located(mistake, action: action))
        }
        while policyMistakes.count < device.policyMistakes.count {
            policyMistakes.append(located(device.policyMistakes[policyMistakes.count], action: action))
        }
        if !outcome.applied { skipped += 1 }
        if let failure = outcome.hostAllocationFailure { throw RuntimeError.memoryRefused(app: failure.app, failure.refusal) }
        // Views rebuilt after unloads are work the declarations cannot foresee: bounded here.
        if step % 64 == 0 {
            let built = device.apps.reduce(0) { $0.addingSaturating($1.app.runtime.work.viewsDecoded) }
            if built > ScenarioLimits.viewsBuilt { throw WorkLimitExceeded(viewsBuilt: built, step: step) }
        }
        afterStep?(device)
        let used = device.usedBytes
        if let memory {
            for installed in device.apps { memory(installed.name, installed.bytes) }
        }
        let clean = device.cleanResidentBytes
        cleanPeak = max(cleanPeak, clean)
        cleanSum = cleanSum.addingSaturating(clean)
        platformFootprintPeak = max(platformFootprintPeak, device.platformFootprintBytes)
        if used > peakBytes {
            peakBytes = used
            for installed in device.apps { installed.app.runtime.ledger.markPeak() }
        }
        timeline.append(.init(step: step, event: action.label + (outcome.applied ? "" : " (skipped)"), retainedBytes: used,
                              level: device.level, marks: outcome.marks.isEmpty ? nil : outcome.marks,
                              aliveApps: device.cachedAppCount))
        if step % 256 == 0 { progress?(step, total) }
        return outcome
    }

    /// `mistake` at the current step, `action` its text.
    private func located(_ mistake: PolicyMistake, action: UserAction) -> PolicyMistake {
        var located = mistake
        (located.step, located.stepText) = (step, action.label)
        return located
    }

    /// Plays steps in order: `repeat` expanded, `random` drawn from the seed.
    public func play(_ steps: [Scenario.Step]) throws {
        for step in steps {
            switch step {
            case .repeatSteps(let times, let inner):
                for _ in 0..<times { try play(inner) }
            case .random(let count, let mix):
                let weighed = UserAction.WeighedMix(mix), apps = scenario.apps.map(\.name)
                for _ in 0..<count { try perform(draw(weighed, apps: apps)) }
            case .action(let action):
                try perform(action)
            }
        }
    }

    /// The run's result, read now; then every app's process ends. Call it once, after the last step.
    public func finish(repeatIndex: Int = 0) -> RunResult {
        precondition(!finished, "a simulation is finished once")
        var metrics = metrics()
        if profile != nil { metrics.addDeviceTime(statistics: statistics, device: device) }
        metrics.noteSaturatedMetrics()
        var result = RunResult(scenario: scenario.name, policy: cleanup, termination: termination, seed: seed, repeat: repeatIndex,
                               metrics: metrics, owners: Self.owners(Self.balances(device)), timeline: timeline,
                               peakOwners: peakOwners, profile: profile?.name, storage: storage.kind)
        addGrowth(to: &result)
        result = result.atFullSize(memoryScale: scenario.device.memoryScale)
        end()
        return result
    }

    /// Ends every app's process without reading a result (the warm-up's runs), in the scenario's order:
    /// the trace's last events are the same on every run.
    func end() {
        finished = true
        for installed in device.apps { installed.app.runtime.ledger.stopTrackingPeak() }
        for installed in device.apps { installed.app.kill() }
    }

    /// Draws one action from the mix, with arguments from the seed (``UserAction/draw(from:apps:screens:using:)``).
    private func draw(_ mix: UserAction.WeighedMix, apps: [String]) -> UserAction {
        let screens = device.foreground?.app.runtime.randomScreenNames ?? []
        guard let action = UserAction.draw(from: mix, apps: apps, screens: screens, using: &random) else {
            preconditionFailure("a random mix names only kinds drawn at random (the scenario reader checks it)")
        }
        return action
    }

    // MARK: - Figures

    /// The owners at the step of peak retained bytes. Each ledger marks every new peak (which
    /// in a growing phase is every step) and keeps, from then on, the balance at the mark of
    /// each owner that changes: O(owners changed) a step, so a stack of 100,000 pushes stays
    /// linear (copying every balance at every peak made it quadratic).
    private var peakOwners: [RunResult.Owner] {
        Self.owners(device.apps.map { ($0.name, $0.app.runtime.ledger.balancesAtPeak()) })
    }

    /// One app's ledger balances, by owner.
    typealias AppBalances = (app: String, balances: [MemoryOwner: Int])

    /// Every installed app's balances now (the dictionaries are shared, not copied).
    static func balances(_ device: Device) -> [AppBalances] {
        device.apps.map { ($0.name, $0.app.runtime.ledger.allBalances) }
    }

    /// Every controller's retained bytes (categories summed), app by app, in controller order.
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

/// The version of the tool, written into results, baselines and sweep records.
public enum PressureLabVersion {
    /// This build's version.
    public static let current = "0.1.0"
}
