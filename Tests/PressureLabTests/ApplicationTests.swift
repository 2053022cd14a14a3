import Foundation
@testable import PressureLab
import PressureLabHeap
import Testing

@Suite("The application: states, delegate calls, warnings, restoration, data loss")
struct ApplicationTests {
    /// One-time allocations happen before anything is measured (see ``runtimePathsWarmedUp``).
    init() { _ = runtimePathsWarmedUp }

    private func app(_ hierarchy: HierarchySpec, generation: OSRelease = .iOS5) throws -> Application {
        let runtime = try makeRuntime(generation, screens: mailScreens())
        return Application(name: "mail", runtime: runtime, hierarchy: hierarchy)
    }

    @Test("launch: didFinishLaunching, the root's views load and appear, didBecomeActive")
    func launch() throws {
        let app = try app(.nav("inbox"))
        #expect(try app.launch() == .cold)
        print("launch", app.runtime.trace.callbacks)
        #expect(app.runtime.trace.callbacks == [
            "willMoveToParent(inbox#1)", "didMoveToParent(inbox#1)", "didFinishLaunching",
            "loadView(ui-navigation#1)", "viewDidLoad(ui-navigation#1)", "viewWillAppear(ui-navigation#1)",
            "loadView(inbox#1)", "viewDidLoad(inbox#1)", "viewWillAppear(inbox#1)",
            "viewWillLayoutSubviews(ui-navigation#1)", "viewDidLayoutSubviews(ui-navigation#1)",
            "viewWillLayoutSubviews(inbox#1)", "viewDidLayoutSubviews(inbox#1)",
            "viewDidAppear(ui-navigation#1)", "viewDidAppear(inbox#1)", "didBecomeActive",
        ])
        #expect(app.state == .active)
    }

    @Test("home: willResignActive, didEnterBackground (archive saved), suspended; no appearance callbacks")
    func home() throws {
        let app = try app(.nav("inbox"))
        try app.launch()
        app.runtime.trace.removeAll()
        try app.home()
        #expect(app.runtime.trace.summary == ["willResignActive", "didEnterBackground", "restorationSaved", "suspended"])
        #expect(app.state == .suspended)
        #expect(FileManager.default.fileExists(atPath: app.archivePath))
    }

    @Test("resume: willEnterForeground, redraw only what was purged, didBecomeActive")
    func resume() throws {
        let app = try app(.nav("inbox"))
        try app.launch()
        try app.home()
        let inbox = app.window.topViewController!
        // The system purged the suspended app's bitmaps (what a cleanup policy may do).
        for controller in app.window.visibleControllers {
            controller.appearance = .disappeared
            controller.purgeBackingStores()
            controller.purgeCache()
            controller.appearance = .appeared
        }
        app.runtime.trace.removeAll()
        #expect(try app.launch() == .resume)
        #expect(app.runtime.trace.summary == [
            "willEnterForeground", "backingStoresDrawn(ui-navigation#1)", "backingStoresDrawn(inbox#1)",
            "cacheFilled(inbox#1)", "didBecomeActive",
        ])
        #expect(inbox.isViewLoaded)
        #expect(app.state == .active)
    }

    @Test("a warning reaches the delegate, observers, then every controller of a 3-deep stack in a tab bar")
    func warningDelivery() throws {
        let app = try app(.tabs([.nav("inbox"), .screen("settings")], selected: 0))
        var observed: [String] = []
        app.memoryWarningObservers = [{ _ in observed.append("first") }, { _ in observed.append("second") }]
        try app.launch()
        let navigation = (app.rootViewController as! TabBarController).tabs[0] as! NavigationController
        try navigation.push(try app.runtime.makeController(screen: "message"))
        try navigation.push(try app.runtime.makeController(screen: "attachment"))
        app.runtime.trace.removeAll()
        app.receiveMemoryWarning()
        print("warning", app.runtime.trace.callbacks)
        #expect(app.runtime.trace.callbacks == [
            "applicationDidReceiveMemoryWarning",
            "didReceiveMemoryWarningNotification", "didReceiveMemoryWarningNotification",
            "didReceiveMemoryWarning(ui-tab-bar#1)",
            "didReceiveMemoryWarning(ui-navigation#1)",
            "didReceiveMemoryWarning(inbox#1)", "viewWillUnload(inbox#1)", "viewDidUnload(inbox#1)",
            "didReceiveMemoryWarning(message#1)", "viewWillUnload(message#1)", "viewDidUnload(message#1)",
            "didReceiveMemoryWarning(attachment#1)",
            "didReceiveMemoryWarning(settings#1)",
        ])
        #expect(observed == ["first", "second"])
        // The visible top keeps its view; the ones under it lose theirs; the unselected tab
        // was never shown, so it has nothing to unload.
        #expect(navigation.viewControllers.map(\.isViewLoaded) == [false, false, true])
    }

    @Test("willTerminate only for a running app; a suspended app that is killed gets none")
    func termination() throws {
        let running = try app(.screen("inbox"))
        try running.launch()
        running.runtime.trace.removeAll()
        running.terminate()
        #expect(running.runtime.trace.summary == ["willTerminate", "restorationSaved"])
        #expect(running.state == .notRunning)

        let suspended = try app(.screen("inbox"))
        try suspended.launch()
        try suspended.home()
        suspended.runtime.trace.removeAll()
        suspended.terminate()
        #expect(suspended.runtime.trace.summary == ["processKilled"])
        #expect(suspended.state == .notRunning)
    }

    @Test("the process's memory comes back when it dies")
    func deathFreesMemory() throws {
        let app = try app(.tabs([.navigation(["inbox", "message"]), .screen("settings")], selected: 0))
        app.runtime.trace.isEnabled = false
        func lifetime() throws {
            try app.launch()
            app.window.topViewController!.type(bytes: 4096)
            try app.home()
            app.kill()
            try? FileManager.default.removeItem(atPath: app.archivePath)
        }
        let net = try steadyStateNetBytes(lifetime)
        #expect(abs(net) <= 1024, "a launch-to-kill lifetime left \(net) B")
        #expect(app.runtime.ledger.total <= 1024)
    }

    @Test("data loss: typed and not saved when the app dies is counted; saved data is not")
    func dataLoss() throws {
        let app = try app(.nav("inbox"))
        try app.launch()
        let top = app.window.topViewController!
        top.type(bytes: 3000)
        app.crash()
        #expect(app.dataLossBytes == 3000)

        try app.launch()
        app.window.topViewController!.type(bytes: 5000)
        try app.home()
        app.kill()
        #expect(app.dataLossBytes == 3000)
        try app.launch()
        #expect(app.window.topViewController!.userDataBytes == 5000)
        app.window.topViewController!.type(bytes: 700)
        try app.enterBackground()
        app.window.topViewController!.type(bytes: 11)  // typed after the save, before the kill
        app.suspend()
        app.kill()
        #expect(app.dataLossBytes == 3011)
    }
}
