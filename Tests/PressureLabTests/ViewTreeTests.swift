@testable import PressureLab
import PressureLabHeap
import Testing

/// The flat view tree: what keeps a view's memory (the root's owner, holds on subtrees),
/// measured in bytes on this thread.
@Suite("View trees: root release and held subtrees")
struct ViewTreeTests {
    /// One-time allocations happen before anything is measured (see ``runtimePathsWarmedUp``).
    init() { _ = runtimePathsWarmedUp }

    /// 21 views of 4 KiB: the root, views 1, 6, 11, 16 under it, four leaves under each.
    static let description = try! ViewDescription.tree(depth: 2, fanout: 4, bytes: 4096)
    static let view = Heap.sizeClass(for: 4096)
    /// A hold object: header, view reference and a flag (33 bytes), size-class rounded.
    static let holdObject = Heap.sizeClass(for: 33)

    @Test("releasing the root frees every view that no hold keeps; a held subtree stays whole")
    func heldSubtreeSurvivesRoot() {
        // One-time allocations of the first release (runtime metadata) are not the tree's.
        do {
            let warm = View.build(from: Self.description)
            let hold = SubtreeHold(warm.subviews[0])
            warm.tree.releaseRoot()
            _ = hold
        }
        let root = View.build(from: Self.description)
        var outer: SubtreeHold? = SubtreeHold(root.subviews[0])  // view 1 and its leaves 2...5
        let inner = SubtreeHold(View(tree: root.tree, index: 3))  // inside view 1's subtree
        #expect(outer?.view.index == 1 && outer?.view.treeCount == 5)

        let released = Heap.measure { root.tree.releaseRoot() }.delta.net
        #expect(released == -16 * Self.view)
        #expect(root.treeInPreorder.map(\.isReleased) == (0..<21).map { !(1...5).contains($0) })

        let droppedOuter = Heap.measure { outer = nil }.delta.net
        #expect(outer == nil)
        // Views 1, 2, 4, 5 go; view 3 stays while the inner hold lives.
        #expect(droppedOuter == -4 * Self.view - Self.holdObject)
        #expect(!View(tree: root.tree, index: 3).isReleased)
        #expect(inner.view.storageChecksum() == View(tree: root.tree, index: 3).storageChecksum())
    }

    @Test("while the root is held, dropping a hold frees nothing of the tree")
    func holdUnderHeldRoot() {
        let root = View.build(from: Self.description)
        var hold: SubtreeHold? = SubtreeHold(root.subviews[1])
        let dropped = Heap.measure { hold = nil }.delta.net
        _ = hold
        #expect(dropped == -Self.holdObject)  // the hold object only
        #expect(root.treeInPreorder.allSatisfy { !$0.isReleased })
    }

    @Test("a tree with holds and drawn bitmaps frees every byte when its last reference goes")
    func everythingGoesWithTheTree() throws {
        let drawn = try ViewDescription.tree(depth: 2, fanout: 3, bytes: 1000, rootBacking: 64 << 10)
        let net = steadyStateNetBytes {
            let root = View.build(from: drawn)
            root.forEachInTree { $0.layer.displayIfNeeded() }
            let holds = root.subviews.map(SubtreeHold.init)
            root.tree.releaseRoot()
            #expect(holds.allSatisfy { !$0.view.isReleased })
        }
        #expect(net == 0)
    }

    @Test("a released view's layer does not draw again")
    func releasedLayerDoesNotDraw() throws {
        let root = View.build(from: try .single(bytes: 64, backing: 4096))
        root.tree.releaseRoot()
        #expect(root.isReleased)
        #expect(!root.layer.needsDisplay)
        #expect(!root.layer.displayIfNeeded())
        #expect(root.storageChecksum() == View.build(from: try .single(bytes: 0)).storageChecksum())
    }

    @Test("views are equal when they are the same view of the same tree")
    func identity() {
        let first = View.build(from: Self.description)
        let second = View.build(from: Self.description)
        #expect(first == View(tree: first.subviews[0].tree, index: 0))
        #expect(first != second)
        #expect(first.subviews.map(\.index) == [1, 6, 11, 16])
        #expect(first.subviews[2].contains(View(tree: first.tree, index: 14)))
        #expect(!first.subviews[2].contains(View(tree: second.tree, index: 14)))
        #expect(Set(first.treeInPreorder).count == 21)
    }

    @Test("bookkeeping is one allocation: 40 bytes of header and 40 a view, size-class rounded")
    func bookkeeping() {
        #expect(ViewTree.allocationBytes(viewCount: 1) == 80)
        #expect(ViewTree.allocationBytes(viewCount: 1000) == 40_040)
        // The first build in a process allocates runtime metadata that is not the tree's (when
        // tests run in parallel, another test may not have built one yet).
        _ = View.build(from: Self.description)
        let built = Heap.measure { _ = View.build(from: Self.description) }
        #expect(built.delta.allocated == 21 * Self.view + View.expectedBookkeepingBytes(for: Self.description))
    }
}

@Suite("Outlets at scale and on failed loads")
struct OutletHoldTests {
    /// One-time allocations happen before anything is measured (see ``runtimePathsWarmedUp``).
    init() { _ = runtimePathsWarmedUp }

    /// Builds its tree and connects its outlets, then sets no view.
    final class ChangesItsMind: ViewController {
        override func loadView() throws {
            try super.loadView()
            setView(nil)
        }
    }

    @Test("a loadView that connects outlets and then sets no view leaves nothing measured behind")
    func failedLoadFreesOutlets() throws {
        let tree = try ViewDescription.tree(depth: 2, fanout: 4, bytes: 2048)
        let runtime = try makeRuntime(screens: [ScreenSpec(name: "x", view: tree, outlets: 4)])
        // The first failed load warms one-time allocations (runtime metadata); the second is measured.
        _ = try? ChangesItsMind(screen: try runtime.screen(named: "x"), runtime: runtime).loadViewIfNeeded()
        let controller = ChangesItsMind(screen: try runtime.screen(named: "x"), runtime: runtime)
        #expect(throws: RuntimeError.loadViewSetNoView(controller: "x#2")) { try controller.loadViewIfNeeded() }
        #expect(controller.outlets.isEmpty)
        #expect(abs(runtime.ledger.balance(of: controller.owner(.viewTree))) <= 64)
    }

    @Test("20,000 outlets are released in one pass when the view unloads (iOS 3), and every byte comes back")
    func manyOutlets() throws {
        let wide = try ViewDescription.wide(count: 20_001, bytes: 64)
        let runtime = try makeRuntime(.iPhoneOS3, screens: [ScreenSpec(name: "w", view: wide, outlets: 20_000)])
        // A first pass warms one-time allocations (runtime metadata on a path walked for the
        // first time in this process); the second is measured.
        let warmUp = try runtime.makeController(screen: "w")
        try warmUp.loadViewIfNeeded()
        warmUp.releaseView()
        warmUp.releaseOutlets()
        let controller = try runtime.makeController(screen: "w")
        try controller.loadViewIfNeeded()
        #expect(controller.outlets.count == 20_000)
        let loaded = runtime.ledger.balance(of: controller.owner(.viewTree))
        #expect(loaded >= 20_001 * 64)
        controller.releaseView()
        #expect(controller.outlets.count == 20_000)  // the outlets keep every subview
        #expect(controller.outlets.allSatisfy { !$0.isReleased })
        controller.releaseOutlets()
        #expect(abs(runtime.ledger.balance(of: controller.owner(.viewTree))) <= 64)
    }
}
