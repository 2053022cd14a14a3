import PressureLab

/// Plays a script step by step on a device, recording the timeline.
struct Playback {
    let scenario: Scenario
    let device: Device
    let apps: [String: Application]
    let recorder: TraceRecorder
    var random: SplitMix64
    let total: Int
    let progress: ((Int, Int) -> Void)?
    /// Receives each app's measured bytes at the end of every step, when set.
    var memory: ((String, Int) -> Void)?
    private(set) var timeline: [RunResult.TimelineEntry] = []
    private(set) var skipped = 0
    /// The owners at the step of peak retained bytes. Each ledger marks every new peak (which
    /// in a growing phase is every step) and keeps, from then on, the balance at the mark of
    /// each owner that changes: O(owners changed) a step, so a stack of 100,000 pushes stays
    /// linear (copying every balance at every peak made it quadratic).
    var peakOwners: [RunResult.Owner] {
        ScenarioRunner.owners(device.apps.map { ($0.name, $0.app.runtime.ledger.balancesAtPeak()) })
    }
    private var peakBytes = -1
    /// Clean resident bytes (measured) and the per-platform footprint, sampled after each step.
    private var cleanPeak = 0
    private var cleanSum = 0
    private var platformFootprintPeak = 0
    private var step = 0

    init(scenario: Scenario, device: Device, apps: [String: Application], recorder: TraceRecorder, random: SplitMix64,
         total: Int, progress: ((Int, Int) -> Void)?) {
        self.scenario = scenario
        self.device = device
        self.apps = apps
        self.recorder = recorder
        self.random = random
        self.total = total
        self.progress = progress
    }

    mutating func run(_ steps: [Scenario.Step]) throws {
        for step in steps {
            switch step {
            case .repeatSteps(let times, let inner):
                for _ in 0..<times { try run(inner) }
            case .random(let count, let mix):
                let weighed = UserAction.WeighedMix(mix), apps = scenario.apps.map(\.name)
                for _ in 0..<count { try perform(draw(weighed, apps: apps)) }
            case .action(let action):
                try perform(action)
            }
        }
    }

    private mutating func perform(_ action: UserAction) throws {
        self.step += 1
        recorder.step = self.step
        let before = CountersSnapshot(device.metrics)
        let failuresBefore = HeapBlock.hostAllocationFailures
        // The device applies the action and ends the step (refused allocations end their
        // apps, pressure follows every step that changed memory).
        let applied = try device.perform(action)
        if !applied { skipped += 1 }
        // Views rebuilt after unloads are work the declarations cannot foresee: bounded here.
        if self.step % 64 == 0 {
            let built = device.apps.reduce(0) { $0.addingSaturating($1.app.runtime.work.viewsDecoded) }
            if built > ScenarioLimits.viewsBuilt { throw WorkLimitExceeded(viewsBuilt: built, step: self.step) }
        }
        guard HeapBlock.hostAllocationFailures == failuresBefore else {
            throw RuntimeError.hostOutOfMemory(step: self.step)
        }
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
        let marks = Self.marks(before: before, after: device.metrics, action: action)
        timeline.append(.init(step: self.step, event: action.label + (applied ? "" : " (skipped)"),
                              retainedBytes: used, level: device.level, marks: marks.isEmpty ? nil : marks,
                              aliveApps: device.cachedAppCount))
        if self.step % 256 == 0 { progress?(self.step, total) }
    }

    private var foreground: Application? { device.foreground?.app }

    /// The device counters a step's marks are computed from (not the whole metrics, whose
    /// arrays would be copied on the next write if a second reference were kept).
    struct CountersSnapshot {
        var killed: Int, coldLaunches: Int, resumes: Int, thaws: Int, freezes: Int, outOfMemoryCrashes: Int
        var backgroundLaunches: Int, homeTerminations: Int, backgroundExpirations: Int, interruptions: Int
        init(_ metrics: DeviceMetrics) {
            interruptions = metrics.interruptions
            backgroundLaunches = metrics.backgroundLaunches
            homeTerminations = metrics.homeTerminations
            backgroundExpirations = metrics.backgroundExpirations
            killed = metrics.killOrder.count
            coldLaunches = metrics.coldLaunches
            resumes = metrics.resumes
            thaws = metrics.thaws
            freezes = metrics.freezes
            outOfMemoryCrashes = metrics.outOfMemoryCrashes
        }
    }

    static func marks(before: CountersSnapshot, after: DeviceMetrics, action: UserAction) -> [TimelineMark] {
        // Each kill with the limit or level it answered (docs/fidelity.md, kill reasons).
        var marks: [TimelineMark] = zip(after.killOrder, after.killReasons).dropFirst(before.killed).map { .kill(app: $0.0, reason: $0.1) }
        if after.homeTerminations > before.homeTerminations { marks.append(.terminatedOnHome) }
        let app = action.app
        if after.coldLaunches > before.coldLaunches { marks.append(.coldLaunch(app)) }
        if after.resumes > before.resumes { marks.append(.resume(app)) }
        if after.thaws > before.thaws { marks.append(.thaw(app)) }
        for _ in before.freezes..<after.freezes { marks.append(.freeze) }
        for _ in before.outOfMemoryCrashes..<after.outOfMemoryCrashes { marks.append(.outOfMemory) }
        if after.interruptions > before.interruptions { marks.append(.interrupted) }
        if after.backgroundLaunches > before.backgroundLaunches { marks.append(.backgroundLaunch(app)) }
        for _ in before.backgroundExpirations..<after.backgroundExpirations { marks.append(.backgroundTimeOver) }
        if case .warning = action { marks.append(.warning) }
        return marks
    }

    /// Draws one action from the mix, with arguments from the seed (``UserAction/draw(from:apps:screens:using:)``).
    private mutating func draw(_ mix: UserAction.WeighedMix, apps: [String]) -> UserAction {
        let screens = foreground?.runtime.randomScreenNames ?? []
        guard let action = UserAction.draw(from: mix, apps: apps, screens: screens, using: &random) else {
            preconditionFailure("a random mix names only kinds drawn at random (the scenario reader checks it)")
        }
        return action
    }

    func metrics(statistics: ReloadStatistics) -> RunMetrics {
        let bytes = timeline.map(\.retainedBytes)
        let counters = apps.values.map(\.runtime.cleanupCounters)
        func sum(_ key: KeyPath<CleanupCounters, Int>) -> Int { counters.reduce(0) { $0 + $1[keyPath: key] } }
        let deviceMetrics = device.metrics
        var metrics = RunMetrics(
            peakRetainedBytes: bytes.max() ?? 0, finalRetainedBytes: bytes.last ?? 0,
            meanRetainedBytes: bytes.isEmpty ? 0 : bytes.reduce(0, +) / bytes.count,
            warnings: sum(\.warnings), viewUnloads: sum(\.viewUnloads), viewReloads: statistics.count(.viewReload),
            backingStorePurges: sum(\.backingStorePurges), cachePurges: sum(\.cachePurges),
            kills: deviceMetrics.kills, freezes: deviceMetrics.freezes, coldLaunches: deviceMetrics.coldLaunches,
            resumes: deviceMetrics.resumes, outOfMemoryCrashes: deviceMetrics.outOfMemoryCrashes,
            dataLossBytes: apps.values.reduce(0) { $0 + $1.dataLossBytes }, cachedAppsMean: deviceMetrics.cachedAppsMean,
            viewReloadLatencyNs: LatencySummary(statistics.summary(.viewReload)),
            coldLaunchLatencyNs: LatencySummary(deviceMetrics.launchLatency(.cold)),
            resumeLatencyNs: LatencySummary(deviceMetrics.launchLatency(.resume)),
            thaws: deviceMetrics.thaws, modelReleases: sum(\.modelReleases),
            backingStoreRedrawLatencyNs: LatencySummary(statistics.summary(.backingStoreRedraw)),
            cacheRefillLatencyNs: LatencySummary(statistics.summary(.cacheRefill)),
            modelReloadLatencyNs: LatencySummary(statistics.summary(.modelReload)),
            thawLatencyNs: LatencySummary(deviceMetrics.launchLatency(.thaw)),
            reloadTimeNs: statistics.totalNanoseconds, skippedSteps: skipped, steps: step)
        func nonZero(_ count: Int) -> Int? { count == 0 ? nil : count }
        metrics.interruptions = nonZero(deviceMetrics.interruptions)
        metrics.backgroundLaunches = nonZero(deviceMetrics.backgroundLaunches)
        metrics.homeTerminations = nonZero(deviceMetrics.homeTerminations)
        metrics.backgroundExpirations = nonZero(deviceMetrics.backgroundExpirations)
        metrics.cleanResidentBytesPeak = cleanPeak
        metrics.cleanResidentBytesMean = timeline.isEmpty ? 0 : cleanSum / timeline.count
        metrics.cleanBytesDropped = deviceMetrics.cleanBytesDropped
        metrics.platformFootprintBytesPeak = platformFootprintPeak
        return metrics
    }
}
