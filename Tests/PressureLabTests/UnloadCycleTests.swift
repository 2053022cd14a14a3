import PressureLab
import PressureLabHeap
import Testing

/// The unload cycle of each UIKit generation (semantics §2): exact callback sequences,
/// and what stays and what goes, in measured bytes.
@Suite("Unload cycles per OS generation")
struct UnloadCycleTests {
    /// One-time allocations happen before anything is measured (see ``runtimePathsWarmedUp``).
    init() { _ = runtimePathsWarmedUp }

    static let tree = try! ViewDescription.tree(depth: 3, fanout: 4, bytes: 2048, rootBacking: 2 << 20)

    /// A runtime with `onscreen#1` shown and `offscreen#1` shown then hidden.
    private func scene(_ generation: OSRelease, releasesOutlets: Bool = true,
                       manualUnload: ManualUnloadIdiom = .none) throws
        -> (RuntimeContext, visible: ViewController, hidden: ViewController, window: Window)
    {
        let runtime = try makeRuntime(generation, screens: [
            ScreenSpec(name: "onscreen", view: Self.tree, outlets: 4, cacheBytes: 1 << 20),
            ScreenSpec(name: "offscreen", view: Self.tree, outlets: 4, releasesOutlets: releasesOutlets,
                       cacheBytes: 1 << 20, manualUnload: manualUnload),
        ])
        let window = Window()
        let hidden = try runtime.makeController(screen: "offscreen")
        let visible = try runtime.makeController(screen: "onscreen")
        try window.show(hidden)
        try window.transition(from: hidden, to: visible)
        runtime.trace.removeAll()
        return (runtime, visible, hidden, window)
    }

    private func warnBoth(_ runtime: RuntimeContext, _ visible: ViewController, _ hidden: ViewController) -> [String] {
        visible.receiveMemoryWarning()
        hidden.receiveMemoryWarning()
        return runtime.trace.summary
    }

    @Test("iPhone OS 2.2, outlets forgotten: the view goes with no viewDidUnload; outlet subviews stay")
    func iPhoneOS2Leak() throws {
        let (runtime, visible, hidden, _) = try scene(.iPhoneOS2, releasesOutlets: false)
        let treeBytes = hidden.measuredBytes[.viewTree]!
        #expect(warnBoth(runtime, visible, hidden) == [
            "didReceiveMemoryWarning(onscreen#1)",
            "didReceiveMemoryWarning(offscreen#1)", "viewReleased(offscreen#1)",
            "cachePurged(offscreen#1)",
        ])
        #expect(!hidden.isViewLoaded)
        #expect(hidden.outlets.count == 4)
        // The outlets are views 1..4 in preorder: view 1's whole subtree (21 views) holds
        // views 2..4, so exactly that subtree's payload stays, with the tree's bookkeeping
        // (one allocation for all 85 views) and the outlets' own.
        let leakedSubtree = try ViewDescription.tree(depth: 2, fanout: 4, bytes: 2048)
        let leaked = hidden.measuredBytes[.viewTree]!
        let expected = View.allocatedPayloadBytes(for: leakedSubtree) + View.expectedBookkeepingBytes(for: Self.tree)
            + ViewController.outletBookkeepingBytes(count: 4)
        #expect(abs(leaked - expected) <= expected / 50, "leaked \(leaked) B, expected \(expected) B")
        #expect(leaked < treeBytes)
        #expect(visible.isViewLoaded)
    }

    @Test("iPhone OS 2.2, outlets released in setView: nothing of the view stays")
    func iPhoneOS2Released() throws {
        let (runtime, visible, hidden, _) = try scene(.iPhoneOS2, releasesOutlets: true)
        #expect(warnBoth(runtime, visible, hidden) == [
            "didReceiveMemoryWarning(onscreen#1)",
            "didReceiveMemoryWarning(offscreen#1)", "viewReleased(offscreen#1)",
            "outletsReleased(offscreen#1)", "cachePurged(offscreen#1)",
        ])
        #expect(hidden.outlets.isEmpty)
        #expect(abs(hidden.measuredBytes[.viewTree]!) <= 64)
    }

    @Test("iOS 3: release the view, then viewDidUnload releases the outlets")
    func iOS3() throws {
        let (runtime, visible, hidden, _) = try scene(.iPhoneOS3)
        #expect(warnBoth(runtime, visible, hidden) == [
            "didReceiveMemoryWarning(onscreen#1)",
            "didReceiveMemoryWarning(offscreen#1)", "viewReleased(offscreen#1)",
            "viewDidUnload(offscreen#1)", "outletsReleased(offscreen#1)", "cachePurged(offscreen#1)",
        ])
        #expect(runtime.trace.callbacks == [
            "didReceiveMemoryWarning(onscreen#1)", "didReceiveMemoryWarning(offscreen#1)", "viewDidUnload(offscreen#1)",
        ])
        #expect(abs(hidden.measuredBytes.values.reduce(0, +)) <= 128)
    }

    @Test("iOS 3 with forgotten outlets leaks like 2.2 until the view reloads")
    func iOS3Forgotten() throws {
        let (runtime, visible, hidden, _) = try scene(.iPhoneOS3, releasesOutlets: false)
        _ = warnBoth(runtime, visible, hidden)
        #expect(hidden.outlets.count == 4)
        let leaked = hidden.measuredBytes[.viewTree]!
        #expect(leaked > 40_000)
        // Reloading reconnects the outlets: the old subviews are released then.
        try hidden.loadViewIfNeeded()
        let reloaded = hidden.measuredBytes[.viewTree]!
        #expect(abs(reloaded - expectedTreeBytes(Self.tree) - ViewController.outletBookkeepingBytes(count: 4)) <= 128)
    }

    @Test("iOS 5: viewWillUnload before the view goes, viewDidUnload after")
    func iOS5() throws {
        let (runtime, visible, hidden, _) = try scene(.iOS5)
        #expect(warnBoth(runtime, visible, hidden) == [
            "didReceiveMemoryWarning(onscreen#1)",
            "didReceiveMemoryWarning(offscreen#1)", "viewWillUnload(offscreen#1)", "viewReleased(offscreen#1)", "viewDidUnload(offscreen#1)", "outletsReleased(offscreen#1)",
            "cachePurged(offscreen#1)",
        ])
    }

    @Test("iOS 6: views stay; only backing stores and caches go")
    func iOS6() throws {
        let (runtime, visible, hidden, _) = try scene(.iOS6)
        let before = hidden.measuredBytes
        #expect(warnBoth(runtime, visible, hidden) == [
            "didReceiveMemoryWarning(onscreen#1)",
            "didReceiveMemoryWarning(offscreen#1)", "backingStoresPurged(offscreen#1)", "cachePurged(offscreen#1)",
        ])
        let after = hidden.measuredBytes
        #expect(hidden.isViewLoaded)
        #expect(hidden.outlets.count == 4)
        #expect(after[.viewTree] == before[.viewTree])
        #expect(abs(after[.backingStore]!) <= 64)
        #expect(abs(after[.cache]!) <= 64)
        #expect(before[.backingStore] == 2 << 20)
        #expect(!runtime.trace.callbacks.contains("viewDidUnload(offscreen#1)"))
    }

    @Test("an on-screen controller never loses its view, bitmap or cache, in any generation",
          arguments: OSRelease.unloadCycles)
    func onScreenKeepsEverything(generation: OSRelease) throws {
        let (_, visible, hidden, _) = try scene(generation, releasesOutlets: false,
                                             manualUnload: .withoutCheckingIsViewLoaded)
        let before = visible.measuredBytes
        visible.receiveMemoryWarning()
        _ = hidden
        #expect(visible.isViewLoaded)
        #expect(visible.hasBackingStores)
        #expect(visible.measuredBytes == before)
    }

    @Test("after an unload the view reloads when it is shown again: loadView, viewDidLoad, redraw")
    func reloadAfterUnload() throws {
        let (runtime, visible, hidden, window) = try scene(.iOS5)
        _ = warnBoth(runtime, visible, hidden)
        runtime.trace.removeAll()
        try window.transition(from: visible, to: hidden)
        #expect(runtime.trace.summary == [
            "viewWillDisappear(onscreen#1)", "loadView(offscreen#1)", "viewDidLoad(offscreen#1)",
            "viewWillAppear(offscreen#1)", "cacheFilled(offscreen#1)", "viewWillLayoutSubviews(offscreen#1)",
            "viewDidLayoutSubviews(offscreen#1)", "backingStoresDrawn(offscreen#1)", "viewDidDisappear(onscreen#1)",
            "viewDidAppear(offscreen#1)",
        ])
        #expect(hidden.measuredBytes[.backingStore] == 2 << 20)
    }

    @Test("the iOS 6 idiom without isViewLoaded loads a view during the warning just to drop it")
    func uncheckedManualUnload() throws {
        let runtime = try makeRuntime(.iOS6, screens: [
            ScreenSpec(name: "lazy", view: Self.tree, manualUnload: .withoutCheckingIsViewLoaded),
            ScreenSpec(name: "careful", view: Self.tree, manualUnload: .checkingIsViewLoaded),
        ])
        runtime.trace.isEnabled = true
        let lazy = try runtime.makeController(screen: "lazy")
        let careful = try runtime.makeController(screen: "careful")
        var peak = 0
        let warning = Heap.measure {
            lazy.record(.init("probe"))
            lazy.receiveMemoryWarning()
            peak = runtime.ledger.balance(of: lazy.owner(.viewTree))
        }
        careful.receiveMemoryWarning()
        #expect(runtime.trace.summary == [
            "probe(lazy#1)", "didReceiveMemoryWarning(lazy#1)", "loadView(lazy#1)", "viewDidLoad(lazy#1)",
            "viewReleased(lazy#1)", "didReceiveMemoryWarning(careful#1)",
        ])
        // Memory rose by a whole tree while the system asked for less, then fell back.
        #expect(warning.delta.allocated >= Self.tree.payloadBytes)
        #expect(abs(peak) <= 64)
        #expect(!lazy.isViewLoaded)
        #expect(!careful.isViewLoaded)
    }
}
