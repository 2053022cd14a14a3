import Foundation
@testable import PressureLab
import PressureLabHeap
import Testing

@Suite("The device: budget, pressure, kills and freezing")
struct DeviceTests {
    /// An app whose single screen holds about `bitmap` bytes in a bitmap.
    static func app(_ name: String, bitmap: Int = 4 << 20) throws -> Application {
        let runtime = try RuntimeContext(app: name, generation: .iOS6)
        try runtime.register(ScreenSpec(name: "main", view: try .tree(depth: 1, fanout: 4, bytes: 1024, rootBacking: bitmap),
                                        outlets: 1, cacheBytes: 256 << 10, modelBytes: 128 << 10))
        try runtime.register(ScreenSpec(name: "compose", view: try .single(bytes: 1024)))
        return Application(name: name, runtime: runtime, hierarchy: .nav("main"))
    }

    /// Measured bytes of one app in front.
    static func appBytes(bitmap: Int = 4 << 20) throws -> Int {
        let probe = try app("probe", bitmap: bitmap)
        try probe.launch()
        defer { probe.kill() }
        return probe.runtime.ledger.total
    }

    @Test("jetsam (iOS 12, xnu-4903 memorystatus_update_levels_locked): the head of the idle band goes first, one kill at a time, until available memory is back at the idle threshold (10%)")
    func jetsamOrder() throws {
        let perApp = try Self.appBytes()
        // Each app is 7% of the budget: the 13th leaves 9% available, under the idle threshold.
        let device = Device(model: .init(budgetBytes: perApp * 100 / 7), termination: JetsamPolicy())
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n"]
        for name in names { device.install(try Self.app(name)) }
        var afterEach: [Double] = []
        for name in names {
            try device.open(name)
            afterEach.append(Double(device.usedBytes) / Double(device.model.budgetBytes))
        }
        #expect(device.metrics.killOrder == ["a", "b"])
        // xnu-4903's jetsam thread records every kill of its loop as VMPAGESHORTAGE
        // (`memorystatus_thread`); IDLE_EXIT is macOS's `kill_idle_exit_proc` only.
        #expect(device.metrics.killReasons == [.vmPageShortage, .vmPageShortage])
        // Nothing is killed while 10% or more is available; a kill stops there.
        #expect(afterEach[11] > 0.83 && afterEach[11] < 0.90)
        #expect(afterEach.allSatisfy { $0 <= 0.90 })
        #expect(device.installed("a")!.app.state == .notRunning)
        #expect(device.installed("n")!.app.state == .active)
        #expect(device.metrics.outOfMemoryCrashes == 0)
    }

    @Test("jetsam (xnu memorystatus_kill_top_process): bands lowest first, head of a band first, the foreground app last; idle kills touch band 0 only")
    func bandOrder() {
        func app(_ name: String, _ band: JetsamBand, _ order: UInt64, state: AppState = .suspended,
                 frozen: Bool = false, foreground: Bool = false) -> AppSnapshot {
            AppSnapshot(name: name, state: state, isForeground: foreground, isFrozen: frozen, bytes: 10 << 20,
                        lastUsed: Double(order), useOrder: order, band: band, oomScoreAdj: 900)
        }
        let snapshot = DeviceSnapshot(
            apps: [app("bg-old", .background, 1, state: .background), app("idle-new", .idle, 5),
                   app("idle-old", .idle, 2), app("frozen", .freezer, 0, frozen: true),
                   app("front", .foreground, 9, state: .active, foreground: true), app("aging", .aging1, 3)],
            usedBytes: 100, budgetBytes: 100, level: .critical, bytesToFree: 50, freezeBudgetBytes: 0,
            runningAppsWarned: false)
        #expect(JetsamPolicy.victims(snapshot).map(\.name) == ["idle-old", "idle-new", "aging", "bg-old", "frozen", "front"])
        // Nothing available (below iOS 12's critical 5%): any band, the head of the idle band first.
        #expect(JetsamPolicy().nextAction(snapshot) == .kill("idle-old", .vmPageShortage))
        // 8% available: between critical (5%) and idle (10%): band 0 only; iOS 12 records the
        // kill as VMPAGESHORTAGE (its loop's cause), iOS 18 as IDLE_EXIT (MEMORYSTATUS_KILL_IDLE).
        var idleShort = snapshot
        idleShort.usedBytes = 92
        #expect(JetsamPolicy().nextAction(idleShort) == .kill("idle-old", .vmPageShortage))
        idleShort.release = .iOS18
        #expect(JetsamPolicy().nextAction(idleShort) == .kill("idle-old", .idleExit))
        idleShort.release = .iOS12
        idleShort.apps = idleShort.apps.filter { $0.band != .idle }
        #expect(JetsamPolicy().nextAction(idleShort) == nil)
        // Exactly 10% available: xnu-4903 compares `<=` (memorystatus_avail_pages_below_critical),
        // so iOS 12 still kills; xnu-11417 compares `<`, so iOS 18 does not.
        var atThreshold = snapshot
        atThreshold.usedBytes = 90
        #expect(JetsamPolicy().nextAction(atThreshold) == .kill("idle-old", .vmPageShortage))
        atThreshold.release = .iOS18
        #expect(JetsamPolicy().nextAction(atThreshold) == nil)
        // 11% available: no kill at all.
        var healthy = snapshot
        healthy.usedBytes = 89
        #expect(JetsamPolicy().nextAction(healthy) == nil)
        // Critical with only the foreground app left: it is killed (the band walk reaches 100).
        var nothingLeft = snapshot
        nothingLeft.apps = [app("front", .foreground, 9, state: .active, foreground: true)]
        #expect(JetsamPolicy().nextAction(nothingLeft) == .killForeground(.vmPageShortage))
    }

    @Test("lmk (Android 10 lmkd.c find_and_kill_process): highest oom_score_adj first; medium pressure kills at 800 and up, critical at 0 and up")
    func lmkOrder() {
        func app(_ name: String, _ adj: Int, order: UInt64) -> AppSnapshot {
            AppSnapshot(name: name, state: .suspended, isForeground: false, isFrozen: false, bytes: 1 << 20,
                        lastUsed: 0, useOrder: order, band: .idle, oomScoreAdj: adj)
        }
        var snapshot = DeviceSnapshot(apps: [app("previous", 700, order: 9), app("cached-old", 905, order: 1),
                                             app("cached-new", 900, order: 5), app("perceptible", 200, order: 3)],
                                      usedBytes: 90, budgetBytes: 100, level: .warning, bytesToFree: 20,
                                      freezeBudgetBytes: 0, runningAppsWarned: false, release: .android10)
        #expect(LowMemoryKillerPolicy().nextAction(snapshot) == .kill("cached-old", .lmkdMediumPressure))
        // ro.lmk.medium = 800: the previous app (700) and a perceptible one are spared at medium pressure.
        snapshot.apps = [app("previous", 700, order: 9), app("perceptible", 200, order: 3)]
        #expect(LowMemoryKillerPolicy().nextAction(snapshot) == nil)
        snapshot.level = .critical
        #expect(LowMemoryKillerPolicy().nextAction(snapshot) == .kill("previous", .lmkdCriticalPressure))
        snapshot.apps = [app("perceptible", 200, order: 3)]
        #expect(LowMemoryKillerPolicy().nextAction(snapshot) == .kill("perceptible", .lmkdCriticalPressure))
    }

    @Test("Android 10 keeps a foreground service's pending UI clean (updateLowMemStateLocked clears pendingUiClean only at PROCESS_STATE_IMPORTANT_BACKGROUND or below): no UI_HIDDEN while the music plays, UI_HIDDEN at the first update after it stops")
    func uiHiddenAfterTheServiceStops() throws {
        let device = Device(model: .init(budgetBytes: 1 << 30), termination: LowMemoryKillerPolicy())
        for name in ["music", "b"] { device.install(try Self.app(name)) }
        let music = device.installed("music")!
        music.app.backgroundMode = .audio(seconds: 60)
        try device.open("music")
        try device.open("b")
        func uiHidden() -> Int { music.app.runtime.trace.summary.filter { $0 == "onTrimMemory:TRIM_MEMORY_UI_HIDDEN" }.count }
        device.idle(seconds: 30)
        #expect(uiHidden() == 0 && music.isUIHiddenPending && music.app.state == .background)
        device.idle(seconds: 30)
        #expect(music.app.state == .suspended)
        device.idle(seconds: 1)
        #expect(uiHidden() == 1 && !music.isUIHiddenPending)
    }

    @Test("a foreground service whose app left the front less than TOP_TO_FGS_GRACE_DURATION (15 s) ago is ranked PERCEPTIBLE_RECENT_FOREGROUND_APP_ADJ (50, \"fg-service-act\"), PERCEPTIBLE_APP_ADJ (200) from the first update after; its bound process follows (VISIBLE_APP_ADJ, 100, while the client is better than 200)",
          arguments: [OSRelease.android10, .android14])
    func foregroundServiceRecentlyInFront(release: OSRelease) throws {
        let device = Device(model: .init(budgetBytes: 1 << 30, release: release), termination: LowMemoryKillerPolicy())
        for name in ["music", "b"] { device.install(try Self.app(name)) }
        let music = device.installed("music")!
        music.app.backgroundMode = .audio(seconds: nil)
        try device.open("music")
        try device.open("b")
        let leftAt = try #require(music.processRecord.lastTopTime)
        #expect(device.oomScoreAdj(of: music) == 50)
        device.idle(seconds: leftAt + 15 - device.now - 0.5)
        #expect(device.oomScoreAdj(of: music) == 50)
        // lastTopTime + 15 > now no longer holds at exactly 15 s.
        device.idle(seconds: 0.5)
        #expect(device.now == leftAt + 15 && device.oomScoreAdj(of: music) == 200)
        // In front again, and away again: a new grace.
        try device.open("music")
        try device.open("b")
        #expect(device.oomScoreAdj(of: music) == 50)
        #expect(LowMemoryKillerRules.boundProcessAdj(clientAdj: 50) == 100)
    }

    @Test("Android 14 (use_modern_trim) sends UI_HIDDEN only from PROCESS_STATE_IMPORTANT_BACKGROUND up to CACHED_ACTIVITY: none to a foreground service while it runs; once it stops, the previous app (LAST_ACTIVITY) gets it, a cached one TRIM_MEMORY_BACKGROUND")
    func android14ForegroundServiceGetsNoUIHidden() throws {
        let device = Device(model: .init(budgetBytes: 1 << 30, release: .android14), termination: LowMemoryKillerPolicy())
        for name in ["music", "b", "c"] { device.install(try Self.app(name)) }
        let music = device.installed("music")!
        music.app.backgroundMode = .audio(seconds: 60)
        try device.open("music")
        try device.open("b")
        func trims() -> [String] { music.app.runtime.trace.summary.filter { $0.hasPrefix("onTrimMemory") } }
        device.idle(seconds: 30)
        #expect(trims().isEmpty && music.isUIHiddenPending && music.app.state == .background)
        // Still the previous app when the music stops (not expired: 60 s, `max_previous_time`,
        // is not yet past at the update that sees the service gone).
        device.idle(seconds: 30)
        #expect(music.app.state == .suspended)
        #expect(trims() == ["onTrimMemory:TRIM_MEMORY_UI_HIDDEN"] && !music.isUIHiddenPending)
        // b, sent away by c while its interface was hidden: the previous app, UI_HIDDEN; then
        // cached: TRIM_MEMORY_BACKGROUND.
        let b = device.installed("b")!
        try device.open("c")
        try device.open("music")
        #expect(b.app.runtime.trace.summary.filter { $0.hasPrefix("onTrimMemory") }
            == ["onTrimMemory:TRIM_MEMORY_UI_HIDDEN", "onTrimMemory:TRIM_MEMORY_BACKGROUND"])
    }

    @Test("lmk delivers onTrimMemory as apps leave the foreground; oom_score_adj follows recency")
    func lmkTrims() throws {
        let device = Device(model: .init(budgetBytes: 1 << 30), termination: LowMemoryKillerPolicy())
        for name in ["a", "b", "c"] { device.install(try Self.app(name)) }
        for name in ["a", "b", "c"] { try device.open(name) }
        let a = device.installed("a")!
        // Android 10 at normal pressure: TRIM_MEMORY_UI_HIDDEN only (updateLowMemStateLocked).
        #expect(a.app.runtime.trace.summary.filter { $0.hasPrefix("onTrimMemory") } == ["onTrimMemory:TRIM_MEMORY_UI_HIDDEN"])
        #expect(device.oomScoreAdj(of: device.installed("c")!) == 0)
        #expect(device.oomScoreAdj(of: device.installed("b")!) == 700)
        #expect(device.oomScoreAdj(of: a) == 900)
    }

    @Test("the trace names onTrimMemory's level as ComponentCallbacks2 does", arguments: TrimLevel.allCases)
    func trimLevelNamed(level: TrimLevel) throws {
        let app = try Self.app("a")
        _ = try app.launch()
        try app.home()
        app.runtime.trace.isEnabled = true
        app.runtime.trace.removeAll()
        app.trimMemory(level)
        let names: [TrimLevel: String] = [.runningModerate: "TRIM_MEMORY_RUNNING_MODERATE", .runningLow: "TRIM_MEMORY_RUNNING_LOW",
                                          .runningCritical: "TRIM_MEMORY_RUNNING_CRITICAL", .uiHidden: "TRIM_MEMORY_UI_HIDDEN",
                                          .background: "TRIM_MEMORY_BACKGROUND", .moderate: "TRIM_MEMORY_MODERATE",
                                          .complete: "TRIM_MEMORY_COMPLETE"]
        #expect(app.runtime.trace.summary == ["onTrimMemory:\(names[level]!)"])
    }

    @Test("a per-app limit kills the app that crosses it, at once")
    func perAppLimit() throws {
        let perApp = try Self.appBytes()
        let device = Device(model: .init(budgetBytes: 1 << 30, appLimitBytes: perApp * 2), termination: JetsamPolicy())
        device.install(try Self.app("hog"))
        device.install(try Self.app("quiet"))
        try device.open("quiet")
        try device.open("hog")
        device.installed("hog")!.app.window.topViewController!.type(bytes: perApp * 3 / 2)
        device.idle(seconds: 1)
        #expect(device.installed("hog")!.app.state == .notRunning)
        #expect(device.installed("quiet")!.app.state == .suspended)
        #expect(device.metrics.limitKills == 1)
        #expect(device.metrics.killOrder == ["hog"])
    }

    @Test("a suspended app that is killed gets no willTerminate; its unsaved data is none")
    func killedSuspendedApp() throws {
        let perApp = try Self.appBytes()
        let device = Device(model: .init(budgetBytes: perApp * 100 / 30), termination: JetsamPolicy())
        for name in ["a", "b", "c", "d"] { device.install(try Self.app(name)) }
        try device.open("a")
        device.installed("a")!.app.window.topViewController!.type(bytes: 1000)
        for name in ["b", "c", "d"] { try device.open(name) }
        let a = device.installed("a")!.app
        #expect(a.state == .notRunning)
        #expect(a.runtime.trace.summary.contains("processKilled"))
        #expect(!a.runtime.trace.summary.contains("willTerminate"))
        #expect(a.dataLossBytes == 0)
        // Cold launch brings the typed data back from the archive.
        try device.open("a")
        #expect(device.installed("a")!.app.window.topViewController!.userDataBytes == 1000)
    }

    @Test("none: crossing the budget crashes the active app, out of memory, its unsaved data counted")
    func noTermination() throws {
        let perApp = try Self.appBytes()
        let device = Device(model: .init(budgetBytes: perApp * 3), termination: NoTermination())
        for name in ["a", "b", "c"] { device.install(try Self.app(name)) }
        for name in ["a", "b", "c"] { try device.open(name) }
        let c = device.installed("c")!.app
        c.window.topViewController!.type(bytes: perApp)
        device.idle(seconds: 1)
        #expect(device.metrics.outOfMemoryCrashes == 1)
        #expect(c.state == .notRunning)
        #expect(c.dataLossBytes == perApp)
        #expect(device.installed("a")!.app.state == .suspended)
    }

    @Test("freeze: the app's memory leaves the heap (measured) and comes back byte-identical on resume")
    func freezeAndThaw() throws {
        let device = Device(model: .init(budgetBytes: 1 << 30), termination: FreezePolicy())
        let frozenApp = try Self.app("frozen", bitmap: 8 << 20)
        frozenApp.appDataBytes = 1 << 20  // app-wide data is paged out too
        device.install(frozenApp)
        device.install(try Self.app("other"))
        try device.open("frozen")
        let frozen = device.installed("frozen")!
        frozen.app.window.topViewController!.type(bytes: 12_345)
        try device.open("other")
        let before = frozen.app.controllers.map(\.memoryChecksums)
        let held = frozen.bytes
        let freeze = Heap.measure { #expect(device.freeze(frozen)) }
        // Everything the app held is freed, except the objects that stay as its skeleton
        // (controllers, view objects, block objects): under 64 KiB here.
        #expect(-freeze.delta.net >= held - (64 << 10))
        #expect(frozen.bytes < 64 << 10)
        #expect(device.metrics.freezes == 1)
        #expect(device.metrics.frozenBytesWritten >= (8 << 20) + (1 << 20) + 12_345)
        #expect(try FileIO_size(frozen.app.runtime.bundle.directory + "/frozen.frozen") == device.metrics.frozenBytesWritten)
        #expect(try device.open("frozen") == .thaw)
        #expect(frozen.app.controllers.map(\.memoryChecksums) == before)
        #expect(abs(frozen.bytes - held) <= 1024)
        #expect(!FileManager.default.fileExists(atPath: frozen.app.runtime.bundle.directory + "/frozen.frozen"))
    }

    @Test("opening the app already in front launches nothing and counts nothing")
    func openForeground() throws {
        let device = Device(model: .init(budgetBytes: 1 << 30), termination: JetsamPolicy())
        device.install(try Self.app("a"))
        try device.open("a")
        try device.open("a")
        #expect(device.metrics.coldLaunches == 1)
        #expect(device.metrics.resumes == 0)
        #expect(device.metrics.launchLatency(.resume).count == 0)
    }

    @Test("hysteresis: warning rises at 80% and clears below 70%; scripted warnings are a second source")
    func pressureLevels() {
        let measured = MeasuredPressure()
        #expect(measured.level(usedBytes: 79, budgetBytes: 100) == .normal)
        #expect(measured.level(usedBytes: 80, budgetBytes: 100) == .warning)
        #expect(measured.level(usedBytes: 75, budgetBytes: 100) == .warning)
        #expect(measured.level(usedBytes: 92, budgetBytes: 100) == .critical)
        #expect(measured.level(usedBytes: 86, budgetBytes: 100) == .critical)
        #expect(measured.level(usedBytes: 84, budgetBytes: 100) == .warning)
        #expect(measured.level(usedBytes: 69, budgetBytes: 100) == .normal)
        let scripted = ScriptedPressure()
        scripted.inject(.critical)
        #expect(scripted.level(usedBytes: 0, budgetBytes: 100) == .critical)
        #expect(scripted.level(usedBytes: 0, budgetBytes: 100) == .normal)
        #expect(PressureThresholds(warningRise: 0.7, warningClear: 0.8, criticalRise: 0.9, criticalClear: 0.85).problem != nil)
        #expect(PressureThresholds.default.problem == nil)
    }

    @Test("a scripted warning reaches running apps through the policy")
    func scriptedWarning() throws {
        let device = Device(model: .init(budgetBytes: 1 << 30), termination: JetsamPolicy())
        device.install(try Self.app("a"))
        try device.open("a")
        let app = device.installed("a")!.app
        app.runtime.trace.removeAll()
        device.injectWarning(.critical)
        // Nothing to kill: jetsam warns the running apps.
        #expect(app.runtime.trace.summary.first == "applicationDidReceiveMemoryWarning")
    }
}

func FileIO_size(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? -1
}
