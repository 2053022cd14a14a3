import Foundation
@testable import PressureLab
import PressureLabHeap
import Testing

/// Android twins of the seeds' callback-order tests (ApplicationTests, TransitionTests,
/// LifeCycleTests): the same app and steps on Android's life cycle
/// (``AndroidActivityLifeCycle``), with the orders frameworks/base prescribes. Sources, as cited
/// in docs/app-life-cycle.md, "Android's life cycle": `TransactionExecutorHelper.getLifecyclePath`
/// (launch ON_CREATE, ON_START, ON_RESUME; a stopped activity ON_RESTART, ON_START, ON_RESUME),
/// `ActivityThread.handleStartActivity` (`onRestoreInstanceState` after `onStart` when created
/// from saved state), `ActivityThread.callActivityOnStop` (`onSaveInstanceState` after `onStop`
/// from P, API 28, before it earlier).
@Suite("Android's app life cycle: activities' callbacks in frameworks/base's orders")
struct AndroidLifeCycleTests {
    init() { _ = runtimePathsWarmedUp }

    /// A mail app on Android 10's life cycle (or one that saves before `onStop`, pre-P).
    static func app(_ name: String = "mail", hierarchy: HierarchySpec = .nav("inbox"), preP: Bool = false,
                    trace: TraceRecorder = TraceRecorder()) throws -> Application {
        let runtime = try RuntimeContext(app: name, generation: .iOS6, trace: trace)
        for screen in try mailScreens() { try runtime.register(screen) }
        runtime.lifeCycle = preP ? AndroidActivityLifeCycle(savesStateAfterStop: false) : OSRelease.android10.makeAppLifeCycle()
        return Application(name: name, runtime: runtime, hierarchy: hierarchy)
    }

    /// Android's callbacks recorded, as `kind(controller)` (app-level ones bare).
    static let androidKinds: Set<TraceEventKind> = [
        .onCreate, .onStart, .onRestart, .onRestoreInstanceState, .onResume, .onPause, .onStop,
        .onSaveInstanceState, .onDestroy, .onLowMemory, .restorationSaved,
    ]

    static func callbacks(_ trace: TraceRecorder) -> [String] {
        trace.events.filter { androidKinds.contains($0.kind) || $0.kind.rawValue.hasPrefix("onTrimMemory") }.map(\.description)
    }

    @Test("the release answers the life cycle: UIKit's on iOS, Android's activities on Android (API 29 and 34: state saved after onStop)")
    func releaseAnswers() {
        #expect(OSRelease.iOS13.makeAppLifeCycle() is UIKitLifeCycle)
        for release in [OSRelease.android10, .android14] {
            let lifeCycle = release.makeAppLifeCycle() as? AndroidActivityLifeCycle
            #expect(lifeCycle?.savesStateAfterStop == true)
        }
        #expect(OSRelease.android10.androidAPILevel == 29 && OSRelease.android14.androidAPILevel == 34)
    }

    // ActivityThread.handleLaunchActivity (onCreate), then TransactionExecutor.cycleToPath to
    // ON_START and ResumeActivityItem (onResume).
    @Test("launch: onCreate, onStart, onResume of the activity in front; none of UIKit's callbacks")
    func launch() throws {
        let app = try Self.app()
        #expect(try app.launch() == .cold)
        #expect(Self.callbacks(app.runtime.trace) == ["onCreate(inbox#1)", "onStart(inbox#1)", "onResume(inbox#1)"])
        #expect(app.runtime.trace.callbacks.isEmpty)  // UIKit's (Support.swift's callbackKinds)
        #expect(app.state == .active)
    }

    // ActivityThread.callActivityOnStop: from P, onSaveInstanceState after onStop.
    @Test("home: onPause, onStop, onSaveInstanceState (the archive written then); no UIKit callback")
    func home() throws {
        let app = try Self.app()
        try app.launch()
        app.runtime.trace.removeAll()
        try app.home()
        #expect(app.runtime.trace.summary == ["onPause(inbox#1)", "onStop(inbox#1)", "onSaveInstanceState(inbox#1)", "restorationSaved"])
        #expect(app.state == .suspended)
        #expect(FileManager.default.fileExists(atPath: app.archivePath))
    }

    // ActivityThread.callActivityOnStop: before P (`r.isPreP()`), onSaveInstanceState before onStop.
    @Test("home before P (target SDK below 28): onPause, onSaveInstanceState, onStop")
    func homePreP() throws {
        let app = try Self.app(preP: true)
        try app.launch()
        app.runtime.trace.removeAll()
        try app.home()
        #expect(app.runtime.trace.summary == ["onPause(inbox#1)", "onSaveInstanceState(inbox#1)", "restorationSaved", "onStop(inbox#1)"])
    }

    // TransactionExecutorHelper.getLifecyclePath from ON_STOP to ON_RESUME: ON_RESTART, ON_START, ON_RESUME.
    @Test("return: onRestart, onStart, redraw what was purged, onResume")
    func resume() throws {
        let app = try Self.app()
        try app.launch()
        try app.home()
        for controller in app.window.visibleControllers {
            controller.appearance = .disappeared
            controller.purgeBackingStores()
            controller.appearance = .appeared
        }
        app.runtime.trace.removeAll()
        #expect(try app.launch() == .resume)
        #expect(app.runtime.trace.summary == [
            "onRestart(inbox#1)", "onStart(inbox#1)", "backingStoresDrawn(ui-navigation#1)", "backingStoresDrawn(inbox#1)",
            "onResume(inbox#1)",
        ])
    }

    // Starting an activity: the one in front pauses, the new one is created, started and
    // resumed, then the previous one is stopped (and saves). Back (Activity.finish): the top
    // pauses, the one below restarts, starts, resumes, then the finished one stops and is destroyed.
    @Test("push then back: A.onPause, B.onCreate/onStart/onResume, A.onStop/onSaveInstanceState; back: B.onPause, A.onRestart/onStart/onResume, B.onStop/onDestroy")
    func pushAndBack() throws {
        let app = try Self.app()
        try app.launch()
        let navigation = app.window.rootViewController as! NavigationController
        app.runtime.trace.removeAll()
        try navigation.push(try app.runtime.makeController(screen: "message"))
        #expect(Self.callbacks(app.runtime.trace) == [
            "onPause(inbox#1)", "onCreate(message#1)", "onStart(message#1)", "onResume(message#1)",
            "onStop(inbox#1)", "onSaveInstanceState(inbox#1)",
        ])
        app.runtime.trace.removeAll()
        _ = try navigation.pop()
        #expect(Self.callbacks(app.runtime.trace) == [
            "onPause(message#1)", "onRestart(inbox#1)", "onStart(inbox#1)", "onResume(inbox#1)",
            "onStop(message#1)", "onDestroy(message#1)",
        ])
        #expect(app.runtime.trace.callbacks.isEmpty)
    }

    @Test("back over several: the finished activities below the top are destroyed without coming back")
    func popSeveral() throws {
        let app = try Self.app()
        try app.launch()
        let navigation = app.window.rootViewController as! NavigationController
        try navigation.push(try app.runtime.makeController(screen: "message"))
        try navigation.push(try app.runtime.makeController(screen: "attachment"))
        app.runtime.trace.removeAll()
        _ = try navigation.popToRoot()
        #expect(Self.callbacks(app.runtime.trace) == [
            "onPause(attachment#1)", "onRestart(inbox#1)", "onStart(inbox#1)", "onResume(inbox#1)",
            "onStop(attachment#1)", "onDestroy(attachment#1)", "onDestroy(message#1)",
        ])
    }

    @Test("an interruption pauses and resumes the activity: onPause, onResume")
    func interruption() throws {
        let app = try Self.app()
        try app.launch()
        app.runtime.trace.removeAll()
        app.interrupt()
        app.endInterruption()
        #expect(app.runtime.trace.summary == ["onPause(inbox#1)", "onResume(inbox#1)"])
    }

    /// Two Android 10 apps on one device, one trace.
    static func device(_ names: [String] = ["mail", "notes"]) throws -> (Device, TraceRecorder) {
        let trace = TraceRecorder()
        let device = Device(model: .init(budgetBytes: 512 << 20, os: .android10, release: .android10), termination: LowMemoryKillerPolicy())
        for name in names {
            let runtime = try RuntimeContext(app: name, generation: .iOS6, trace: trace)
            for screen in try mailScreens() { try runtime.register(screen) }
            device.install(Application(name: name, runtime: runtime, hierarchy: .nav("inbox")))
        }
        return (device, trace)
    }

    // A switch between apps: A pauses, B is launched (or restarted) and resumed, then A is
    // stopped once B is in front (the stop waits for the next activity to be idle).
    @Test("switch between apps: A.onPause, B.onCreate/onStart/onResume, A.onStop, A.onSaveInstanceState; back to A: A.onRestart/onStart/onResume, B stopped")
    func switchApps() throws {
        let (device, trace) = try Self.device()
        try device.open("mail")
        trace.removeAll()
        try device.open("notes")
        let first = trace.events.filter { Self.androidKinds.contains($0.kind) }.map { "\($0.app).\($0.description)" }
        #expect(first == [
            "mail.onPause(inbox#1)", "notes.onCreate(inbox#1)", "notes.onStart(inbox#1)", "notes.onResume(inbox#1)",
            "mail.onStop(inbox#1)", "mail.onSaveInstanceState(inbox#1)", "mail.restorationSaved",
        ])
        trace.removeAll()
        try device.open("mail")
        let back = trace.events.filter { Self.androidKinds.contains($0.kind) }.map { "\($0.app).\($0.description)" }
        #expect(back == [
            "notes.onPause(inbox#1)", "mail.onRestart(inbox#1)", "mail.onStart(inbox#1)", "mail.onResume(inbox#1)",
            "notes.onStop(inbox#1)", "notes.onSaveInstanceState(inbox#1)", "notes.restorationSaved",
        ])
        // The device's Android trace holds none of UIKit's callbacks or its Suspended state.
        #expect(!trace.events.contains { AndroidActivityLifeCycle.uikitKinds.contains($0.kind) })
    }

    @Test("the same switch on an iOS device keeps UIKit's callbacks")
    func iOSUnchanged() throws {
        let trace = TraceRecorder()
        let device = Device(model: .init(budgetBytes: 512 << 20, os: .iOS13), termination: JetsamPolicy())
        for name in ["mail", "notes"] {
            let runtime = try RuntimeContext(app: name, generation: .iOS6, trace: trace)
            for screen in try mailScreens() { try runtime.register(screen) }
            device.install(Application(name: name, runtime: runtime, hierarchy: .nav("inbox")))
        }
        try device.open("mail")
        trace.removeAll()
        try device.open("notes")
        let app = trace.events.filter { $0.controller == nil && $0.kind != .launchBegan && $0.kind != .launchEnded }.map { "\($0.app).\($0.kind)" }
        #expect(app == ["mail.willResignActive", "mail.didEnterBackground", "mail.restorationSaved", "mail.suspended",
                        "notes.didFinishLaunching", "notes.didBecomeActive"])
        #expect(!trace.events.contains { $0.kind == .onPause || $0.kind == .onStop })
    }

    // After process death the system recreates the top activity from its saved state
    // (onCreate, onStart, onRestoreInstanceState, onResume: ActivityThread.handleStartActivity);
    // the one below is recreated from saved state when back brings it to the front.
    @Test("process death and restore: onCreate, onStart, onRestoreInstanceState, onResume; back recreates the one below from saved state; unsaved data counted lost")
    func processDeathAndRestore() throws {
        let app = try Self.app()
        try app.launch()
        let navigation = app.window.rootViewController as! NavigationController
        try navigation.push(try app.runtime.makeController(screen: "message"))
        app.window.topViewController!.type(bytes: 5000)
        try app.home()
        app.kill()  // lmkd: no callback
        #expect(app.dataLossBytes == 0)
        app.runtime.trace.removeAll()
        #expect(try app.launch() == .cold)
        let top = app.window.topViewController!
        #expect(top.screen.name == "message" && top.userDataBytes == 5000)
        #expect(Self.callbacks(app.runtime.trace) == [
            "onCreate(\(top.id))", "onStart(\(top.id))", "onRestoreInstanceState(\(top.id))", "onResume(\(top.id))",
        ])
        let below = (app.window.rootViewController as! NavigationController).viewControllers[0]
        app.runtime.trace.removeAll()
        _ = try (app.window.rootViewController as! NavigationController).pop()
        #expect(Self.callbacks(app.runtime.trace) == [
            "onPause(\(top.id))", "onCreate(\(below.id))", "onStart(\(below.id))", "onRestoreInstanceState(\(below.id))",
            "onResume(\(below.id))", "onStop(\(top.id))", "onDestroy(\(top.id))",
        ])
        // Typed after the last save and lost with the process: counted as today.
        app.window.topViewController!.type(bytes: 700)
        app.kill()
        #expect(app.dataLossBytes == 700)
    }

    @Test("data typed between onPause and onStop is saved: the state is saved after onStop (API 28 and later)")
    func saveAfterStop() throws {
        let app = try Self.app()
        try app.launch()
        try app.enterBackground()
        app.window.topViewController!.type(bytes: 11)
        app.suspend()
        try app.finishLeavingFront()
        app.kill()
        #expect(app.dataLossBytes == 0)
    }

    // ActivityThread.handleTrimMemory hands the level to every callback of
    // collectComponentCallbacks(true): the Application, then each activity not finished.
    @Test("every trim level is traced as ComponentCallbacks2 names it, to the app and then each activity (paused, stopped or covered alike); a warning is onTrimMemory at the running level",
          arguments: TrimLevel.allCases)
    func trimLevels(level: TrimLevel) throws {
        let app = try Self.app()
        try app.launch()
        app.runtime.trace.removeAll()
        app.trimMemory(level)
        #expect(Self.callbacks(app.runtime.trace) == ["onTrimMemory:\(level.constantName)", "onTrimMemory:\(level.constantName)(inbox#1)"])
        app.runtime.trace.removeAll()
        app.receiveMemoryWarning(level: level.pressure)
        let running = level.pressure == .critical ? "TRIM_MEMORY_RUNNING_CRITICAL" : "TRIM_MEMORY_RUNNING_MODERATE"
        #expect(app.runtime.trace.summary == ["onTrimMemory:\(running)", "onTrimMemory:\(running)(inbox#1)"])
        // A covered activity and the one in front, the app gone home (both stopped): each hears it.
        let navigation = app.window.rootViewController as! NavigationController
        try navigation.push(try app.runtime.makeController(screen: "message"))
        try app.home()
        app.runtime.trace.removeAll()
        app.trimMemory(level)
        #expect(app.runtime.trace.summary.filter { $0.hasPrefix("onTrimMemory") }
            == ["onTrimMemory:\(level.constantName)", "onTrimMemory:\(level.constantName)(inbox#1)",
                "onTrimMemory:\(level.constantName)(message#1)"])
        // A finished activity (back: destroyed) hears nothing.
        #expect(try app.launch() == .resume)
        _ = try navigation.pop()
        app.runtime.trace.removeAll()
        app.trimMemory(level)
        #expect(app.runtime.trace.summary == ["onTrimMemory:\(level.constantName)", "onTrimMemory:\(level.constantName)(inbox#1)"])
    }

    // ActivityManagerService.appDiedLocked -> doLowMemReportIfNeededLocked (Android 14: AppProfiler),
    // ProcessList.haveBackgroundProcessLocked, GC_MIN_INTERVAL (60 s) per process.
    @Test("onLowMemory: when lmkd's kill leaves no cached process, the others hear it, most recent first, once a minute; ActivityManager's own kill sends none")
    func lowMemory() throws {
        let (device, trace) = try Self.device(["mail", "notes", "photos"])
        for name in ["mail", "notes", "photos"] { try device.open(name) }
        // mail is cached (900 and up), notes the previous app (700), photos in front.
        #expect(device.installed("mail")!.oomScoreAdj >= 900 && device.installed("notes")!.oomScoreAdj == 700)
        trace.removeAll()
        device.kill(device.installed("mail")!, reason: .lmkdCriticalPressure)
        // The app, then its activity (handleLowMemory: collectComponentCallbacks(true)).
        #expect(trace.events.filter { $0.kind == .onLowMemory }.map(\.app) == ["photos", "photos", "notes", "notes"])
        #expect(trace.events.filter { $0.kind == .onLowMemory }.map { $0.controller == nil } == [true, false, true, false])
        trace.removeAll()
        device.idle(seconds: 30)
        device.kill(device.installed("notes")!, reason: .lmkdCriticalPressure)
        #expect(!trace.events.contains { $0.kind == .onLowMemory })  // photos was told 31 s ago

        let (other, otherTrace) = try Self.device(["mail", "notes", "photos"])
        for name in ["mail", "notes", "photos"] { try other.open(name) }
        otherTrace.removeAll()
        other.kill(other.installed("mail")!, reason: .tooManyCached)
        #expect(!otherTrace.events.contains { $0.kind == .onLowMemory })
    }

    @Test("no onLowMemory on an iOS device (XNU sends none)")
    func noLowMemoryOnIOS() throws {
        let trace = TraceRecorder()
        let device = Device(model: .init(budgetBytes: 512 << 20, os: .iOS13), termination: JetsamPolicy())
        for name in ["mail", "notes"] {
            let runtime = try RuntimeContext(app: name, generation: .iOS6, trace: trace)
            for screen in try mailScreens() { try runtime.register(screen) }
            device.install(Application(name: name, runtime: runtime, hierarchy: .nav("inbox")))
        }
        try device.open("mail")
        try device.open("notes")
        device.kill(device.installed("mail")!, reason: .vmPageShortage)
        #expect(!trace.events.contains { $0.kind == .onLowMemory })
    }

    // onSaveInstanceState runs the activity's code: memory compressed while the app was away is
    // read back before its state is written (docs/app-life-cycle.md, "The same app on an iPhone
    // and a Pixel": the one Android figure that moved).
    @Test("the state saved at onStop holds user data of a controller that was compressed while the app was away")
    func saveReadsCompressedUserData() throws {
        let (device, mail) = try twoMailApps(.init(budgetBytes: 512 << 20, compressor: .lz4, os: .android10, release: .android10),
                                             termination: LowMemoryKillerPolicy())
        try device.open("mail")
        let navigation = mail.window.rootViewController as! NavigationController
        try navigation.push(try mail.runtime.makeController(screen: "message"))
        mail.window.topViewController!.type(bytes: 3000)
        try navigation.push(try mail.runtime.makeController(screen: "attachment"))
        try device.open("notes")
        #expect(device.compress(device.installed("mail")!))
        try device.open("mail")  // resumes: only what is on screen is read back
        try device.open("notes")  // mail pauses, then stops and saves
        #expect(try RestorationArchive.read(from: mail.archivePath)?.userDataBytes == 3000)
    }
}

