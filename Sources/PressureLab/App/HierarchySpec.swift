/// The shape of an app's controller hierarchy: what a cold launch builds.
public indirect enum HierarchySpec: Sendable, Equatable {
    /// A single screen.
    case screen(String)
    /// A navigation controller with this stack, bottom first.
    case navigation([String])
    /// A tab bar controller with these tabs and the selected index.
    case tabs([HierarchySpec], selected: Int)

    /// A navigation controller with one screen at its root.
    public static func nav(_ root: String) -> HierarchySpec { .navigation([root]) }

    /// Every screen the hierarchy names.
    public var screenNames: [String] {
        switch self {
        case .screen(let name): return [name]
        case .navigation(let stack): return stack
        case .tabs(let tabs, _): return tabs.flatMap(\.screenNames)
        }
    }
}
