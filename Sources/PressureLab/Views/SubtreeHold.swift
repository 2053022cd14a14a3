/// A strong reference that keeps a view's subtree allocated (a controller's outlet):
/// while it lives, the subtree survives the release of the tree's root.
final class SubtreeHold {
    /// The view whose subtree is kept.
    let view: View
    /// False once released (by ``releaseAll(_:)``): the hold keeps nothing any more.
    private var isActive = true

    init(_ view: View) {
        self.view = view
        view.tree.hold(view.index)
    }

    deinit {
        if isActive { view.tree.unhold(view.index) }
    }

    /// Releases many holds at once (a controller's outlets): one pass per tree, where
    /// dropping them one by one would search the remaining holds each time.
    static func releaseAll(_ holds: [SubtreeHold]) {
        var byTree: [ObjectIdentifier: (tree: ViewTree, indices: [Int])] = [:]
        for hold in holds where hold.isActive {
            hold.isActive = false
            byTree[ObjectIdentifier(hold.view.tree), default: (hold.view.tree, [])].indices.append(hold.view.index)
        }
        for (_, entry) in byTree { entry.tree.unholdAll(entry.indices) }
    }
}
