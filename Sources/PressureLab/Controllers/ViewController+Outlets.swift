import PressureLabHeap

/// A controller's outlets: subviews it holds strongly, each keeping its subtree
/// (``SubtreeHold``), and what they cost besides the views they keep.
extension ViewController {
    /// Releases, in one pass, the holds of `holds` that `kept` does not also list.
    static func releaseHolds(_ holds: [SubtreeHold], keeping kept: [SubtreeHold]) {
        guard !holds.isEmpty else { return }
        let keep = Set(kept.lazy.map(ObjectIdentifier.init))
        SubtreeHold.releaseAll(keep.isEmpty ? holds : holds.filter { !keep.contains(ObjectIdentifier($0)) })
    }

    /// Connects the outlets: the first `screen.outlets` subviews, in preorder after the root.
    public final func connectOutlets() {
        guard let root = viewIfLoaded, screen.outlets > 0 else {
            outletHolds = []
            return
        }
        let count = min(screen.outlets, root.treeCount - 1)
        root.tree.reserveHolds(count)
        outletHolds = (0..<count).map { SubtreeHold(View(tree: root.tree, index: root.index + 1 + $0)) }
    }

    /// The heap bytes `count` outlets take besides the views they keep: the controller's
    /// array of holds, one 48-byte hold object each, and the tree's list of held subtrees
    /// (x86-64, jemalloc size classes). Outlets that outlive the rest of their tree also keep
    /// its one bookkeeping allocation (``View/expectedBookkeepingBytes(for:)``).
    public static func outletBookkeepingBytes(count: Int) -> Int {
        guard count > 0 else { return 0 }
        return Heap.sizeClass(for: 32 + 8 * count) + count * Heap.sizeClass(for: 33) + Heap.sizeClass(for: 32 + 4 * count)
    }
}
