import PressureLab
import PressureLabHeap

/// An experiment in the style of Fleet's (ASPLOS 2024): one workload (a scenario that
/// launches apps in sequence) under several device configurations, with the apps alive right
/// after each launch and every hot launch's device time, set beside the published figures
/// where they exist (design: "published beside modelled").
public struct DeviceExperiment: Sendable {
    /// One configuration: its name in the output, its policies and compressor, and the
    /// published series it is compared with (nil: none published). Any policy can be given,
    /// a built-in one or one written in Swift.
    public struct Configuration: Sendable {
        /// The configuration's name in the output (`android-no-swap`).
        public var name: String
        /// The device's termination policy.
        public var termination: Termination
        /// The apps' cleanup policy (iOS 6's by default).
        public var cleanup: Cleanup = .ios6
        /// The compressor of the device's memory.
        public var compressor: Compressor
        /// The key of the published alive-after-launch series, and of the hot-launch series.
        public var publishedAlive: String?
        /// (The hot-launch series' key.)
        public var publishedHotLaunch: String?
        /// What the configuration is, in a line (how it departs from the published setup).
        public var note: String
        /// A swap file on flash of this many bytes (nil: none).
        public var swapFileBytes: Int?
        /// Memory locked away from the apps before the workload starts (a process pinning it), bytes:
        /// the workload's budget less this.
        public var lockedBytes: Int = 0
        /// The key of the published background-memory series (nil: none).
        public var publishedBackground: String?

        /// A configuration with each field given; see the properties.
        public init(name: String, termination: Termination, cleanup: Cleanup = .ios6, compressor: Compressor,
                    publishedAlive: String? = nil, publishedHotLaunch: String? = nil, note: String, swapFileBytes: Int? = nil,
                    lockedBytes: Int = 0, publishedBackground: String? = nil) {
            self.lockedBytes = lockedBytes
            self.publishedBackground = publishedBackground
            self.name = name
            self.termination = termination
            self.cleanup = cleanup
            self.compressor = compressor
            self.publishedAlive = publishedAlive
            self.publishedHotLaunch = publishedHotLaunch
            self.note = note
            self.swapFileBytes = swapFileBytes
        }
    }

    /// Fleet's swap file: `dd bs=1025 count=2097152` (configure-flash-swap.sh, jiachengh/Fleet
    /// @ 32f22f7a): 2,149,580,800 bytes.
    public static let fleetSwapFileBytes = 1025 * 2_097_152

    /// One configuration's outcome (`pressurelab device --format json` writes these).
    public struct Outcome: Encodable, Sendable {
        /// The configuration's name.
        public var name: String
        /// Apps alive right after each launch, in order.
        public var aliveAfterLaunch: [Int]
        /// Hot launches (resumes) by app, device time.
        public var hotLaunchDeviceNs: [String: LatencySummary]
        /// Kills during the workload.
        public var kills: Int
        /// The workload's kills by cause (`too-many-cached`, `kernel-oom`, lmkd's levels, ...).
        public var killsByReason: [String: Int]
        /// The workload's kills by the kind of process killed: `main` (the app's own, the app
        /// dies) or `secondary` (one of its other processes; the app lives on).
        public var killsByProcess: [String: Int] = [:]
        /// Each app's mean memory while it is alive and not in front, over the workload's
        /// steps, as PSS + swap counts it: measured bytes (its secondary processes included;
        /// what is compressed or swapped at its own size) and its clean file pages resident.
        public var backgroundMeanBytes: [String: Int] = [:]
        /// Swap and the runtime in the workload: collections Android's runtime ran in the
        /// background, the bytes they read back from zram or the swap file, and the bytes swapped out.
        public var swapActivity = SwapActivity()
        /// What the kernel's reclaim did in the workload (kswapd, direct reclaim, refaults), on a
        /// device with the kernel's books (docs/memory-under-load.md); nil with a budget.
        public var kernelReclaim: LinuxMemoryCounters?
        /// Apps frozen during the workload.
        public var freezes: Int
        /// Cold launches during the workload.
        public var coldLaunches: Int
        /// The published figures this configuration is compared with (nil: none).
        public var published: Published?
        /// The run's full results.
        public var run: RunResult

        /// Published figures for one configuration.
        public struct Published: Codable, Sendable {
            /// Apps alive right after each launch, as published.
            public var aliveAfterLaunch: [Int]?
            /// Hot-launch samples by app, milliseconds, as published.
            public var hotLaunchMs: [String: [Double]]?
            /// Each app's memory in the background as the phone measured it (PSS + swap), kB.
            public var backgroundKB: [String: Double]?
        }

        private enum CodingKeys: String, CodingKey {
            case name, aliveAfterLaunch, hotLaunchDeviceNs, kills, killsByReason, killsByProcess, backgroundMeanBytes, freezes
            case coldLaunches, published, swapActivity, kernelReclaim
        }

        /// An outcome with each field given (readers and tests).
        public init(name: String, aliveAfterLaunch: [Int], hotLaunchDeviceNs: [String: LatencySummary], kills: Int,
                    killsByReason: [String: Int] = [:], freezes: Int, coldLaunches: Int, published: Published?, run: RunResult) {
            self.name = name
            self.aliveAfterLaunch = aliveAfterLaunch
            self.hotLaunchDeviceNs = hotLaunchDeviceNs
            self.kills = kills
            self.killsByReason = killsByReason
            self.freezes = freezes
            self.coldLaunches = coldLaunches
            self.published = published
            self.run = run
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(aliveAfterLaunch, forKey: .aliveAfterLaunch)
            try container.encode(hotLaunchDeviceNs, forKey: .hotLaunchDeviceNs)
            try container.encode(kills, forKey: .kills)
            try container.encode(killsByReason, forKey: .killsByReason)
            try container.encode(killsByProcess, forKey: .killsByProcess)
            try container.encode(backgroundMeanBytes, forKey: .backgroundMeanBytes)
            try container.encode(freezes, forKey: .freezes)
            try container.encode(coldLaunches, forKey: .coldLaunches)
            try container.encodeIfPresent(published, forKey: .published)
            try container.encode(swapActivity, forKey: .swapActivity)
            try container.encodeIfPresent(kernelReclaim, forKey: .kernelReclaim)
        }

        /// The mean and maximum of the apps alive after each launch.
        public var aliveMean: Double { PublishedComparison.mean(aliveAfterLaunch) ?? 0 }
        /// The most apps alive right after a launch.
        public var aliveMax: Int { aliveAfterLaunch.max() ?? 0 }
    }

    /// An outcome with its run, as a worker process hands it to the experiment's process
    /// (`device --jobs`): every field, the run's results included.
    package struct TransportedOutcome: Codable {
        var name: String
        var aliveAfterLaunch: [Int]
        var hotLaunchDeviceNs: [String: LatencySummary]
        var kills: Int
        var killsByReason: [String: Int]
        var killsByProcess: [String: Int]
        var backgroundMeanBytes: [String: Int]
        var swapActivity: SwapActivity
        var kernelReclaim: LinuxMemoryCounters?
        var freezes: Int
        var coldLaunches: Int
        var published: Outcome.Published?
        var run: RunResult

        package init(_ outcome: Outcome) {
            (name, aliveAfterLaunch, hotLaunchDeviceNs, kills) = (outcome.name, outcome.aliveAfterLaunch, outcome.hotLaunchDeviceNs, outcome.kills)
            (killsByReason, freezes, coldLaunches) = (outcome.killsByReason, outcome.freezes, outcome.coldLaunches)
            (killsByProcess, backgroundMeanBytes) = (outcome.killsByProcess, outcome.backgroundMeanBytes)
            (published, run, swapActivity) = (outcome.published, outcome.run, outcome.swapActivity)
            kernelReclaim = outcome.kernelReclaim
        }

        package var outcome: Outcome {
            var outcome = Outcome(name: name, aliveAfterLaunch: aliveAfterLaunch, hotLaunchDeviceNs: hotLaunchDeviceNs, kills: kills,
                                  killsByReason: killsByReason, freezes: freezes, coldLaunches: coldLaunches, published: published,
                                  run: run)
            (outcome.killsByProcess, outcome.backgroundMeanBytes) = (killsByProcess, backgroundMeanBytes)
            outcome.swapActivity = swapActivity
            outcome.kernelReclaim = kernelReclaim
            return outcome
        }
    }

    /// What `pressurelab device --format json` writes.
    public struct Report: Encodable, Sendable {
        /// The experiment's name (`fleet`, `pixel4`).
        public var experiment: String
        /// Each configuration's outcome, in order.
        public var configurations: [Outcome]

        /// A report of the configurations' outcomes.
        public init(experiment: String, configurations: [Outcome]) {
            self.experiment = experiment
            self.configurations = configurations
        }
    }

    /// The configurations compared: Android 10 as Fleet's phone ran it (lmkd's kill path
    /// disabled, without swap and with its 2 GiB swap file on flash), XNU's freezer (a what-if
    /// on Android), and the Pixel 3 as it ships (lmkd on, without swap and with its zram).
    public static func configurations(compressor: Compressor) -> [Configuration] {
        return [
            Configuration(name: "android-no-swap", termination: .lmkWithoutLmkd, compressor: .none,
                          publishedAlive: "android-no-swap", publishedHotLaunch: "android",
                          note: "as Fleet's phone ran: lmkd's kill path disabled (ActivityManager's cached limit and the kernel's OOM killer kill), no swap"),
            Configuration(name: "android-swap", termination: .lmkWithoutLmkd, compressor: .none, publishedAlive: "android-swap",
                          publishedHotLaunch: "android",
                          note: "as Fleet's phone ran: lmkd's kill path disabled, a 2 GiB swap file on flash (swapped region by region, read back when touched)",
                          swapFileBytes: fleetSwapFileBytes),
            Configuration(name: "fleet", termination: .fleet, compressor: .none, publishedAlive: "fleet", publishedHotLaunch: "fleet",
                          note: "Fleet's policy as its phone ran it: its runtime keeps hot objects in memory and collects in the "
                            + "background without reading what went to swap; lmkd's kill path disabled, its 2 GiB swap file on flash",
                          swapFileBytes: fleetSwapFileBytes),
            Configuration(name: "freezer", termination: .freeze, compressor: .none, publishedAlive: nil, publishedHotLaunch: nil,
                          note: "XNU's freezer: nothing published"),
            Configuration(name: "stock-lmkd", termination: .lmk, compressor: .none, publishedAlive: nil, publishedHotLaunch: nil,
                          note: "the Pixel 3 as it ships, lmkd on, without swap: nothing published"),
            Configuration(name: "stock-lmkd-zram", termination: .lmk, compressor: compressor, publishedAlive: nil,
                          publishedHotLaunch: nil,
                          note: "the Pixel 3 as it ships: lmkd on, \(compressor.rawValue) zram: nothing published"),
        ]
    }

    /// The free pages the allocator may keep resident for reuse during a configuration's run
    /// beyond the budget the apps leave unused (``spareHeapAllowance(budgetBytes:usedBytes:)``);
    /// past this, they go back to the system (part of the overhead docs/limits.md states).
    public static let spareHeapBytes = 512 << 20

    /// The free pages the allocator may keep after a step: ``spareHeapBytes``, plus the part
    /// of the device's budget its apps do not hold now. What the apps hold and the spare pages
    /// then add up to at most the budget plus ``spareHeapBytes``, the bound docs/limits.md
    /// states, while memory a killed app freed stays for the next launch instead of going back
    /// to the system and being faulted in again (issue 57: 15.5 M page faults on Fleet's six
    /// configurations, most of them pages purged and touched again).
    public static func spareHeapAllowance(budgetBytes: Int, usedBytes: Int) -> Int {
        spareHeapBytes + max(0, budgetBytes - usedBytes)
    }

    /// Runs one configuration of `workload` (apps alive after each launch) and of
    /// `hotLaunchWorkload` (hot launches by app; `workload`'s own when nil) and gathers the outcome.
    public static func run(_ workload: Scenario, hotLaunchWorkload: Scenario? = nil, configuration: Configuration,
                           profile: DeviceProfile, published: PublishedExperiment?,
                           progress: ((Int, Int) -> Void)? = nil) throws -> Outcome {
        func simulate(_ given: Scenario, background: BackgroundMemory? = nil) throws -> RunResult {
            var scenario = given
            if configuration.lockedBytes > 0 {
                // With the kernel's books the locked pages are the system's, pinned; with a
                // budget, the budget is smaller by them.
                if scenario.device.memoryModel == .kernel {
                    scenario.device.lockedBytes = configuration.lockedBytes
                } else {
                    scenario.device.memoryBytes = max(0, scenario.device.memoryBytes - configuration.lockedBytes)
                }
            }
            let simulation = try Simulation(scenario, cleanup: configuration.cleanup, termination: configuration.termination,
                                            profile: profile, compressor: configuration.compressor,
                                            swapFileBytes: configuration.swapFileBytes, progress: progress)
            simulation.afterStep = { device in
                background?.sample(device)
                // A killed app's heap is freed at once; jemalloc keeps freed pages resident for
                // reuse, which on phone-sized runs grew past a gigabyte: the spare is bounded
                // (docs/limits.md, "The device experiment's memory and time"). No figure moves.
                // The budget is the bound's: the memory the scenario declares (on the kernel's
                // books the apps' own share, `device.budgetBytes`, is far smaller, and a spare
                // bounded by it was purged whole again and again).
                _ = try? Heap.purge(ifSpareAbove: Self.spareHeapAllowance(budgetBytes: device.model.budgetBytes,
                                                                           usedBytes: device.usedBytes))
            }
            return try simulation.run()
        }
        let background = BackgroundMemory()
        let run = try simulate(workload, background: background)
        let hotRun = try hotLaunchWorkload.map { try simulate($0) } ?? run
        let alive = run.timeline.filter { [.launch, .switchTo].contains($0.actionKind) }.compactMap(\.aliveApps)
        let publishedFigures = published.flatMap { published -> Outcome.Published? in
            let alive = configuration.publishedAlive.flatMap { published.aliveAfterLaunch[$0] }
            let hot = configuration.publishedHotLaunch.flatMap { published.hotLaunchMs[$0] }
            let background = configuration.publishedBackground.flatMap { published.backgroundKB?[$0] }
            return alive == nil && hot == nil && background == nil ? nil
                : Outcome.Published(aliveAfterLaunch: alive, hotLaunchMs: hot, backgroundKB: background)
        }
        var killsByReason: [String: Int] = [:]
        var killsByProcess: [String: Int] = [:]
        for mark in run.timeline.flatMap({ $0.marks ?? [] }) {
            switch mark {
            case .kill(_, let reason):
                killsByReason[reason.rawValue, default: 0] += 1
                killsByProcess["main", default: 0] += 1
            case .killProcess(_, _, let reason):
                killsByReason[reason.rawValue, default: 0] += 1
                killsByProcess["secondary", default: 0] += 1
            default: break
            }
        }
        var outcome = Outcome(name: configuration.name, aliveAfterLaunch: alive,
                              hotLaunchDeviceNs: hotRun.metrics.resumeDeviceNsByApp ?? [:],
                              kills: run.metrics.kills, killsByReason: killsByReason, freezes: run.metrics.freezes,
                              coldLaunches: run.metrics.coldLaunches, published: publishedFigures, run: run)
        outcome.killsByProcess = killsByProcess
        outcome.backgroundMeanBytes = background.means
        outcome.swapActivity = background.swapActivity
        outcome.kernelReclaim = background.kernelReclaim
        return outcome
    }
}
