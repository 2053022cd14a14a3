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

extension HierarchySpec {
    /// What building this hierarchy can allocate: every screen's worst case (looked up in
    /// `screens`; unknown names count 0) plus UIKit's containers (navigation bars, the tab
    /// bar, the More list past five tabs). Saturating.
    public func worstCaseBytes(screens: [String: ScreenSpec]) -> Int {
        func container(_ name: String) -> Int { ContainerScreens.spec(named: name)?.worstCaseBytes ?? 0 }
        switch self {
        case .screen(let name):
            return screens[name]?.worstCaseBytes ?? 0
        case .navigation(let stack):
            return stack.map { screens[$0]?.worstCaseBytes ?? 0 }.saturatingSum().addingSaturating(container(ContainerScreens.navigation))
        case .tabs(let tabs, _):
            var total = tabs.map { $0.worstCaseBytes(screens: screens) }.saturatingSum()
                .addingSaturating(container(ContainerScreens.tabBar))
            if tabs.count > TabBarController.maximumVisibleTabs {
                total = total.addingSaturating(container(ContainerScreens.more))
                    .addingSaturating(container(ContainerScreens.navigation))
            }
            return total
        }
    }
}
