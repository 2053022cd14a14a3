import PressureLab
import Testing

@Suite("Appearance: the order of callbacks")
struct TransitionTests {
    private func runtime() throws -> RuntimeContext {
        try makeRuntime(screens: [
            ScreenSpec(name: "list", view: try .tree(depth: 1, fanout: 3, bytes: 256, rootBacking: 4096)),
            ScreenSpec(name: "detail", view: try .tree(depth: 1, fanout: 3, bytes: 256, rootBacking: 4096)),
        ])
    }

    @Test("the first show: load, will appear, layout, draw, did appear")
    func firstShow() throws {
        let runtime = try runtime()
        let list = try runtime.makeController(screen: "list")
        #expect(!list.isViewLoaded)
        try Window().show(list)
        #expect(runtime.trace.callbacks == [
            "loadView(list#1)", "viewDidLoad(list#1)", "viewWillAppear(list#1)",
            "viewWillLayoutSubviews(list#1)", "viewDidLayoutSubviews(list#1)", "viewDidAppear(list#1)",
        ])
        #expect(list.appearance == .appeared)
    }

    @Test("replacing screen 1 with 2, documented order: viewDidLoad(2) after viewWillDisappear(1)")
    func documentedOrder() throws {
        let runtime = try runtime()
        let window = Window()
        let list = try runtime.makeController(screen: "list")
        let detail = try runtime.makeController(screen: "detail")
        try window.show(list)
        runtime.trace.removeAll()
        try window.transition(from: list, to: detail)
        #expect(runtime.trace.callbacks == [
            "viewWillDisappear(list#1)", "loadView(detail#1)", "viewDidLoad(detail#1)", "viewWillAppear(detail#1)",
            "viewWillLayoutSubviews(detail#1)", "viewDidLayoutSubviews(detail#1)",
            "viewDidDisappear(list#1)", "viewDidAppear(detail#1)",
        ])
        #expect(!window.isOnScreen(list))
        #expect(window.isOnScreen(detail))
        // Going back runs the mirror order; the view is loaded, so no viewDidLoad.
        runtime.trace.removeAll()
        try window.transition(from: detail, to: list)
        #expect(runtime.trace.callbacks == [
            "viewWillDisappear(detail#1)", "viewWillAppear(list#1)",
            "viewWillLayoutSubviews(list#1)", "viewDidLayoutSubviews(list#1)",
            "viewDidDisappear(detail#1)", "viewDidAppear(list#1)",
        ])
    }

    @Test("the eager-load option of modern UIKit loads 2's view before viewWillDisappear(1)")
    func eagerOrder() throws {
        let runtime = try runtime()
        let window = Window(transitionOrder: .eagerLoad)
        let list = try runtime.makeController(screen: "list")
        let detail = try runtime.makeController(screen: "detail")
        try window.show(list)
        runtime.trace.removeAll()
        try window.transition(from: list, to: detail)
        #expect(Array(runtime.trace.callbacks.prefix(4)) == [
            "loadView(detail#1)", "viewDidLoad(detail#1)", "viewWillDisappear(list#1)", "viewWillAppear(detail#1)",
        ])
    }

    @Test("controllers of one screen get distinct identities; isViewLoaded never loads")
    func identities() throws {
        let runtime = try runtime()
        let first = try runtime.makeController(screen: "detail")
        let second = try runtime.makeController(screen: "detail")
        #expect(first.id.description == "detail#1")
        #expect(second.id.description == "detail#2")
        #expect(!first.isViewLoaded)
        #expect(runtime.trace.events.isEmpty)
        _ = try first.view
        _ = try first.view
        #expect(runtime.trace.callbacks == ["loadView(detail#1)", "viewDidLoad(detail#1)"])
    }

    @Test("a released controller records deinit and its trace events carry the app and step")
    func deinitIsTraced() throws {
        let runtime = try runtime()
        runtime.trace.step = 7
        do {
            let detail = try runtime.makeController(screen: "detail")
            _ = try detail.view
        }
        #expect(runtime.trace.callbacks.last == "deinit(detail#1)")
        #expect(runtime.trace.events.allSatisfy { $0.app == "test" && $0.step == 7 })
    }
}
