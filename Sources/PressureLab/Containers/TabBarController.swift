/// A tab bar controller: one child per tab, all alive, only the selected one on screen.
///
/// With more than five tabs, the fifth button is "More": selecting a tab from the fifth on
/// shows the More list (the built-in `ui-more` screen) in a navigation controller with the
/// tab's controller pushed on it, as UIKit's `moreNavigationController` does.
public final class TabBarController: ViewController {
    /// The most buttons the bar shows; past that, the last one is "More".
    public static let maximumVisibleTabs = 5

    /// The tabs' controllers, in order.
    public private(set) var tabs: [ViewController] = []
    /// The selected tab.
    public private(set) var selectedIndex = 0
    /// The "More" navigation controller, when there are more than five tabs.
    public private(set) var moreNavigationController: NavigationController?

    public required init(screen: ScreenSpec, runtime: RuntimeContext) {
        super.init(screen: screen, runtime: runtime)
    }

    /// Makes a tab bar controller with these tabs, the first selected.
    public convenience init(tabs: [ViewController], runtime: RuntimeContext) throws {
        precondition(!tabs.isEmpty, "a tab bar controller needs at least one tab")
        self.init(screen: try runtime.containerScreen(named: ContainerScreens.tabBar), runtime: runtime)
        for tab in tabs { beginAddingChild(tab) }
        self.tabs = tabs
        children = tabs
        if tabs.count > Self.maximumVisibleTabs {
            let list = ViewController(screen: try runtime.containerScreen(named: ContainerScreens.more), runtime: runtime)
            let more = try NavigationController(rootViewController: list)
            beginAddingChild(more)
            moreNavigationController = more
            children.append(more)
            finishAddingChild(more)
        }
        for tab in tabs { finishAddingChild(tab) }
    }

    /// Whether tab `index` is reached through "More".
    public func isInMore(_ index: Int) -> Bool {
        tabs.count > Self.maximumVisibleTabs && index >= Self.maximumVisibleTabs - 1
    }

    /// The selected tab's controller.
    public var selectedViewController: ViewController { tabs[selectedIndex] }

    public override var visibleChild: ViewController? {
        guard !tabs.isEmpty else { return nil }
        return isInMore(selectedIndex) ? moreNavigationController : tabs[selectedIndex]
    }

    /// Selects tab `index`; the old tab disappears and the new one appears.
    public func select(_ index: Int) throws {
        precondition(tabs.indices.contains(index), "no tab \(index) (there are \(tabs.count))")
        guard index != selectedIndex else { return }
        let old = selectedIndex
        guard let more = moreNavigationController, isInMore(index) || isInMore(old) else {
            try changeHierarchy({ selectedIndex = index }, undo: { selectedIndex = old })
            return
        }
        // Through "More": the tab's controller is shown on the More navigation stack.
        more.shownTab = nil
        let shown = isInMore(index) ? tabs[index] : nil
        try changeHierarchy({
            selectedIndex = index
            more.shownTab = shown
        }, undo: {
            selectedIndex = old
            more.shownTab = isInMore(old) ? tabs[old] : nil
        })
    }
}
