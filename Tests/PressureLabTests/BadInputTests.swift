import Foundation
import PressureLab
import PressureLabHeap
import Testing

@Suite("Bad input: typed errors, nothing half-built")
struct BadInputTests {
    @Test("a screen with a negative or impossible size is refused with its name")
    func invalidScreens() throws {
        let runtime = try RuntimeContext(app: "bad")
        let tree = try ViewDescription.wide(count: 3, bytes: 16)
        #expect(throws: RuntimeError.invalidScreen(screen: "s", reason: "cache is -1 bytes; it must be 0 or more")) {
            try runtime.register(ScreenSpec(name: "s", view: tree, cacheBytes: -1))
        }
        #expect(throws: RuntimeError.invalidScreen(screen: "s", reason: "outlets is 5 but the tree has only 2 subviews")) {
            try runtime.register(ScreenSpec(name: "s", view: tree, outlets: 5))
        }
        #expect(throws: RuntimeError.invalidScreen(screen: "Bad Name", reason: "the name must match [a-z0-9-]+")) {
            try runtime.register(ScreenSpec(name: "Bad Name", view: tree))
        }
        #expect(throws: RuntimeError.unknownScreen("nope")) { try runtime.makeController(screen: "nope") }
    }

    @Test("a tree too large for the host is refused at registration, before anything is allocated")
    func tooLargeAtRegistration() throws {
        let runtime = try RuntimeContext(app: "bad")
        runtime.memoryLimit = 1 << 20
        let huge = try ViewDescription.wide(count: 1000, bytes: 1 << 20)
        _ = try? runtime.register(ScreenSpec(name: "huge", view: huge))  // warms one-time runtime caches
        let attempt = Heap.measure { try? runtime.register(ScreenSpec(name: "huge", view: huge)) }
        #expect(throws: RuntimeError.self) { try runtime.register(ScreenSpec(name: "huge", view: huge)) }
        // The tree declares 1,000 MiB; refusing it allocated only the error's few bytes.
        #expect(attempt.delta.allocated < 16 << 10)
        #expect(attempt.delta.net <= 0)
    }

    @Test("a missing description file: a typed error, the view stays unloaded, no bytes stay held")
    func missingFile() throws {
        let runtime = try makeRuntime(screens: [ScreenSpec(name: "s", view: try .wide(count: 10, bytes: 4096))])
        let controller = try runtime.makeController(screen: "s")
        try FileManager.default.removeItem(atPath: runtime.bundle.descriptionPath(for: "s"))
        do {
            try controller.loadViewIfNeeded()
            Issue.record("expected an error")
        } catch let error as RuntimeError {
            let path = runtime.bundle.descriptionPath(for: "s")
            #expect(error == .viewLoadFailed(controller: "s#1", cause: .fileMissing(path: path)))
            #expect(error.description == "s#1: cannot load the view: \(path): view description file not found")
        }
        #expect(!controller.isViewLoaded)
        // Nothing half-built stays: a failed load, once its error is dropped, holds no bytes.
        runtime.trace.isEnabled = false
        // Ten more failed loads hold nothing more (64 B of slack for one-time runtime caches).
        let net = steadyStateNetBytes { for _ in 0..<10 { _ = try? controller.loadViewIfNeeded() } }
        #expect(net <= 64)
    }

    @Test("a corrupt file mid-run: the transition is cancelled and the old screen stays")
    func corruptFileCancelsTransition() throws {
        let runtime = try makeRuntime(screens: [
            ScreenSpec(name: "a", view: try .single(bytes: 64)),
            ScreenSpec(name: "b", view: try .wide(count: 100, bytes: 4096)),
        ])
        let window = Window()
        let a = try runtime.makeController(screen: "a")
        let b = try runtime.makeController(screen: "b")
        try window.show(a)
        try Data([0x50, 0x4C, 0x56, 0x44, 1, 0, 0, 0, 9]).write(to: URL(fileURLWithPath: runtime.bundle.descriptionPath(for: "b")))
        runtime.trace.removeAll()
        #expect(throws: RuntimeError.self) { try window.transition(from: a, to: b) }
        #expect(runtime.trace.callbacks == [
            "viewWillDisappear(a#1)", "loadView(b#1)", "viewWillAppear(a#1)", "viewDidAppear(a#1)",
        ])
        #expect(window.isOnScreen(a))
        #expect(!window.isOnScreen(b))
        #expect(a.appearance == .appeared)
        #expect(!b.isViewLoaded)
        runtime.trace.isEnabled = false
        let net = steadyStateNetBytes { for _ in 0..<10 { _ = try? window.transition(from: a, to: b) } }
        #expect(net <= 64)
    }

    @Test("a description replaced on disk by one too large for the host fails to load, typed")
    func tooLargeOnDisk() throws {
        let runtime = try makeRuntime(screens: [ScreenSpec(name: "s", view: try .single(bytes: 64))])
        try runtime.bundle.write(try .wide(count: 100, bytes: 1 << 20), for: "s")
        runtime.memoryLimit = 10 << 20
        let controller = try runtime.makeController(screen: "s")
        #expect(throws: RuntimeError.viewLoadFailed(
            controller: "s#1", cause: .tooLargeForHost(declaredBytes: 100 << 20, limitBytes: 10 << 20))) {
            try controller.loadViewIfNeeded()
        }
    }

    @Test("a deep chain of 100,000 views builds and frees without exhausting the stack")
    func deepChain() throws {
        let description = try ViewDescription.deep(count: 100_000, bytes: 16)
        let net = Heap.measure {
            let root = View.build(from: description)
            #expect(root.treeCount == 100_000)
        }
        #expect(net.delta.net == 0)
    }
}

@Suite("Users' own controllers")
struct SubclassTests {
    /// A controller that builds its view in code and drops its model on a warning.
    final class Programmatic: ViewController {
        var events: [String] = []
        override func loadView() throws {
            setView(View.build(from: try .wide(count: 5, bytes: 1024)))
        }
        override func viewDidLoad() { events.append("loaded") }
        override func didReceiveMemoryWarning() {
            super.didReceiveMemoryWarning()
            releaseModel()
            events.append("warned")
        }
    }

    final class Forgetful: ViewController {
        override func loadView() throws {}
    }

    @Test("a subclass's overrides run, recorded by the runtime, with super's unload work")
    func subclass() throws {
        let runtime = try makeRuntime(.iPhoneOS3, screens: [
            ScreenSpec(name: "code", view: try .single(bytes: 1), modelBytes: 4096),
        ])
        let controller = Programmatic(screen: try runtime.screen(named: "code"), runtime: runtime)
        let window = Window()
        try window.show(controller)
        window.hide(controller)
        #expect(controller.model != nil)
        controller.receiveMemoryWarning()
        #expect(controller.events == ["loaded", "warned"])
        #expect(!controller.isViewLoaded)
        #expect(controller.model == nil)
        #expect(runtime.trace.summary.contains("modelReleased(code#1)"))
    }

    @Test("a loadView that sets no view is an error, not a crash")
    func loadViewWithoutView() throws {
        let runtime = try makeRuntime(screens: [ScreenSpec(name: "x", view: try .single(bytes: 1))])
        let controller = Forgetful(screen: try runtime.screen(named: "x"), runtime: runtime)
        #expect(throws: RuntimeError.loadViewSetNoView(controller: "x#1")) { try controller.loadViewIfNeeded() }
    }
}
