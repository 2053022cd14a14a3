import PressureLab

/// A scenario, format version 1 (docs/formats.md, "Scenario"): a device, apps with their
/// screens and hierarchy, and a script of steps.
public struct Scenario: Sendable {
    /// The scenario's name.
    public var name: String
    /// What it models, in a line.
    public var description: String
    /// The seed of its random steps and contents.
    public var seed: UInt64
    /// The device it runs on.
    public var device: DeviceSpec
    /// Apps in file order.
    public var apps: [AppSpec]
    /// What happens, step by step.
    public var script: [Step]
    /// The file it was read from.
    public var path: String
    /// The `replay` step the script had (already expanded into `switch` and `idle` steps).
    public var replay: TraceReplay?

    /// The device section.
    public struct DeviceSpec: Sendable {
        /// The device's memory budget for apps, bytes.
        public var memoryBytes: Int
        /// The pressure levels' thresholds.
        public var thresholds: PressureThresholds
        /// The per-process limit of an active app (`app_limit`), bytes; nil: none.
        public var appLimitBytes: Int?
        /// The per-app limit while an app is suspended (`app_limit_inactive`, XNU's
        /// `memlimit_inactive`); nil: the same as ``appLimitBytes``.
        public var appLimitInactiveBytes: Int?
        /// The device profile the scenario names (`device: { profile: NAME }`), if any.
        public var profile: String?
        /// Compressibility per kind of memory, overriding the profile's `content:`.
        public var content: [MemoryContents.Kind: Double]
        /// The release whose app life cycle the device runs (`device: { os: "3" }`):
        /// multitasking, background task limits and the unload cycle. It must be of the
        /// profile's platform (an iOS release on an iPhone, an Android one on a Pixel). Nil: the
        /// profile's own release on Android; on iOS, multitasking as today's iOS and the unload
        /// cycle of the cleanup policy's generation (`OSRelease.appLifeCycleRelease(named:)`).
        public var os: OSRelease?
        /// Where the scenario file names ``os`` (line and column, from 1): what an error names
        /// when a profile given on the command line is of another platform.
        public var osLocation: (line: Int, column: Int)?
        /// The device and its apps are simulated at 1/N of their memory (`memory_scale: N`,
        /// docs/importing.md, "Processes bigger than the host"): the scenario's figures are
        /// already the simulation's; results multiply bytes back by N, device time charges
        /// bytes N times, and every output says the scale. 1: as declared.
        public var memoryScale = 1
        /// How the device's memory is held: a budget the apps share (`memory`), or the kernel's
        /// books of the profile (`memory_model: kernel`, docs/memory-under-load.md).
        public var memoryModel: MemoryModel = .budget
        /// Memory a process pins before the workload starts (an experiment's `lock_memory`),
        /// bytes: with the kernel's books, the system's anonymous memory grows by it.
        public var lockedBytes = 0

        /// How a device's memory is held.
        public enum MemoryModel: String, Sendable, CaseIterable {
            /// The apps share a budget (`device.memory`); clean pages fill what is left.
            case budget
            /// Linux's books (the profile's `kernel:`): MemTotal, the kernel's and the system's
            /// memory, the page cache, watermarks, kswapd, direct reclaim and the OOM killer.
            case kernel
        }

        /// Why a scenario's `device.os` cannot run on a device of `profileRelease` (the profile
        /// named `profile`, nil: none, an iPhone's rules), or nil when it can: a release of
        /// another platform than the profile's.
        public static func platformProblem(os: OSRelease, profileRelease: OSRelease, profile: String?) -> String? {
            let valid = profileRelease.lifeCycleReleases
            guard !valid.contains(os) else { return nil }
            let device = profile.map { "the profile \($0) runs \(profileRelease)" }
                ?? "without a profile the device follows \(profileRelease)'s rules"
            return "\(os) is not a release of the device's platform: \(device); name one of "
                + "\(valid.map(\.rawValue).joined(separator: ", ")), or leave os out"
                + (profile == nil ? " (or name a profile of \(os)'s platform)" : "")
        }

        /// A device with each field given; see the properties.
        public init(memoryBytes: Int, thresholds: PressureThresholds, appLimitBytes: Int?, profile: String? = nil,
                    content: [MemoryContents.Kind: Double] = [:], os: OSRelease? = nil, appLimitInactiveBytes: Int? = nil) {
            self.memoryBytes = memoryBytes
            self.appLimitInactiveBytes = appLimitInactiveBytes
            self.thresholds = thresholds
            self.appLimitBytes = appLimitBytes
            self.profile = profile
            self.content = content
            self.os = os
        }
    }

    /// One app: its data, screens and root hierarchy, and how it behaves in the background.
    public struct AppSpec: Sendable {
        /// The app's name.
        public var name: String
        /// App-wide data, bytes (loaded at launch).
        public var dataBytes: Int
        /// Clean file-backed memory it maps: code and resources (`clean: 40MiB`; 0: none).
        public var cleanBytes: Int = 0
        /// The app's screens.
        public var screens: [ScreenSpec]
        /// The launch hierarchy: a screen, a navigation stack or tabs.
        public var root: HierarchySpec
        /// What keeps it running after Home (`background: audio | location | task:30s`).
        public var background: BackgroundMode?
        /// What it releases in `didEnterBackground` (`on_background: [caches, models, backing]`).
        public var onBackground: Set<ReleasableItem> = []
        /// Android: the processes it runs beside its main one (`processes:`); none, one process.
        public var processes: [ProcessSpec] = []
        /// GPU memory its own rendering context holds while the process lives, kept in the
        /// background (`gpu: 114MiB`; 0: none): `Application/graphicsContextBytes`.
        public var gpuBytes: Int = 0
        /// Android: how often its runtime collects while it is in the background (`background_gc:
        /// 20s`; nil: only after it leaves the front): `Application/backgroundCollectionSeconds`.
        public var backgroundCollectionSeconds: Double?

        /// An app as a scenario file declares it (`data`, `clean`, `gpu`, `screens`, `root`,
        /// `background`, `on_background`, `processes`).
        public init(name: String, dataBytes: Int = 0, cleanBytes: Int = 0, gpuBytes: Int = 0, screens: [ScreenSpec],
                    root: HierarchySpec, background: BackgroundMode? = nil, onBackground: Set<ReleasableItem> = [],
                    processes: [ProcessSpec] = []) {
            self.name = name
            self.gpuBytes = gpuBytes
            self.processes = processes
            self.dataBytes = dataBytes
            self.cleanBytes = cleanBytes
            self.screens = screens
            self.root = root
            self.background = background
            self.onBackground = onBackground
        }
    }

    /// One step of the script: an action (`UserAction`), or a `repeat` or `random` that
    /// the runner expands into actions.
    public indirect enum Step: Sendable, Equatable {
        /// One action.
        case action(UserAction)
        /// `repeat`: the steps, `times` times.
        case repeatSteps(times: Int, steps: [Step])
        /// That many actions drawn from the mix (weights by kind) with the run's seed.
        case random(steps: Int, mix: [UserAction.Kind: Double])

        /// The step as the timeline and trace name it, e.g. `push detail`.
        public var label: String {
            switch self {
            case .action(let action): return action.label
            case .repeatSteps(let times, _): return "repeat \(times)"
            case .random(let steps, _): return "random \(steps)"
            }
        }

        /// The step names a script may use: every action's, and the steps the runner expands.
        public static var names: [String] {
            UserAction.Kind.allCases.map(\.rawValue) + ["repeat", "random", "replay"]
        }
    }

    /// The step kinds a `random` mix may name, as scenarios write them.
    public static let randomStepKinds = UserAction.Kind.allCases.filter(\.isDrawnAtRandom).map(\.rawValue)

    /// The number of steps the script performs once `repeat` is expanded (a `random` counts
    /// its steps). Counts work, not entries: every iteration of a `repeat` costs at least one
    /// step, so an empty loop of a million iterations counts a million. Saturates at `Int.max`.
    public var expandedStepCount: Int {
        func count(_ steps: [Step]) -> Int {
            steps.reduce(0) { total, step in
                switch step {
                case .repeatSteps(let times, let inner):
                    return total.addingSaturating(times.multipliedSaturating(by: max(1, count(inner))))
                case .random(let steps, _): return total.addingSaturating(steps)
                default: return total.addingSaturating(1)
                }
            }
        }
        return count(script)
    }
}

extension Scenario.AppSpec {
    /// The app as the scenario declares it: a runtime with its screens registered, behaving
    /// as `generation` under `cleanup`, and its data, clean memory and background behaviour.
    /// A device gives it the rest when it is installed (`DeviceModel/apply(to:)`).
    public func makeApplication(generation: OSRelease, cleanup: any CleanupPolicy, trace: TraceRecorder,
                                statistics: ReloadStatistics) throws -> Application {
        let runtime = try RuntimeContext(app: name, generation: generation, trace: trace, reloadStatistics: statistics)
        for screen in screens { try runtime.register(screen) }
        runtime.cleanupPolicy = cleanup
        let app = Application(name: name, runtime: runtime, hierarchy: root)
        app.appDataBytes = dataBytes
        app.cleanBytes = cleanBytes
        app.graphicsContextBytes = gpuBytes
        app.backgroundCollectionSeconds = backgroundCollectionSeconds
        app.backgroundMode = background
        app.releasesOnBackground = onBackground
        app.processes = processes
        return app
    }
}
