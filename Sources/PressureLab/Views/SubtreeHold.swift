/// A strong reference that keeps a view's subtree allocated (a controller's outlet):
/// while it lives, the subtree survives the release of the tree's root.
final class SubtreeHold {
    /// The view whose subtree is kept.
    let view: View

    init(_ view: View) {
        self.view = view
        view.tree.hold(view.index)
    }

    deinit {
        view.tree.unhold(view.index)
    }
}
