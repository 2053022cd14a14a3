import PressureLab
import PressureLabHeap
import Testing

@Suite("Containers: navigation, tabs, modals, and their callback orders")
struct ContainerTests {
    /// One-time allocations happen before anything is measured (see ``runtimePathsWarmedUp``).
    init() { _ = runtimePathsWarmedUp }

    private func shownNavigation() throws -> (RuntimeContext, Window, NavigationController) {
        let runtime = try makeRuntime(.iOS5, screens: mailScreens())
        let navigation = try NavigationController(rootViewController: try runtime.makeController(screen: "inbox"))
        let window = Window()
        try window.show(navigation)
        runtime.trace.removeAll()
        return (runtime, window, navigation)
    }

    @Test("push: the new top loads and appears, the old top disappears, containment around it")
    func push() throws {
        let (runtime, window, navigation) = try shownNavigation()
        try navigation.push(try runtime.makeController(screen: "message"))
        print("push", runtime.trace.callbacks)
        #expect(runtime.trace.callbacks == [
            "willMoveToParent(message#1)",
            "viewWillDisappear(inbox#1)", "loadView(message#1)", "viewDidLoad(message#1)", "viewWillAppear(message#1)",
            "viewWillLayoutSubviews(message#1)", "viewDidLayoutSubviews(message#1)",
            "viewDidDisappear(inbox#1)", "viewDidAppear(message#1)",
            "didMoveToParent(message#1)",
        ])
        #expect(window.visibleControllers.map(\.id.description) == ["ui-navigation#1", "message#1"])
    }

    @Test("pop: the mirror order; the popped controller is deallocated after the transition")
    func pop() throws {
        let (runtime, window, navigation) = try shownNavigation()
        try navigation.push(try runtime.makeController(screen: "message"))
        runtime.trace.removeAll()
        try navigation.pop()
        #expect(runtime.trace.callbacks == [
            "willMoveToNilParent(message#1)",
            "viewWillDisappear(message#1)", "viewWillAppear(inbox#1)",
            "viewWillLayoutSubviews(inbox#1)", "viewDidLayoutSubviews(inbox#1)",
            "viewDidDisappear(message#1)", "viewDidAppear(inbox#1)",
            "didMoveToNilParent(message#1)", "deinit(message#1)",
        ])
        #expect(window.visibleControllers.map(\.id.description) == ["ui-navigation#1", "inbox#1"])
        #expect(navigation.viewControllers.count == 1)
    }

    @Test("pop to root: only the top disappears; every popped controller is deallocated")
    func popToRoot() throws {
        let (runtime, window, navigation) = try shownNavigation()
        defer { withExtendedLifetime(window) {} }
        try navigation.push(try runtime.makeController(screen: "message"))
        try navigation.push(try runtime.makeController(screen: "attachment"))
        runtime.trace.removeAll()
        try navigation.popToRoot()
        #expect(runtime.trace.callbacks == [
            "willMoveToNilParent(attachment#1)",
            "viewWillDisappear(attachment#1)", "viewWillAppear(inbox#1)",
            "viewWillLayoutSubviews(inbox#1)", "viewDidLayoutSubviews(inbox#1)",
            "viewDidDisappear(attachment#1)", "viewDidAppear(inbox#1)",
            "didMoveToNilParent(message#1)", "didMoveToNilParent(attachment#1)",
            "deinit(message#1)", "deinit(attachment#1)",
        ])
    }

    @Test("a popped controller that someone still holds stays alive")
    func heldControllerSurvives() throws {
        let (_, window, navigation) = try shownNavigation()
        defer { withExtendedLifetime(window) {} }
        let message = try navigation.runtime.makeController(screen: "message")
        try navigation.push(message)
        let popped = try navigation.pop()
        #expect(popped === message)
        #expect(message.isViewLoaded)
        #expect(message.parent == nil)
    }

    @Test("tab switch: the old tab disappears, the new one loads and appears; all tabs stay alive")
    func tabSwitch() throws {
        let runtime = try makeRuntime(.iOS5, screens: mailScreens())
        let tabs = try TabBarController(tabs: [try runtime.makeController(screen: "inbox"),
                                               try runtime.makeController(screen: "settings")], runtime: runtime)
        let window = Window()
        try window.show(tabs)
        // The container appears first and forwards to its selected child.
        #expect(runtime.trace.callbacks == [
            "willMoveToParent(inbox#1)", "willMoveToParent(settings#1)",
            "didMoveToParent(inbox#1)", "didMoveToParent(settings#1)",
            "loadView(ui-tab-bar#1)", "viewDidLoad(ui-tab-bar#1)", "viewWillAppear(ui-tab-bar#1)",
            "loadView(inbox#1)", "viewDidLoad(inbox#1)", "viewWillAppear(inbox#1)",
            "viewWillLayoutSubviews(ui-tab-bar#1)", "viewDidLayoutSubviews(ui-tab-bar#1)",
            "viewWillLayoutSubviews(inbox#1)", "viewDidLayoutSubviews(inbox#1)",
            "viewDidAppear(ui-tab-bar#1)", "viewDidAppear(inbox#1)",
        ])
        runtime.trace.removeAll()
        try tabs.select(1)
        #expect(runtime.trace.callbacks == [
            "viewWillDisappear(inbox#1)", "loadView(settings#1)", "viewDidLoad(settings#1)", "viewWillAppear(settings#1)",
            "viewWillLayoutSubviews(settings#1)", "viewDidLayoutSubviews(settings#1)",
            "viewDidDisappear(inbox#1)", "viewDidAppear(settings#1)",
        ])
        #expect(tabs.tabs.allSatisfy { $0.isViewLoaded })
    }

    @Test("seven tabs: the fifth button is More; tabs from the fifth on are shown on the More stack")
    func moreTab() throws {
        let runtime = try makeRuntime(screens: mailScreens())
        let names = ["inbox", "message", "attachment", "settings", "compose", "contacts", "inbox"]
        let tabs = try TabBarController(tabs: try names.map { try runtime.makeController(screen: $0) }, runtime: runtime)
        let window = Window()
        try window.show(tabs)
        #expect(tabs.moreNavigationController != nil)
        #expect(!tabs.isInMore(3))
        #expect(tabs.isInMore(4))
        try tabs.select(5)
        #expect(window.visibleControllers.map(\.id.description) == ["ui-tab-bar#1", "ui-navigation#1", "contacts#1"])
        try tabs.select(6)
        #expect(window.visibleControllers.map(\.id.description) == ["ui-tab-bar#1", "ui-navigation#1", "inbox#2"])
        try tabs.select(0)
        #expect(window.visibleControllers.map(\.id.description) == ["ui-tab-bar#1", "inbox#1"])
        #expect(tabs.tabs.count == 7)
    }

    @Test("present and dismiss: the presenting view leaves the window, then comes back")
    func presentAndDismiss() throws {
        let (runtime, window, navigation) = try shownNavigation()
        let compose = try runtime.makeController(screen: "compose")
        try navigation.topViewController!.present(compose)
        #expect(runtime.trace.callbacks == [
            "viewWillDisappear(ui-navigation#1)", "viewWillDisappear(inbox#1)",
            "loadView(compose#1)", "viewDidLoad(compose#1)", "viewWillAppear(compose#1)",
            "viewWillLayoutSubviews(compose#1)", "viewDidLayoutSubviews(compose#1)",
            "viewDidDisappear(ui-navigation#1)", "viewDidDisappear(inbox#1)", "viewDidAppear(compose#1)",
        ])
        // Presented by the root (the presentation context), linked without a cycle.
        #expect(compose.presentingViewController === navigation)
        #expect(navigation.presentedViewController === compose)
        #expect(window.visibleControllers.map(\.id.description) == ["compose#1"])
        #expect(!window.isOnScreen(navigation.topViewController!))
        runtime.trace.removeAll()
        try compose.dismiss()
        #expect(runtime.trace.callbacks == [
            "viewWillDisappear(compose#1)", "viewWillAppear(ui-navigation#1)", "viewWillAppear(inbox#1)",
            "viewWillLayoutSubviews(ui-navigation#1)", "viewDidLayoutSubviews(ui-navigation#1)",
            "viewWillLayoutSubviews(inbox#1)", "viewDidLayoutSubviews(inbox#1)",
            "viewDidDisappear(compose#1)", "viewDidAppear(ui-navigation#1)", "viewDidAppear(inbox#1)",
        ])
        #expect(navigation.presentedViewController == nil)
    }

    @Test("a chain of two modals: only the top is on screen; dismissing the first dismisses both")
    func modalChain() throws {
        let (runtime, window, navigation) = try shownNavigation()
        let compose = try runtime.makeController(screen: "compose")
        let contacts = try runtime.makeController(screen: "contacts")
        try navigation.present(compose)
        runtime.trace.removeAll()
        try compose.present(contacts)
        #expect(runtime.trace.callbacks == [
            "viewWillDisappear(compose#1)", "loadView(contacts#1)", "viewDidLoad(contacts#1)", "viewWillAppear(contacts#1)",
            "viewWillLayoutSubviews(contacts#1)", "viewDidLayoutSubviews(contacts#1)",
            "viewDidDisappear(compose#1)", "viewDidAppear(contacts#1)",
        ])
        #expect(contacts.presentingViewController === compose)
        #expect(window.visibleControllers.map(\.id.description) == ["contacts#1"])
        runtime.trace.removeAll()
        try navigation.dismiss()
        #expect(runtime.trace.callbacks == [
            "viewWillDisappear(contacts#1)", "viewWillAppear(ui-navigation#1)", "viewWillAppear(inbox#1)",
            "viewWillLayoutSubviews(ui-navigation#1)", "viewDidLayoutSubviews(ui-navigation#1)",
            "viewWillLayoutSubviews(inbox#1)", "viewDidLayoutSubviews(inbox#1)",
            "viewDidDisappear(contacts#1)", "viewDidAppear(ui-navigation#1)", "viewDidAppear(inbox#1)",
        ])
        #expect(navigation.presentedViewController == nil)
        #expect(compose.presentedViewController === contacts)
    }

    @Test("the eager-load option applies to pushes too")
    func eagerPush() throws {
        let (runtime, window, navigation) = try shownNavigation()
        window.transitionOrder = .eagerLoad
        try navigation.push(try runtime.makeController(screen: "message"))
        #expect(Array(runtime.trace.callbacks.prefix(4)) == [
            "willMoveToParent(message#1)", "loadView(message#1)", "viewDidLoad(message#1)", "viewWillDisappear(inbox#1)",
        ])
    }

    @Test("push then pop 1,000 times: the heap returns to its baseline")
    func pushPopLeak() throws {
        let (runtime, _, navigation) = try shownNavigation()
        runtime.trace.isEnabled = false
        func cycle() throws {
            for _ in 0..<1_000 {
                try navigation.push(try runtime.makeController(screen: "message"))
                try navigation.pop()
            }
        }
        let net = try steadyStateNetBytes(cycle)
        print("push/pop x1000 net bytes: \(net)")
        // Tolerance: 1 KiB over 1,000 cycles of about 200 KiB each (ledger and array capacity).
        #expect(abs(net) <= 1024)
    }

    @Test("present then dismiss 1,000 times: the heap returns to its baseline")
    func presentDismissLeak() throws {
        let (runtime, _, navigation) = try shownNavigation()
        runtime.trace.isEnabled = false
        func cycle() throws {
            for _ in 0..<1_000 {
                try navigation.present(try runtime.makeController(screen: "compose"))
                try navigation.dismiss()
            }
        }
        let net = try steadyStateNetBytes(cycle)
        print("present/dismiss x1000 net bytes: \(net)")
        #expect(abs(net) <= 1024)
    }
}
