/// The window: which controllers' views are on screen, and the transitions between them.
///
/// It is the one source of truth for visibility (``isOnScreen(_:)``); unload and purge
/// decisions read it through the controllers' appearance state, which only it changes.
public final class Window {
    /// The order of callbacks when one screen replaces another.
    public enum TransitionOrder: String, Sendable, CaseIterable {
        /// `viewWillDisappear(1) -> viewDidLoad(2) -> viewWillAppear(2) -> viewDidDisappear(1) -> viewDidAppear(2)`,
        /// as the project's sources document it.
        case documented
        /// Modern UIKit: 2's view is loaded before `viewWillDisappear(1)`.
        case eagerLoad
    }

    /// The controllers whose views are in the window, bottom first.
    public private(set) var visibleControllers: [ViewController] = []
    /// The callback order for transitions.
    public var transitionOrder: TransitionOrder

    public init(transitionOrder: TransitionOrder = .documented) {
        self.transitionOrder = transitionOrder
    }

    /// Whether `controller`'s view is in the window.
    public func isOnScreen(_ controller: ViewController) -> Bool {
        visibleControllers.contains { $0 === controller }
    }

    /// Shows `controller` on an empty spot: load, `viewWillAppear`, layout, draw, `viewDidAppear`.
    public func show(_ controller: ViewController) throws {
        try controller.performWillAppear()
        visibleControllers.append(controller)
        controller.performLayoutAndDisplay()
        controller.performDidAppear()
    }

    /// Takes `controller` off screen: `viewWillDisappear`, `viewDidDisappear`.
    public func hide(_ controller: ViewController) {
        guard let index = visibleControllers.firstIndex(where: { $0 === controller }) else { return }
        controller.performWillDisappear()
        visibleControllers.remove(at: index)
        controller.performDidDisappear()
    }

    /// Replaces `outgoing` with `incoming` in the transition order. If the incoming view
    /// cannot be loaded, the transition is cancelled: the outgoing controller appears
    /// again (`viewWillAppear`, `viewDidAppear`) and the error is rethrown.
    public func transition(from outgoing: ViewController, to incoming: ViewController) throws {
        if transitionOrder == .eagerLoad { try incoming.loadViewIfNeeded() }
        outgoing.performWillDisappear()
        do {
            try incoming.performWillAppear()
        } catch {
            incoming.appearance = .disappeared
            outgoing.appearance = .appearing
            outgoing.record(.viewWillAppear)
            outgoing.viewWillAppear(false)
            outgoing.performDidAppear()
            throw error
        }
        visibleControllers.removeAll { $0 === outgoing }
        visibleControllers.append(incoming)
        incoming.performLayoutAndDisplay()
        outgoing.performDidDisappear()
        incoming.performDidAppear()
    }
}
