import Foundation
@testable import PressureLab
import Testing

/// Android apps of more than one process: each secondary process ranked as `OomAdjuster`
/// ranks it, killed on its own, counted as ActivityManager counts it, started again when
/// its app needs it; and apps growing as they are used.
@Suite("Processes and growth with use")
struct ProcessTests {
    /// An app with `processes` (each `bytes` of anonymous memory) besides its screens.
    static func app(_ name: String, _ processes: [(String, ProcessKind)] = [], bytes: Int = 4 << 20) throws -> Application {
        let app = try LifeCycleTests.app(name)
        app.processes = processes.map { ProcessSpec(name: $0.0, kind: $0.1, bytes: bytes) }
        return app
    }

    static func process(_ device: Device, _ name: String) -> SecondaryProcess {
        let app = String(name.prefix { $0 != ":" })
        return device.installed(app)!.processes.first { $0.name == name }!
    }

    // 4.9 mm/vmscan.c: a process's anonymous pages are on the node's LRU lists like any other's;
    // no process is exempt from swap (mlock aside).
    @Test("a suspended app's secondary processes are swapped out after its controllers and before its app-wide data, read back when the app comes to the front, and dropped unread when the process dies")
    func secondaryProcessesSwap() throws {
        let browser = try Self.app("browser", [("renderer", .isolated)], bytes: 8 << 20)
        browser.appDataBytes = 4 << 20
        let other = try Self.app("other")
        let device = Device(model: .init(budgetBytes: 1 << 30, release: .android10, swapFileBytes: 64 << 20),
                            termination: LowMemoryKillerPolicy())
        for app in [browser, other] { device.install(app) }
        try device.open("browser")
        try device.open("other")
        let installed = device.installed("browser")!
        let renderer = browser.processes[0]
        let resident = browser.bytes(of: renderer)
        #expect(resident >= 8 << 20)
        // Controllers first, then the renderer, the app-wide data last.
        while browser.controllers.contains(where: \.canSwapOut) { #expect(device.swapOut(installed)) }
        #expect(browser.canSwapOut(process: renderer))
        #expect(device.swapOut(installed))
        #expect(!browser.canSwapOut(process: renderer) && browser.isRunning(process: renderer))
        #expect(browser.bytes(of: renderer) < 64 << 10 && !browser.isAppDataSwapped)
        #expect(device.swapOut(installed) && browser.isAppDataSwapped)
        #expect(!browser.hasRegionToSwap)
        // Back in front: the renderer's memory is read back from the file.
        let reads = browser.runtime.work.storageReadBytes
        #expect(try device.open("browser") == .resume)
        #expect(browser.bytes(of: renderer) == resident)
        #expect(browser.runtime.work.storageReadBytes - reads >= (8 << 20) + (4 << 20))
        // Swapped again, then the process dies: its region goes unread, the file is empty.
        try device.open("other")
        while device.swapOut(installed) {}
        #expect(device.swappedBytes > 0)
        device.kill(installed, reason: .lmkdCriticalPressure)
        #expect(device.swappedBytes == 0 && browser.swappedProcessMemory.isEmpty)
    }

    @Test("a bound or isolated process follows its client (computeOomAdjLocked): visible (100) while the client is in front, the client's adj after; a started service is SERVICE_ADJ (500), the first third of them, the rest SERVICE_B_ADJ (800)")
    func adjFollowsClient() throws {
        let browser = try Self.app("browser", [("renderer", .isolated), ("gpu", .bound), ("push", .service)])
        let other = try Self.app("other")
        let third = try Self.app("third")
        let device = XNUFidelityTests.device([browser, other, third], budget: 1 << 30, release: .android10,
                                             termination: LowMemoryKillerPolicy())
        try device.open("browser")
        #expect(device.oomScoreAdj(of: device.installed("browser")!) == 0)
        #expect(Self.process(device, "browser:renderer").oomScoreAdj == 100)
        #expect(Self.process(device, "browser:gpu").oomScoreAdj == 100)
        #expect(Self.process(device, "browser:push").oomScoreAdj == 500)
        // The previous app (700): its processes too.
        try device.open("other")
        #expect(Self.process(device, "browser:renderer").oomScoreAdj == 700)
        // A cached app: its bound processes take its cached slot and are empty for the limits.
        try device.open("third")
        let cachedAdj = device.oomScoreAdj(of: device.installed("browser")!)
        #expect(LowMemoryKillerRules.cachedAdjRange.contains(cachedAdj))
        #expect(Self.process(device, "browser:gpu").oomScoreAdj == cachedAdj)
        #expect(Self.process(device, "browser:push").oomScoreAdj == 500)
        let snapshot = device.deviceSnapshot(used: device.usedBytes, target: 0, warned: false)
        #expect(snapshot.processes.filter(\.isCachedActivityClient).map(\.name).sorted() == ["browser:gpu", "browser:renderer"])
        #expect(snapshot.processes.filter(\.isEmpty).isEmpty)
        // MAX_SERVICE_INACTIVITY: 30 minutes after its app was last used, a started service no
        // longer holds SERVICE_ADJ; it takes the first empty slot, 905 ("cch-started-services"):
        // after its own app, the most recent cached one (900; "other" is the previous app, 700),
        // so lmkd takes it first; still counted in neither limit.
        device.idle(seconds: LowMemoryKillerRules.maxServiceInactivitySeconds + 1)
        #expect(Self.process(device, "browser:push").oomScoreAdj == 905)
        #expect(device.oomScoreAdj(of: device.installed("other")!) == 700)
        #expect(device.oomScoreAdj(of: device.installed("browser")!) == 900)
        let later = device.deviceSnapshot(used: device.usedBytes, target: 0, warned: false)
        #expect(!later.processes.first { $0.name == "browser:push" }!.isCachedActivityClient)
        #expect(LowMemoryKillerRules.emptySlotAdjs(count: 3) == [905, 915, 925])
        #expect(LowMemoryKillerRules.emptySlotAdjs(count: 12) == [905, 905, 915, 915, 925, 925, 935, 935, 945, 945, 955, 955])
        #expect(LowMemoryKillerRules.cachedAdjs(count: 3) == [900, 910, 920])
        // Services: the first third of them in LRU order are A, the rest B.
        #expect(LowMemoryKillerRules.serviceAdjs(count: 1) == [500])
        #expect(LowMemoryKillerRules.serviceAdjs(count: 2) == [500, 800])
        #expect(LowMemoryKillerRules.serviceAdjs(count: 6) == [500, 500, 500, 800, 800, 800])
    }

    @Test("lmkd kills a secondary process before its app's main one when its adj is higher: the renderer of the app in front (100) before any foreground process; the app lives on and ActivityManager starts it again a second later (scheduleServiceRestartLocked), a process start")
    func secondaryKilledFirst() throws {
        let browser = try Self.app("browser", [("renderer", .isolated)], bytes: 64 << 20)
        let device = XNUFidelityTests.device([browser], budget: 256 << 20, release: .android10, termination: LowMemoryKillerPolicy())
        try device.open("browser")
        let before = device.installed("browser")!.bytes
        let rendererBytes = browser.bytes(of: browser.processes[0])
        // Its declared 64 MiB (one jemalloc size class, exactly) and the block's own object.
        #expect(rendererBytes >= 64 << 20 && rendererBytes < (64 << 20) + 1024)
        // Critical: from adj 1000 down to 0, the renderer (100) is the first process found.
        device.level = .critical
        device.reclaim(downTo: 0, emergencyBytes: 0, sparing: nil)
        #expect(device.metrics.killOrder.first == "browser:renderer")
        #expect(device.metrics.killReasons.first == .lmkdCriticalPressure)
        #expect(browser.state.hasProcess && !browser.isRunning(process: browser.processes[0]))
        // Its memory is gone from the app's ledger.
        #expect(before - device.installed("browser")!.bytes == rendererBytes)
        // A second later (Home is a step of a second) ActivityManager starts it again, a process start.
        let starts = browser.runtime.work.processStarts
        try device.goHome()
        #expect(browser.isRunning(process: browser.processes[0]))
        #expect(browser.runtime.work.processStarts == starts + 1)
        try device.open("browser")
        #expect(browser.runtime.work.processStarts == starts + 1)
        let restarted = browser.bytes(of: browser.processes[0])
        #expect(restarted >= 64 << 20 && restarted < (64 << 20) + 1024)
    }

    @Test("the timeline names a secondary process APP:PROCESS, read back as such")
    func timelineMark() {
        let mark = TimelineMark.killProcess(app: "chrome", process: "gpu", reason: .tooManyEmpty)
        #expect(mark.description == "kill chrome:gpu (too-many-empty)")
        #expect(TimelineMark(mark.description) == mark)
        #expect(TimelineMark("kill chrome (too-many-cached)") == .kill(app: "chrome", reason: .tooManyCached))
    }

    @Test("ActivityManager counts a cached app's bound and isolated processes with the cached apps (PROCESS_STATE_CACHED_ACTIVITY_CLIENT, updateOomAdjLocked): past 16 in its walk, most recent first and each app followed by its processes, they die \"cached #N\"; a killed main process takes its processes with it")
    func limitsCountProcesses() throws {
        // Each app binds two processes.
        let apps = try (0..<11).map { try Self.app("a\($0)", [("one", .bound), ("two", .isolated)], bytes: 1 << 20) }
        let device = XNUFidelityTests.device(apps, budget: 1 << 30, release: .android10, termination: LowMemoryKillerPolicy())
        for app in apps { try device.open(app.name) }
        // a10 in front, a9 previous, a0 ... a8 cached: 9 apps and 18 processes, 27 in the walk. The
        // first 16 stay: a8 ... a4 with their processes (15), then a3 itself.
        #expect(Set(device.metrics.killReasons) == [.tooManyCached])
        #expect(apps[3...].allSatisfy { $0.state.hasProcess })
        #expect(apps[..<3].allSatisfy { !$0.state.hasProcess })
        #expect(!apps[3].isRunning(process: apps[3].processes[0]) && !apps[3].isRunning(process: apps[3].processes[1]))
        #expect(apps[4].isRunning(process: apps[4].processes[0]) && apps[4].isRunning(process: apps[4].processes[1]))
        // The walk's last goes first: the least recently used app's processes, then the app (a
        // process killed alone starts again a second later and is killed again while it is past
        // the limit).
        #expect(Array(device.metrics.killOrder.prefix(2)) == ["a0:two", "a0:one"])
        #expect(device.metrics.killOrder.firstIndex(of: "a0:two")! < device.metrics.killOrder.firstIndex(of: "a0")!)
        // A main process killed: its processes end with it (the isolated one is "not needed").
        device.kill(device.installed("a4")!, reason: .lmkdMediumPressure)
        #expect(!apps[4].isRunning(process: apps[4].processes[0]) && !apps[4].isRunning(process: apps[4].processes[1]))
        #expect(device.installed("a4")!.bytes == 0)
    }

    @Test("the trim walk leaves out the apps the cached limit kills when their processes count too (Android 10): 15 cached apps, one with two bound processes")
    func trimSkipsAppsPastTheLimitWithProcesses() {
        let apps = (0..<15).map { AndroidFidelityTests.app("c\($0)", adj: 900 + min($0, 9) * 10, order: UInt64(40 - $0)) }
        let processes = ["one", "two"].map {
            ProcessSnapshot(name: "c0:\($0)", app: "c0", kind: .bound, bytes: 1, oomScoreAdj: 900, adjOrder: 0, useOrder: 40,
                            isEmpty: false, isCachedActivityClient: true)
        }
        // c0, c0:one, c0:two, c1 ... c13 are the first 16; c14 goes.
        #expect(TrimMemoryRules.killedByCachedLimit(apps, processes: processes) == ["c14"])
        #expect(TrimMemoryRules.killedByCachedLimit(apps).isEmpty)
    }

    @Test("a process killed alone starts again while its app lives (scheduleServiceRestartLocked): after 1 s, then 4 s when killed again within 60 s of its last start; restarts of two services spaced 10 s apart")
    func killedServiceRestarts() throws {
        #expect(ServiceRestartRules.delay(now: 0, lastStart: nil, lastDelay: 0) == 1)
        #expect(ServiceRestartRules.delay(now: 30, lastStart: 10, lastDelay: 1) == 4)
        #expect(ServiceRestartRules.delay(now: 30, lastStart: 10, lastDelay: 4) == 16)
        #expect(ServiceRestartRules.delay(now: 80, lastStart: 10, lastDelay: 4) == 1)
        let browser = try Self.app("browser", [("gpu", .bound), ("renderer", .isolated)])
        let other = try Self.app("other")
        let device = XNUFidelityTests.device([browser, other], budget: 1 << 30, release: .android10,
                                             termination: LowMemoryKillerPolicy())
        try device.open("browser")
        try device.open("other")
        let gpu = Self.process(device, "browser:gpu"), renderer = Self.process(device, "browser:renderer")
        let started = browser.runtime.work.processStarts
        device.activityManager.kill(gpu, of: device.installed("browser")!, reason: .lmkdCriticalPressure, on: device)
        device.activityManager.kill(renderer, of: device.installed("browser")!, reason: .lmkdCriticalPressure, on: device)
        #expect(gpu.restartAt == device.now + 1 && renderer.restartAt == device.now + 11)
        let killedAt = device.now
        device.idle(seconds: 0.5)
        #expect(!browser.isRunning(process: gpu.spec))
        device.idle(seconds: 0.5)
        #expect(browser.isRunning(process: gpu.spec) && !browser.isRunning(process: renderer.spec))
        #expect(browser.runtime.work.processStarts == started + 1)
        device.idle(seconds: 10)
        #expect(browser.isRunning(process: renderer.spec) && device.now == killedAt + 11)
        // Killed again 10 s after its restart: 4 s this time.
        device.activityManager.kill(gpu, of: device.installed("browser")!, reason: .lmkdCriticalPressure, on: device)
        #expect(gpu.restartAt == device.now + 4)
        // Its app killed: its processes go with it, and nothing restarts.
        device.kill(device.installed("browser")!, reason: .lmkdCriticalPressure)
        #expect(gpu.restartAt == nil)
        device.idle(seconds: 10)
        #expect(!browser.isRunning(process: gpu.spec) && !browser.state.hasProcess)
    }

    @Test("restarts of different services are spaced 10 s apart, the walk repeated after each move (scheduleServiceRestartLocked): killed together, three processes restart at +1, +11 and +21 s")
    func restartsSpacedApart() throws {
        let app = try Self.app("app", [("r", .isolated), ("g", .bound), ("z", .bound)])
        let other = try Self.app("other")
        let device = XNUFidelityTests.device([app, other], budget: 1 << 30, release: .android10,
                                             termination: LowMemoryKillerPolicy())
        try device.open("app")
        try device.open("other")
        let (r, g, z) = (Self.process(device, "app:r"), Self.process(device, "app:g"), Self.process(device, "app:z"))
        let owner = device.installed("app")!
        device.activityManager.kill(g, of: owner, reason: .lmkdCriticalPressure, on: device)
        device.activityManager.kill(r, of: owner, reason: .lmkdCriticalPressure, on: device)
        // z wants +1: g's +1 moves it to +11, where r already is: one walk more moves it to +21.
        device.activityManager.kill(z, of: owner, reason: .lmkdCriticalPressure, on: device)
        #expect(g.restartAt == device.now + 1 && r.restartAt == device.now + 11 && z.restartAt == device.now + 21)
    }

    @Test("grow adds exactly its bytes to the app in front (measured), held while the process lives and gone with it; nothing grows without an app in front")
    func growthAddsItsBytes() throws {
        let app = try LifeCycleTests.app("feed")
        app.appDataBytes = 16 << 20
        let device = XNUFidelityTests.device([app], budget: 1 << 30, release: .android10, termination: LowMemoryKillerPolicy())
        #expect(try device.perform(.grow(4 << 20)).applied == false)
        // One launch and kill first: what the runtime allocates once a process on this path
        // (type metadata, caches made on first use) is charged to whichever scope is open then,
        // and a test running beside this one may or may not have paid it already (a parallel
        // run once measured 16,720 B less at the second launch than at the first).
        try device.open("feed")
        device.kill(device.installed("feed")!, reason: .lmkdMediumPressure)
        try device.open("feed")
        let before = device.installed("feed")!.bytes
        // 16 MiB and 20 MiB are both jemalloc size classes: the ledger moves by the declared bytes.
        #expect(try device.perform(.grow(4 << 20)).applied)
        #expect(device.installed("feed")!.bytes - before == 4 << 20)
        #expect(app.appDataGrowth == 4 << 20)
        device.kill(device.installed("feed")!, reason: .lmkdMediumPressure)
        #expect(app.appDataGrowth == 0)
        try device.open("feed")
        #expect(device.installed("feed")!.bytes == before)
    }
}
