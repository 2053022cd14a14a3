/// The window: which controllers' views are on screen, and the transitions between them.
///
/// It is the one source of truth for visibility. What is on screen follows from the
/// hierarchy: the root controller, or the top of its chain of presented controllers,
/// then each container's visible child (``ViewController/visibleChild``) down to a leaf.
/// Every change of the hierarchy (push, pop, tab switch, present, dismiss, a new root) goes
/// through ``performTransition(_:undo:)``, which compares what was on screen with what is
/// now and runs the appearance callbacks in the configured order.
public final class Window {
    /// The order of callbacks when one screen replaces another.
    public enum TransitionOrder: String, Sendable, CaseIterable {
        /// `viewWillDisappear(1) -> viewDidLoad(2) -> viewWillAppear(2) -> viewDidDisappear(1) -> viewDidAppear(2)`,
        /// as the project's sources document it.
        case documented
        /// Modern UIKit: 2's view is loaded before `viewWillDisappear(1)`.
        case eagerLoad
    }

    /// The root view controller.
    public private(set) var rootViewController: ViewController?
    /// The controllers whose views are in the window, outermost first.
    public private(set) var visibleControllers: [ViewController] = []
    /// The callback order for transitions.
    public var transitionOrder: TransitionOrder

    /// A window with nothing shown.
    public init(transitionOrder: TransitionOrder = .documented) {
        self.transitionOrder = transitionOrder
    }

    /// Whether `controller`'s view is in the window.
    public func isOnScreen(_ controller: ViewController) -> Bool {
        visibleControllers.contains { $0 === controller }
    }

    /// The controller at the top: the innermost visible one.
    public var topViewController: ViewController? { visibleControllers.last }

    /// The top of the presentation chain: the root, or the last controller presented over it.
    public var presentationContext: ViewController? {
        var top = rootViewController
        while let presented = top?.presentedViewController { top = presented }
        return top
    }

    /// Makes `controller` the root, showing it (and its visible children).
    public func show(_ controller: ViewController) throws {
        let previous = rootViewController
        try performTransition({ setRoot(controller) }, undo: { setRoot(previous) })
    }

    /// Takes `controller` off screen if it is the root (the window is then empty).
    public func hide(_ controller: ViewController) {
        guard rootViewController === controller else { return }
        try? performTransition({ setRoot(nil) }, undo: { setRoot(controller) })
    }

    /// Replaces the root `outgoing` with `incoming`.
    public func transition(from outgoing: ViewController, to incoming: ViewController) throws {
        try performTransition({ setRoot(incoming) }, undo: { setRoot(outgoing) })
    }

    /// Empties the window without any callback, as when the process dies.
    public func tearDown() {
        for controller in visibleControllers { controller.appearance = .disappeared }
        visibleControllers = []
        setRoot(nil)
    }

    private func setRoot(_ controller: ViewController?) {
        rootViewController?.runtime.window = nil
        rootViewController = controller
        controller?.runtime.window = self
    }

    /// What is on screen for the current hierarchy, outermost first.
    public func computeVisibleChain() -> [ViewController] {
        var chain: [ViewController] = []
        var current = presentationContext
        while let controller = current {
            chain.append(controller)
            current = controller.visibleChild
        }
        return chain
    }

    /// Applies `change` to the hierarchy and runs the appearance callbacks it implies.
    ///
    /// If an appearing view cannot be loaded, `undo` restores the hierarchy, the
    /// disappearing controllers appear again (`viewWillAppear`, `viewDidAppear`, as a
    /// cancelled interactive transition does) and the error is rethrown.
    public func performTransition(_ change: () -> Void, undo: () -> Void) throws {
        let before = visibleControllers
        change()
        let after = computeVisibleChain()
        // The app's life cycle hears of a new controller in front (Android: activities).
        let lifeCycle = (after.last ?? before.last)?.runtime.lifeCycle
        if let old = before.last, let new = after.last, old !== new { lifeCycle?.frontWillChange(from: old, to: new) }
        let disappearing = before.filter { old in !after.contains { $0 === old } }
        let appearing = after.filter { new in !before.contains { $0 === new } }
        if transitionOrder == .eagerLoad {
            do {
                for controller in appearing { try controller.loadViewIfNeeded() }
            } catch {
                undo()
                throw error
            }
        }
        for controller in disappearing { controller.performWillDisappear() }
        do {
            for controller in appearing { try controller.performWillAppear() }
        } catch {
            for controller in appearing { controller.appearance = .disappeared }
            undo()
            for controller in disappearing {
                controller.appearance = .appearing
                controller.record(.viewWillAppear)
                controller.viewWillAppear(false)
            }
            for controller in disappearing { controller.performDidAppear() }
            lifeCycle?.frontChangeFailed()
            throw error
        }
        visibleControllers = after
        for controller in appearing { controller.performLayoutAndDisplay() }
        for controller in disappearing { controller.performDidDisappear() }
        for controller in appearing { controller.performDidAppear() }
        lifeCycle?.frontDidChange(in: self)
    }
}
