import Foundation
@testable import PressureLab
import PressureLabHeap
import Testing

/// The app life cycle beyond launch and Home: interruptions, background modes and tasks,
/// launches into the background, and Home before multitasking.
@Suite("App life cycle: interruptions, background execution, OS releases")
struct LifeCycleTests {
    /// An app with a navigation stack of one screen (a tree, a bitmap, a cache).
    static func app(_ name: String, mode: BackgroundMode? = nil, policy: (any CleanupPolicy)? = nil) throws -> Application {
        let runtime = try RuntimeContext(app: name, generation: .iOS6)
        try runtime.register(ScreenSpec(name: "main", view: try .tree(depth: 1, fanout: 2, bytes: 1024, rootBacking: 256 << 10),
                                        cacheBytes: 64 << 10))
        try runtime.register(ScreenSpec(name: "detail", view: try .single(bytes: 1024, backing: 64 << 10), cacheBytes: 32 << 10))
        runtime.cleanupPolicy = policy
        let app = Application(name: name, runtime: runtime, hierarchy: .nav("main"))
        app.backgroundMode = mode
        return app
    }

    static func device(_ apps: [Application], os: OSRelease = .iOS13, budget: Int = 512 << 20,
                       termination: any TerminationPolicy = JetsamPolicy()) -> Device {
        let device = Device(model: .init(budgetBytes: budget, os: os), termination: termination)
        for app in apps { device.install(app) }
        return device
    }

    /// The app's events (delegate calls and state changes, controller callbacks as
    /// `kind(controller)`) recorded after `start`.
    static func events(_ app: Application, from start: Int) -> [String] {
        app.runtime.trace.events.dropFirst(start).filter { $0.kind != .launchBegan && $0.kind != .launchEnded }.map { event in
            event.controller.map { "\(event.kind)(\($0))" } ?? event.kind.rawValue
        }
    }

    @Test("interrupt and return: willResignActive, Inactive for the duration, didBecomeActive; no background")
    func interruption() throws {
        let a = try Self.app("a")
        let device = Self.device([a])
        try device.open("a")
        let start = a.runtime.trace.events.count
        let before = device.now
        #expect(device.interrupt(seconds: 5))
        #expect(Self.events(a, from: start) == ["willResignActive", "didBecomeActive"])
        #expect(a.state == .active && device.now == before + 5)
        #expect(device.metrics.interruptions == 1)
        try device.goHome()
        #expect(!device.interrupt(seconds: 5))  // nothing in front
    }

    @Test("home with background audio: the app keeps running in Background, then is suspended when playback stops")
    func audio() throws {
        let a = try Self.app("a", mode: .audio(seconds: 120))
        let b = try Self.app("b")
        let device = Self.device([a, b])
        try device.open("a")
        let start = a.runtime.trace.events.count
        try device.open("b")
        #expect(Self.events(a, from: start) == ["willResignActive", "didEnterBackground", "restorationSaved", "runningInBackground"])
        #expect(a.state == .background && device.installed("a")!.runningBackgroundMode == .audio(seconds: 120))
        device.idle(seconds: 60)
        #expect(a.state == .background)
        let playing = a.runtime.trace.events.count
        device.idle(seconds: 61)
        #expect(Self.events(a, from: playing) == ["backgroundTimeExpired", "suspended"])
        #expect(a.state == .suspended && device.metrics.backgroundExpirations == 1)
    }

    @Test("home with a finite task: suspended when its time runs out, capped by the OS release's limit",
          arguments: [(OSRelease.iOS6, 600.0), (.iOS7, 180), (.iOS12, 180), (.iOS13, 30), (.iOS18, 30)])
    func task(release: OSRelease, limit: Double) throws {
        let a = try Self.app("a", mode: .task(seconds: 3600))
        let b = try Self.app("b")
        let device = Self.device([a, b], os: release)
        try device.open("a")
        try device.open("b")
        let left = device.now
        #expect(device.installed("a")!.backgroundUntil == left + limit)
        device.idle(seconds: limit - 1)
        #expect(a.state == .background)
        let start = a.runtime.trace.events.count
        device.idle(seconds: 1)
        #expect(Self.events(a, from: start) == ["backgroundTimeExpired", "suspended"])
        #expect(a.state == .suspended)
    }

    @Test("launch_background, then switch to it: no Inactive, no views until its first foreground")
    func backgroundLaunch() throws {
        let a = try Self.app("a")
        let device = Self.device([a])
        #expect(try device.launchInBackground("a"))
        // The hierarchy is built (containment), but no view loads and nothing appears.
        #expect(Self.events(a, from: 0) == ["willMoveToParent(main#1)", "didMoveToParent(main#1)",
                                            "didFinishLaunching", "didEnterBackground", "suspended"])
        #expect(a.state == .suspended && a.isInterfacePending && a.controllers.isEmpty)
        #expect(device.metrics.backgroundLaunches == 1)
        #expect(!(try device.launchInBackground("a")))  // it already has a process
        let start = a.runtime.trace.events.count
        #expect(try device.open("a") == .resume)
        #expect(Self.events(a, from: start) == [
            "willEnterForeground",
            "loadView(ui-navigation#1)", "viewDidLoad(ui-navigation#1)", "viewWillAppear(ui-navigation#1)",
            "loadView(main#1)", "viewDidLoad(main#1)", "viewWillAppear(main#1)", "cacheFilled(main#1)",
            "viewWillLayoutSubviews(ui-navigation#1)", "viewDidLayoutSubviews(ui-navigation#1)",
            "backingStoresDrawn(ui-navigation#1)",
            "viewWillLayoutSubviews(main#1)", "viewDidLayoutSubviews(main#1)", "backingStoresDrawn(main#1)",
            "viewDidAppear(ui-navigation#1)", "viewDidAppear(main#1)",
            "didBecomeActive",
        ])
        #expect(a.state == .active && !a.isInterfacePending && a.controllers.allSatisfy(\.isViewLoaded))
        #expect(device.metrics.resumes == 1 && device.metrics.coldLaunches == 0)
    }

    @Test("an app with a background mode launched into the background keeps running there")
    func backgroundLaunchWithLocation() throws {
        let a = try Self.app("a", mode: .location(seconds: nil))
        let device = Self.device([a])
        try device.launchInBackground("a")
        #expect(Self.events(a, from: 0) == ["willMoveToParent(main#1)", "didMoveToParent(main#1)",
                                            "didFinishLaunching", "didEnterBackground", "runningInBackground"])
        device.idle(seconds: 86_400)
        #expect(a.state == .background && device.installed("a")!.backgroundUntil == .infinity)
    }

    @Test("home under iPhone OS 3: willTerminate, the archive saved, the process exits; every return is cold",
          arguments: [OSRelease.iPhoneOS2, .iPhoneOS3])
    func homeTerminates(release: OSRelease) throws {
        let a = try Self.app("a")
        let b = try Self.app("b")
        let device = Self.device([a, b], os: release)
        try device.open("a")
        a.window.topViewController!.type(bytes: 1000)
        let start = a.runtime.trace.events.count
        try device.open("b")
        #expect(Self.events(a, from: start).filter { !$0.hasPrefix("deinit") } == ["willTerminate", "restorationSaved"])
        #expect(a.state == .notRunning && device.cachedAppCount == 1)
        #expect(device.metrics.homeTerminations == 1 && device.metrics.kills == 0)
        #expect(try device.open("a") == .cold)
        #expect(a.dataLossBytes == 0)  // willTerminate saved what was typed
        #expect(a.window.topViewController!.userData.count == 1)
    }

    /// Five apps: a plays audio in the background, b, c, d are suspended, e is in front.
    static func audioAmongSuspended(termination: any TerminationPolicy) throws -> (Device, [Application]) {
        let apps = try [Self.app("a", mode: .audio(seconds: nil))] + ["b", "c", "d", "e"].map { try Self.app($0) }
        let device = Self.device(apps, termination: termination)
        for app in apps { try device.open(app.name) }
        return (device, apps)
    }

    @Test("jetsam (xnu memorystatus_kill_top_process): every suspended app goes before the background-audio app, the head of the idle band first")
    func jetsamOrder() throws {
        let (device, apps) = try Self.audioAmongSuspended(termination: JetsamPolicy())
        #expect(apps[0].state == .background && device.band(of: device.installed("a")!) == .background)
        let snapshot = DeviceSnapshot(apps: device.apps.map(device.snapshot(of:)), usedBytes: device.usedBytes,
                                      budgetBytes: device.model.budgetBytes, level: .critical, bytesToFree: 1,
                                      freezeBudgetBytes: 0, runningAppsWarned: true)
        #expect(JetsamPolicy.victims(snapshot).map(\.name) == ["b", "c", "d", "a", "e"])
        // An allocation waits for the whole budget: jetsam kills in every band but the front.
        device.reclaim(downTo: 0, emergencyBytes: device.model.budgetBytes, sparing: nil)
        #expect(device.metrics.killOrder == ["b", "c", "d", "a"])
        #expect(device.metrics.killReasons == Array(repeating: .vmPageShortage, count: 4))
        // No warning rung in jetsam's ladder: the foreground app is told only when the level rises.
        #expect(apps[4].state == .active && apps[4].runtime.cleanupCounters.warnings == 0)
        var over = snapshot
        over.apps = over.apps.filter(\.isForeground)
        over.usedBytes = over.budgetBytes + 1
        #expect(JetsamPolicy().nextAction(over) == .killForeground(.vmPageShortage))
    }

    @Test("lmk (Android 10): a background-audio app is perceptible (200), the previous app 700: both spared at medium pressure; cached apps go first")
    func lmkOrder() throws {
        let (device, _) = try Self.audioAmongSuspended(termination: LowMemoryKillerPolicy())
        #expect(device.oomScoreAdj(of: device.installed("a")!) == 200)
        #expect(device.oomScoreAdj(of: device.installed("d")!) == 700)
        #expect(device.oomScoreAdj(of: device.installed("c")!) == 900)
        #expect(device.oomScoreAdj(of: device.installed("b")!) == 910)
        device.level = .warning
        device.reclaim(downTo: 0, emergencyBytes: 0, sparing: nil)
        // After its kill lmkd reads memory again (mp_event_common): under the warning threshold, the poll returns.
        #expect(device.metrics.killOrder == ["b"])
        // Critical (the device ran out in the middle of an allocation): the previous and audio apps go too.
        device.reclaim(downTo: 0, emergencyBytes: device.model.budgetBytes, sparing: nil)
        #expect(device.metrics.killOrder == ["b", "c", "d", "a"])
    }

    @Test("a task in the background is a service for lmk (500)")
    func taskIsAService() throws {
        let a = try Self.app("a", mode: .task(seconds: 10))
        let b = try Self.app("b")
        let device = Self.device([a, b], termination: LowMemoryKillerPolicy())
        try device.open("a")
        try device.open("b")
        #expect(device.oomScoreAdj(of: device.installed("a")!) == 500)
    }

    @Test("a warning reaches the background-running app, which releases under its policy; a suspended app gets nothing")
    func warningsReachBackgroundApps() throws {
        let policy = Cleanup(named: "aggressive").map { try! $0.makePolicy() }!
        let a = try Self.app("a", mode: .audio(seconds: nil), policy: policy)
        let b = try Self.app("b", policy: policy)
        let c = try Self.app("c", policy: policy)
        let device = Self.device([a, b, c])
        for app in [a, b] {
            try device.open(app.name)
            try (app.rootViewController as! NavigationController).push(try app.runtime.makeController(screen: "detail"))
        }
        try device.open("c")
        #expect(a.state == .background && b.state == .suspended)
        device.injectWarning(.warning)
        #expect(a.runtime.cleanupCounters.warnings == 1 && a.runtime.cleanupCounters.cachePurges > 0)
        #expect(b.runtime.cleanupCounters.warnings == 0 && b.runtime.cleanupCounters.cachePurges == 0)
        #expect(c.runtime.cleanupCounters.warnings == 1)
    }

    @Test("on_background: the app releases what it declared in didEnterBackground; iOS discards drawn views")
    func releasesOnBackground() throws {
        let a = try Self.app("a")
        a.releasesOnBackground = [.cache]
        let b = try Self.app("b")
        let device = Device(model: .init(budgetBytes: 512 << 20, purgesBackingStoresInBackground: true),
                            termination: JetsamPolicy())
        device.install(a)
        device.install(b)
        try device.open("a")
        let main = try #require(a.window.topViewController)
        #expect(main.cache != nil && main.hasBackingStores)
        try device.open("b")
        #expect(main.cache == nil && !main.hasBackingStores)
        #expect(a.runtime.cleanupCounters.cachePurges == 1)
        #expect(a.runtime.trace.events.contains { $0.kind == .backingStoresPurgedInBackground })
        // Back in front, what is on screen is drawn and filled again.
        try device.open("a")
        #expect(main.cache != nil && main.hasBackingStores)
    }

    @Test("user data: nothing lost where the app saves (didEnterBackground, willTerminate), all of it counted where it does not")
    func dataLoss() throws {
        // Saved on entering the background, then killed while suspended: nothing lost.
        let a = try Self.app("a")
        let b = try Self.app("b")
        let device = Self.device([a, b])
        try device.open("a")
        a.window.topViewController!.type(bytes: 3000)
        try device.open("b")
        device.terminateKilled(device.installed("a")!, reason: .policy)
        #expect(a.dataLossBytes == 0)
        // Typed during an interruption, then the app crashes before saving: counted.
        try device.open("a")
        #expect(device.interrupt(seconds: 1))
        a.window.topViewController!.type(bytes: 2000)
        a.crash()
        #expect(a.dataLossBytes == 2000)
        // Typed in front of a background-audio app, then killed: the audio app saved as it left.
        let c = try Self.app("c", mode: .audio(seconds: nil))
        let d = try Self.app("d")
        let other = Self.device([c, d])
        try other.open("c")
        c.window.topViewController!.type(bytes: 500)
        try other.open("d")
        other.terminateKilled(other.installed("c")!, reason: .policy)
        #expect(c.dataLossBytes == 0)
    }
}

@Suite("Ranking belongs to the termination policies")
struct RankingTests {
    @Test("jetsam's bands and lmk's oom_score_adj, from the policies' own functions")
    func ranks() {
        #expect(OSRelease.iOS12.memorySystem.jetsam.band(isForeground: true, state: .active, frozen: false, aging: false) == .foreground)
        // A frozen app's band: JETSAM_PRIORITY_UI_SUPPORT on iOS 12 (xnu-4903 memorystatus_init),
        // JETSAM_PRIORITY_FREEZER on iOS 18 (memorystatus_freeze_jetsam_band).
        #expect(OSRelease.iOS12.memorySystem.jetsam.band(isForeground: false, state: .suspended, frozen: true, aging: false) == .uiSupport)
        #expect(OSRelease.iOS18.memorySystem.jetsam.band(isForeground: false, state: .suspended, frozen: true, aging: false) == .freezer)
        #expect(OSRelease.iOS12.memorySystem.jetsam.band(isForeground: false, state: .background, frozen: false, aging: false) == .background)
        #expect(OSRelease.iOS12.memorySystem.jetsam.band(isForeground: false, state: .suspended, frozen: false, aging: false) == .idle)
        typealias LMK = LowMemoryKillerPolicy
        #expect(LMK.oomScoreAdj(isForeground: true, runningInBackground: nil, cachedRank: nil) == 0)
        #expect(LMK.oomScoreAdj(isForeground: false, runningInBackground: .audio(seconds: nil), cachedRank: nil) == 200)
        #expect(LMK.oomScoreAdj(isForeground: false, runningInBackground: .location(seconds: 60), cachedRank: nil) == 200)
        #expect(LMK.oomScoreAdj(isForeground: false, runningInBackground: .task(seconds: 30), cachedRank: nil) == 500)
        #expect(LMK.oomScoreAdj(isForeground: false, runningInBackground: nil, cachedRank: nil, isPrevious: true) == 700)
        #expect((0...3).map { LMK.oomScoreAdj(isForeground: false, runningInBackground: nil, cachedRank: $0, cachedCount: 4) }
            == [900, 910, 920, 930])
        #expect(LMK.oomScoreAdj(isForeground: false, runningInBackground: nil, cachedRank: 30, cachedCount: 31) == 970)
        #expect(LMK.oomScoreAdj(isForeground: false, runningInBackground: nil, cachedRank: nil) == 1000)
    }
}
