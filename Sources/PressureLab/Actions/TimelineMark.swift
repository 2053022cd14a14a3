/// What the device did during a step, as a results file's timeline records it
/// (docs/formats.md, "Results"): written as text (`kill mail (idle-exit)`, `cold launch
/// maps`, `oom`), read back into this type. A mark a newer tool wrote that this build does
/// not know is kept as ``other(_:)``.
public enum TimelineMark: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// An app was killed, with the limit or level the kill answered (docs/fidelity.md).
    case kill(app: String, reason: KillReason)
    /// One of an app's secondary processes was killed (Android: `APP:PROCESS`); the app lives on.
    case killProcess(app: String, process: String, reason: KillReason)
    /// An allocation found no memory: the app crashed (an out-of-memory crash).
    case outOfMemory
    /// Home terminated the app (before iOS 4).
    case terminatedOnHome
    /// The step's app launched cold, resumed, or thawed (the app, when the step names one).
    case coldLaunch(String?)
    /// The step's app resumed (a hot launch).
    case resume(String?)
    /// The step's app was thawed from the freezer.
    case thaw(String?)
    /// The app was launched into the background.
    case backgroundLaunch(String?)
    /// The freezer froze an app.
    case freeze
    /// A call or an alert covered the foreground app.
    case interrupted
    /// An app's background time ran out: it was suspended.
    case backgroundTimeOver
    /// A memory warning was injected.
    case warning
    /// A mark this build does not know.
    case other(String)

    /// How a report draws a mark.
    public enum Category: Sendable {
        /// Kills, launches, warnings, freezes, other life-cycle events, and the rest.
        case kill, launch, warning, freeze, lifeCycle, other
    }

    /// How a report draws this mark.
    public var category: Category {
        switch self {
        case .kill, .killProcess, .outOfMemory: return .kill
        case .coldLaunch, .resume, .thaw: return .launch
        case .warning: return .warning
        case .freeze: return .freeze
        case .terminatedOnHome, .backgroundLaunch, .interrupted, .backgroundTimeOver: return .lifeCycle
        case .other: return .other
        }
    }

    /// The marks that name an app after their words, and those words.
    private static let withApp: [(String, @Sendable (String?) -> TimelineMark)] = [
        ("cold launch", { .coldLaunch($0) }), ("resume", { .resume($0) }), ("thaw", { .thaw($0) }),
        ("background launch", { .backgroundLaunch($0) }),
    ]

    public var description: String {
        func named(_ words: String, _ app: String?) -> String { app.map { "\(words) \($0)" } ?? words }
        switch self {
        case .kill(let app, let reason): return "kill \(app) (\(reason.rawValue))"
        case .killProcess(let app, let process, let reason): return "kill \(app):\(process) (\(reason.rawValue))"
        case .outOfMemory: return "oom"
        case .terminatedOnHome: return "terminated on home"
        case .coldLaunch(let app): return named("cold launch", app)
        case .resume(let app): return named("resume", app)
        case .thaw(let app): return named("thaw", app)
        case .backgroundLaunch(let app): return named("background launch", app)
        case .freeze: return "freeze"
        case .interrupted: return "interrupted"
        case .backgroundTimeOver: return "background time over"
        case .warning: return "warning"
        case .other(let text): return text
        }
    }

    /// The mark a text names (``other(_:)`` when it names none this build knows).
    public init(_ text: String) {
        switch text {
        case "oom": self = .outOfMemory
        case "terminated on home": self = .terminatedOnHome
        case "freeze": self = .freeze
        case "interrupted": self = .interrupted
        case "background time over": self = .backgroundTimeOver
        case "warning": self = .warning
        default:
            if text.hasPrefix("kill "), text.hasSuffix(")"), let open = text.range(of: " (", options: .backwards),
               let reason = KillReason(rawValue: String(text[open.upperBound..<text.index(before: text.endIndex)])) {
                let name = text[text.index(text.startIndex, offsetBy: 5)..<open.lowerBound]
                // Android names a secondary process APP:PROCESS; an app's name has no colon.
                if let colon = name.firstIndex(of: ":") {
                    self = .killProcess(app: String(name[..<colon]), process: String(name[name.index(after: colon)...]), reason: reason)
                } else {
                    self = .kill(app: String(name), reason: reason)
                }
                return
            }
            for (words, make) in Self.withApp {
                if text == words { self = make(nil); return }
                if text.hasPrefix(words + " ") { self = make(String(text.dropFirst(words.count + 1))); return }
            }
            self = .other(text)
        }
    }

    public init(stringLiteral text: String) { self.init(text) }

    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
