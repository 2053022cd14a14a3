/// Something a user or the system does to a device in a script: open an app, navigate in
/// the app in front, go Home, wait, take a call, raise a memory warning.
/// ``Device/perform(_:)`` applies one and ends the step. The scenario format names each by
/// its ``Kind`` (docs/formats.md, "Script steps").
///
/// A new action is a case here, its ``Kind`` with its traits, and what
/// ``Device/perform(_:)`` does for it: the scenario reader, the labels, the help text and
/// the declared-work checks follow from the traits.
public enum UserAction: Sendable, Equatable, Hashable {
    /// Opens an app: cold launch, resume or thaw.
    case launch(String)
    /// Pushes a screen on the foreground app's navigation stack.
    case push(String)
    /// Pops that many controllers.
    case pop(Int)
    /// Pops to the root of the navigation stack.
    case popToRoot
    /// Selects a tab of the foreground app's tab bar, by index.
    case selectTab(Int)
    /// Presents a screen modally over the foreground app.
    case present(String)
    /// Dismisses the presented screen.
    case dismiss
    /// Types that many bytes of user data into the top controller.
    case type(Int)
    /// Scrolls the top table by that many rows (negative: up).
    case scroll(Int)
    /// The app in front is used and grows: its app-wide data takes that many bytes more
    /// (caches, image pools, the Java heap filling as content is shown), held while its
    /// process lives.
    case grow(Int)
    /// A memory warning injected at that level.
    case warning(PressureLevel)
    /// The Home button: the foreground app goes to the background.
    case home
    /// Switches to an app (the app switcher): as `launch`, named for traces of app use.
    case switchTo(String)
    /// Time passes with the device idle, seconds.
    case idle(Double)
    /// A call or an alert covers the foreground app for a while, seconds.
    case interrupt(Double)
    /// An app launched straight into the background (a location or fetch relaunch).
    case launchBackground(String)
    /// Background App Refresh (iOS 7 and later): the system launches the app into the
    /// background, or wakes it there, to fetch content for up to 30 seconds.
    case backgroundFetch(String)

    /// The kind of an action: its name in scenario files and what it needs and may do.
    public enum Kind: String, CaseIterable, Sendable, Comparable, Hashable {
        /// `launch`, `push` and `pop`.
        case launch, push, pop
        /// `pop_to_root`.
        case popToRoot = "pop_to_root"
        /// `select_tab`.
        case selectTab = "select_tab"
        /// `present`, `dismiss`, `type`, `scroll`, `warning`, `home` and `grow`.
        case present, dismiss, type, scroll, warning, home, grow
        /// `switch`.
        case switchTo = "switch"
        /// `idle` and `interrupt`.
        case idle, interrupt
        /// `launch_background`.
        case launchBackground = "launch_background"
        /// `background_fetch`.
        case backgroundFetch = "background_fetch"

        /// By name, so that a seed draws the same actions as it always did.
        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }

        /// What the action takes after its name (`push: detail`, `idle: 30s`, `home`).
        public var argument: Argument {
            switch self {
            case .launch, .switchTo, .launchBackground, .backgroundFetch: return .app
            case .push, .present: return .screen
            case .pop: return .count(default: 1, range: 1...1_000_000)
            case .popToRoot, .dismiss, .home: return .none
            case .selectTab: return .index(range: 0...1000)
            case .type, .grow: return .bytes
            case .scroll: return .rows(range: -100_000_000...100_000_000)
            case .warning: return .level(default: .warning)
            case .idle, .interrupt: return .seconds
            }
        }

        /// Whether a `random` mix may draw it (`draw(apps:screens:using:)`).
        public var isDrawnAtRandom: Bool {
            switch self {
            case .launch, .interrupt, .launchBackground, .backgroundFetch, .grow: return false
            default: return true
            }
        }

        /// Whether it opens an app (and may build its launch hierarchy).
        public var opensApp: Bool { argument == .app }
        /// Whether it shows a new screen (and builds its views).
        public var showsScreen: Bool { argument == .screen }
        /// Whether it reveals a controller that was hidden, whose view may have been unloaded
        /// under pressure and be rebuilt.
        public var revealsHiddenScreen: Bool {
            switch self {
            case .pop, .popToRoot, .selectTab, .dismiss: return true
            default: return false
            }
        }
    }

    /// What an action's name is followed by in a scenario.
    public enum Argument: Sendable, Equatable {
        /// Nothing (`home`).
        case none
        /// An app's name.
        case app
        /// A screen's name.
        case screen
        /// A count, optional (`pop` or `pop: 2`).
        case count(default: Int, range: ClosedRange<Int>)
        /// An index.
        case index(range: ClosedRange<Int>)
        /// A size in bytes (`2KiB`).
        case bytes
        /// A number of rows, possibly negative.
        case rows(range: ClosedRange<Int>)
        /// A duration (`30s`).
        case seconds
        /// A pressure level, optional (`warning` or `warning: critical`).
        case level(default: PressureLevel)
    }

    /// A value read for an ``Argument``.
    public enum Value: Sendable, Equatable {
        /// No argument.
        case none
        /// An app's or a screen's name.
        case name(String)
        /// A whole number (a count, bytes, an index).
        case integer(Int)
        /// A duration in seconds.
        case seconds(Double)
        /// A pressure level.
        case level(PressureLevel)
    }

    /// The action of `kind` with `value`; nil when the value is not of the kind's argument.
    public init?(_ kind: Kind, _ value: Value) {
        switch (kind, value) {
        case (.launch, .name(let app)): self = .launch(app)
        case (.switchTo, .name(let app)): self = .switchTo(app)
        case (.launchBackground, .name(let app)): self = .launchBackground(app)
        case (.backgroundFetch, .name(let app)): self = .backgroundFetch(app)
        case (.push, .name(let screen)): self = .push(screen)
        case (.present, .name(let screen)): self = .present(screen)
        case (.pop, .integer(let count)): self = .pop(count)
        case (.popToRoot, .none): self = .popToRoot
        case (.dismiss, .none): self = .dismiss
        case (.home, .none): self = .home
        case (.selectTab, .integer(let index)): self = .selectTab(index)
        case (.type, .integer(let bytes)): self = .type(bytes)
        case (.scroll, .integer(let rows)): self = .scroll(rows)
        case (.grow, .integer(let bytes)): self = .grow(bytes)
        case (.warning, .level(let level)): self = .warning(level)
        case (.idle, .seconds(let seconds)): self = .idle(seconds)
        case (.interrupt, .seconds(let seconds)): self = .interrupt(seconds)
        default: return nil
        }
    }

    /// Its kind.
    public var kind: Kind {
        switch self {
        case .launch: return .launch
        case .push: return .push
        case .pop: return .pop
        case .popToRoot: return .popToRoot
        case .selectTab: return .selectTab
        case .present: return .present
        case .dismiss: return .dismiss
        case .type: return .type
        case .scroll: return .scroll
        case .grow: return .grow
        case .warning: return .warning
        case .home: return .home
        case .switchTo: return .switchTo
        case .idle: return .idle
        case .interrupt: return .interrupt
        case .launchBackground: return .launchBackground
        case .backgroundFetch: return .backgroundFetch
        }
    }

    /// What follows its name.
    public var value: Value {
        switch self {
        case .launch(let name), .push(let name), .present(let name), .switchTo(let name), .launchBackground(let name),
             .backgroundFetch(let name):
            return .name(name)
        case .pop(let number), .selectTab(let number), .type(let number), .scroll(let number), .grow(let number):
            return .integer(number)
        case .idle(let seconds), .interrupt(let seconds): return .seconds(seconds)
        case .warning(let level): return .level(level)
        case .popToRoot, .dismiss, .home: return .none
        }
    }

    /// The app it opens, if it opens one.
    public var app: String? {
        if kind.opensApp, case .name(let name) = value { return name }
        return nil
    }

    /// The screen it shows, if it shows one.
    public var screen: String? {
        if kind.showsScreen, case .name(let name) = value { return name }
        return nil
    }

    /// The action as timelines and traces name it: its kind and its value (`push detail`,
    /// `idle 30.0s`; a single `pop` is `pop`).
    public var label: String {
        switch value {
        case .none: return kind.rawValue
        case .integer(1) where kind == .pop: return kind.rawValue
        case .name(let name): return "\(kind.rawValue) \(name)"
        case .integer(let number): return "\(kind.rawValue) \(number)"
        case .seconds(let seconds): return "\(kind.rawValue) \(seconds)s"
        case .level(let level): return "\(kind.rawValue) \(level)"
        }
    }
}
