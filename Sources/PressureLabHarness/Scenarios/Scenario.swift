import PressureLab

/// A scenario, format version 1 (docs/formats.md, "Scenario"): a device, apps with their
/// screens and hierarchy, and a script of steps.
public struct Scenario: Sendable {
    public var name: String
    public var description: String
    public var seed: UInt64
    public var device: DeviceSpec
    /// Apps in file order.
    public var apps: [AppSpec]
    public var script: [Step]
    /// The file it was read from.
    public var path: String
    /// The `replay` step the script had (already expanded into `switch` and `idle` steps).
    public var replay: TraceReplay?

    /// The device section.
    public struct DeviceSpec: Sendable {
        public var memoryBytes: Int
        public var thresholds: PressureThresholds
        public var appLimitBytes: Int?
        /// The per-app limit while an app is suspended (`app_limit_inactive`, XNU's
        /// `memlimit_inactive`); nil: the same as ``appLimitBytes``.
        public var appLimitInactiveBytes: Int?
        /// The device profile the scenario names (`device: { profile: NAME }`), if any.
        public var profile: String?
        /// Compressibility per kind of memory, overriding the profile's `content:`.
        public var content: [String: Double]
        /// The iOS release the device runs (`device: { os: "3" }`): multitasking, background
        /// task limits and the unload cycle. Nil: multitasking as today's iOS, and the unload
        /// cycle of the cleanup policy's generation.
        public var os: OSRelease?

        public init(memoryBytes: Int, thresholds: PressureThresholds, appLimitBytes: Int?, profile: String? = nil,
                    content: [String: Double] = [:], os: OSRelease? = nil, appLimitInactiveBytes: Int? = nil) {
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
        public var name: String
        public var dataBytes: Int
        /// Clean file-backed memory it maps: code and resources (`clean: 40MiB`; 0: none).
        public var cleanBytes: Int = 0
        public var screens: [ScreenSpec]
        public var root: HierarchySpec
        /// What keeps it running after Home (`background: audio | location | task:30s`).
        public var background: BackgroundMode?
        /// What it releases in `didEnterBackground` (`on_background: [caches, models, backing]`).
        public var onBackground: Set<ReleasableItem> = []
    }

    /// One step of the script.
    public indirect enum Step: Sendable, Equatable {
        case launch(String)
        case push(String)
        case pop(Int)
        case popToRoot
        case selectTab(Int)
        case present(String)
        case dismiss
        case type(Int)
        case scroll(Int)
        case warning(PressureLevel)
        case home
        case switchTo(String)
        case idle(Double)
        /// A call or an alert covers the foreground app for a while.
        case interrupt(Double)
        /// An app launched straight into the background.
        case launchBackground(String)
        case repeatSteps(times: Int, steps: [Step])
        case random(steps: Int, mix: [RandomStepKind: Double])

        /// The step as the timeline and trace name it, e.g. `push detail`.
        public var label: String {
            switch self {
            case .launch(let app): return "launch \(app)"
            case .push(let screen): return "push \(screen)"
            case .pop(let count): return count == 1 ? "pop" : "pop \(count)"
            case .popToRoot: return "pop_to_root"
            case .selectTab(let index): return "select_tab \(index)"
            case .present(let screen): return "present \(screen)"
            case .dismiss: return "dismiss"
            case .type(let bytes): return "type \(bytes)"
            case .scroll(let rows): return "scroll \(rows)"
            case .warning(let level): return "warning \(level)"
            case .home: return "home"
            case .switchTo(let app): return "switch \(app)"
            case .idle(let seconds): return "idle \(seconds)s"
            case .interrupt(let seconds): return "interrupt \(seconds)s"
            case .launchBackground(let app): return "launch_background \(app)"
            case .repeatSteps(let times, _): return "repeat \(times)"
            case .random(let steps, _): return "random \(steps)"
            }
        }
    }

    /// The step kinds a `random` mix may name, as scenarios write them.
    public static let randomStepKinds = RandomStepKind.allCases.map(\.rawValue)

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

/// A kind of step a `random` mix draws, with its weight (`mix: { push: 4, pop: 3 }`).
public enum RandomStepKind: String, CaseIterable, Sendable, Comparable {
    case push, pop
    case selectTab = "select_tab"
    case switchApp = "switch"
    case present, dismiss, warning, type, scroll, home, idle
    case popToRoot = "pop_to_root"

    /// By name, so that a seed draws the same steps as it always did.
    public static func < (lhs: RandomStepKind, rhs: RandomStepKind) -> Bool { lhs.rawValue < rhs.rawValue }
}
