/// Container plumbing shared by navigation, tab bar and presentation: adding and removing
/// children, and changing the hierarchy through the window when it is on screen.
extension ViewController {
    /// Adds a child: `willMove(toParent:)` is recorded now, `didMove(toParent:)` by
    /// ``finishAddingChild(_:)`` once the transition is over (UIKit's order).
    final func beginAddingChild(_ child: ViewController) {
        child.record(.willMoveToParent)
        child.parent = self
    }

    final func finishAddingChild(_ child: ViewController) {
        child.record(.didMoveToParent)
    }

    final func beginRemovingChild(_ child: ViewController) {
        child.record(.willMoveToNilParent)
    }

    final func finishRemovingChild(_ child: ViewController) {
        child.parent = nil
        child.record(.didMoveToNilParent)
    }

    /// Applies `change` to the hierarchy: through the window's transition (appearance
    /// callbacks, cancellation) when this controller is on screen, directly otherwise.
    final func changeHierarchy(_ change: () -> Void, undo: () -> Void) throws {
        if let window = runtime.window, window.isOnScreen(self) {
            try window.performTransition(change, undo: undo)
        } else {
            change()
        }
    }

    /// Every controller in the hierarchy below and including this one: children (visible
    /// or not) depth first, then the presented chain.
    public final func forEachInHierarchy(_ body: (ViewController) throws -> Void) rethrows {
        try body(self)
        for child in children { try child.forEachInHierarchy(body) }
        try presentedViewController?.forEachInHierarchy(body)
    }
}

extension TraceEventKind {
    /// `willMove(toParent: container)`.
    public static let willMoveToParent = TraceEventKind("willMoveToParent")
    /// `didMove(toParent: container)`.
    public static let didMoveToParent = TraceEventKind("didMoveToParent")
    /// `willMove(toParent: nil)`: the controller is about to leave its container.
    public static let willMoveToNilParent = TraceEventKind("willMoveToNilParent")
    /// `didMove(toParent: nil)`: the controller has left its container.
    public static let didMoveToNilParent = TraceEventKind("didMoveToNilParent")
}
