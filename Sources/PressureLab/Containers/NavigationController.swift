/// A navigation controller: a stack of controllers, the top one on screen.
///
/// Every controller under the top stays alive (and keeps its view unless a warning
/// unloads it). A popped controller that nobody else holds is deallocated when the
/// transition is over, and its bytes come back.
public final class NavigationController: ViewController {
    /// Makes an empty navigation controller (its screen is the built-in `ui-navigation`).
    public required init(screen: ScreenSpec, runtime: RuntimeContext) {
        super.init(screen: screen, runtime: runtime)
    }

    /// Makes a navigation controller with `root` at the bottom of its stack.
    public convenience init(rootViewController root: ViewController) throws {
        let runtime = root.runtime
        self.init(screen: try runtime.containerScreen(named: ContainerScreens.navigation), runtime: runtime)
        try setViewControllers([root])
    }

    /// The stack, bottom first.
    public var viewControllers: [ViewController] { children }

    /// The controller on top of the stack.
    public var topViewController: ViewController? { children.last }

    public override var visibleChild: ViewController? { shownTab ?? children.last }

    /// For a tab bar's "More" navigation controller: the tab shown above the More list.
    /// The tab bar holds the tab (it stays the tab bar's child).
    var shownTab: ViewController?

    /// Pushes `controller` on top; it appears if the navigation controller is on screen.
    public func push(_ controller: ViewController) throws {
        precondition(controller.parent == nil, "\(controller.id) already has a parent")
        beginAddingChild(controller)
        do {
            try changeHierarchy({ children.append(controller) }, undo: { children.removeLast() })
        } catch {
            controller.parent = nil
            throw error
        }
        finishAddingChild(controller)
    }

    /// Pops the top controller (never the root). Returns it; if the caller drops it and
    /// nobody else holds it, it is deallocated.
    @discardableResult
    public func pop() throws -> ViewController? {
        guard children.count > 1 else { return nil }
        return try pop(count: 1).first
    }

    /// Pops `count` controllers (at most down to the root). Returns them, top last.
    @discardableResult
    public func pop(count: Int) throws -> [ViewController] {
        let removable = min(max(count, 0), children.count - 1)
        guard removable > 0 else { return [] }
        let kept = children.count - removable
        let popped = Array(children[kept...])
        let top = popped.last!
        beginRemovingChild(top)
        try changeHierarchy({ children.removeLast(removable) }, undo: { children.append(contentsOf: popped) })
        for controller in popped { finishRemovingChild(controller) }
        return popped
    }

    /// Pops everything above the root.
    @discardableResult
    public func popToRoot() throws -> [ViewController] {
        try pop(count: children.count - 1)
    }

    /// Replaces the whole stack (restoration, and the "More" list of a tab bar).
    public func setViewControllers(_ controllers: [ViewController]) throws {
        let old = children
        for controller in controllers where !old.contains(where: { $0 === controller }) {
            beginAddingChild(controller)
        }
        try changeHierarchy({ children = controllers }, undo: { children = old })
        for controller in old where !controllers.contains(where: { $0 === controller }) {
            finishRemovingChild(controller)
        }
        for controller in controllers where !old.contains(where: { $0 === controller }) {
            finishAddingChild(controller)
        }
    }
}
