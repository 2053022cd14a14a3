import Foundation
@testable import PressureLab
import PressureLabHeap
import Testing

/// docs/fidelity.md's Android rows: ActivityManager's `oom_score_adj` and trim levels, lmkd's
/// choice of victims, Android 14's cached-app compaction, each as its source prescribes.
@Suite("Android fidelity: oom_score_adj, lmkd, trim levels, compaction")
struct AndroidFidelityTests {
    static func app(_ name: String, adj: Int, order: UInt64, adjOrder: UInt64? = nil, bytes: Int = 1 << 20,
                    front: Bool = false, previous: Bool = false, trim: Int = 0, uiHidden: Bool = false,
                    cachedSince: Double? = nil, compressed: Bool = false) -> AppSnapshot {
        AppSnapshot(name: name, state: front ? .active : .suspended, isForeground: front, isFrozen: false, bytes: bytes,
                    lastUsed: Double(order), useOrder: order, band: .idle, oomScoreAdj: adj, isCompressed: compressed,
                    adjOrder: adjOrder ?? order, isPrevious: previous, trimLevel: trim, isUIHiddenPending: uiHidden,
                    cachedSince: cachedSince)
    }

    static func snapshot(_ apps: [AppSnapshot], level: PressureLevel, release: OSRelease, bytesToFree: Int = 1,
                         compressor: Bool = false, compressorFull: Bool = false, now: Double = 0) -> DeviceSnapshot {
        DeviceSnapshot(apps: apps, usedBytes: 90, budgetBytes: 100, level: level, bytesToFree: bytesToFree, freezeBudgetBytes: 0,
                       runningAppsWarned: false, release: release, now: now, hasCompressor: compressor,
                       compressorFull: compressorFull)
    }

    @Test("cached slots (OomAdjuster): 10 slots from 900 by 10, ceil(count / 10) apps a slot, most recent first")
    func cachedSlots() {
        #expect(LowMemoryKillerRules.cachedAdjs(count: 6) == [900, 910, 920, 930, 940, 950])
        #expect(LowMemoryKillerRules.cachedAdjs(count: 12) == [900, 900, 910, 910, 920, 920, 930, 930, 940, 940, 950, 950])
        #expect(LowMemoryKillerRules.cachedAdjs(count: 25).last == 980)
        #expect(LowMemoryKillerRules.cachedAdjs(count: 0).isEmpty)
    }

    @Test("the previous app keeps PREVIOUS_APP_ADJ (700): on Android 10 with no time limit, on Android 14 for max_previous_time (60 s)")
    func previousApp() throws {
        for release in [OSRelease.android10, .android14] {
            let apps = try ["a", "b", "c"].map { try LifeCycleTests.app($0) }
            let device = XNUFidelityTests.device(apps, budget: 512 << 20, release: release, termination: LowMemoryKillerPolicy())
            for app in apps.prefix(2) { try device.open(app.name) }
            let a = device.installed("a")!
            #expect(device.oomScoreAdj(of: a) == 700, "\(release)")
            device.idle(seconds: 61)
            #expect(device.oomScoreAdj(of: a) == (release == .android14 ? 900 : 700), "\(release)")
            try device.open("c")
            #expect(device.oomScoreAdj(of: device.installed("b")!) == 700, "\(release)")
            #expect(device.oomScoreAdj(of: a) == 900, "\(release)")
        }
    }

    @Test("lmkd (find_and_kill_process): within an adj the least recently slotted (the tail, proc_adj_lru); Android 14 takes the heaviest at PERCEPTIBLE_APP_ADJ and below")
    func withinAdj() {
        let snapshot = Self.snapshot([Self.app("old-slot", adj: 900, order: 9, adjOrder: 1),
                                      Self.app("new-slot", adj: 900, order: 1, adjOrder: 5, bytes: 50 << 20)],
                                     level: .warning, release: .android10)
        #expect(LowMemoryKillerPolicy().nextAction(snapshot) == .kill("old-slot", .lmkdMediumPressure))
        let perceptible = Self.snapshot([Self.app("light", adj: 200, order: 1, adjOrder: 1),
                                         Self.app("heavy", adj: 200, order: 2, adjOrder: 2, bytes: 50 << 20)],
                                        level: .critical, release: .android14)
        #expect(LowMemoryKillerPolicy().nextAction(perceptible) == .kill("heavy", .notResponding))
        var android10 = perceptible
        android10.release = .android10
        #expect(LowMemoryKillerPolicy().nextAction(android10) == .kill("light", .lmkdCriticalPressure))
    }

    @Test("lmkd Android 14 (mp_event_psi): a medium event kills only with swap low (LOW_MEM_AND_SWAP, min 201); critical is NOT_RESPONDING (min 0)")
    func android14Levels() {
        let apps = [Self.app("previous", adj: 700, order: 2, previous: true), Self.app("cached", adj: 900, order: 1)]
        #expect(LowMemoryKillerPolicy().nextAction(Self.snapshot(apps, level: .warning, release: .android14)) == nil)
        #expect(LowMemoryKillerPolicy().nextAction(Self.snapshot(apps, level: .warning, release: .android14, compressor: true)) == nil)
        let swapLow = Self.snapshot([apps[0]], level: .warning, release: .android14, compressor: true, compressorFull: true)
        #expect(LowMemoryKillerPolicy().nextAction(swapLow) == .kill("previous", .lowMemoryAndSwap))
        let perceptibleOnly = Self.snapshot([Self.app("music", adj: 200, order: 1)], level: .warning, release: .android14,
                                            compressor: true, compressorFull: true)
        #expect(LowMemoryKillerPolicy().nextAction(perceptibleOnly) == nil)
        #expect(LowMemoryKillerPolicy().nextAction(Self.snapshot([apps[0]], level: .critical, release: .android14))
            == .kill("previous", .notResponding))
    }

    @Test("ActivityManager keeps at most 16 cached apps (CUR_MAX_CACHED_PROCESSES 32 less the empty limit 16): the oldest beyond is killed, pressure or not")
    func tooManyCached() {
        let cached = (0..<17).map { Self.app("c\($0)", adj: LowMemoryKillerRules.cachedAdjs(count: 17)[16 - $0], order: UInt64($0)) }
        let snapshot = Self.snapshot(cached, level: .normal, release: .android10, bytesToFree: 0)
        #expect(LowMemoryKillerPolicy().nextAction(snapshot) == .kill("c0", .tooManyCached))
        #expect(LowMemoryKillerPolicy().nextAction(Self.snapshot(Array(cached.dropFirst()), level: .normal, release: .android10,
                                                                 bytesToFree: 0)) == nil)
    }

    @Test("trim levels, Android 10 (updateLowMemStateLocked): UI_HIDDEN at normal; under pressure COMPLETE, MODERATE, BACKGROUND every `factor` cached apps from the most recent, RUNNING_* to the front; only a higher level is sent")
    func trimAndroid10() {
        let rules = TrimMemoryRules(release: .android10)
        let hidden = Self.snapshot([Self.app("front", adj: 0, order: 9, front: true),
                                    Self.app("left", adj: 700, order: 8, previous: true, uiHidden: true)],
                                   level: .normal, release: .android10)
        #expect(rules.notifications(hidden) == [.trimMemory("left", .uiHidden), .storeTrimLevel("left", 0)])
        // 9 cached and a previous app: factor = max(10 / 3, 2 + home + previous) = 4.
        let cached = (0..<9).map { Self.app("c\($0)", adj: 900 + $0 * 10, order: UInt64(20 - $0)) }
        var pressure = Self.snapshot([Self.app("front", adj: 0, order: 30, front: true),
                                      Self.app("prev", adj: 700, order: 29, previous: true)] + cached,
                                     level: .warning, release: .android10)
        let sent = rules.notifications(pressure)
        #expect(sent == [.trimMemory("front", .runningModerate), .trimMemory("prev", .complete), .trimMemory("c0", .complete),
                         .trimMemory("c1", .complete), .trimMemory("c2", .complete), .trimMemory("c3", .moderate),
                         .trimMemory("c4", .moderate), .trimMemory("c5", .moderate), .trimMemory("c6", .moderate),
                         .trimMemory("c7", .background), .trimMemory("c8", .background)])
        // Stored levels as sent: nothing is sent again at the same level, only stored.
        pressure.apps = pressure.apps.map { app in
            var app = app
            if case .trimMemory(_, let level)? = sent.first(where: { if case .trimMemory(app.name, _) = $0 { true } else { false } }) {
                app.trimLevel = level.rawValue
            }
            return app
        }
        #expect(rules.notifications(pressure).allSatisfy { if case .storeTrimLevel = $0 { true } else { false } })
        pressure.level = .critical
        #expect(rules.notifications(pressure).contains(.trimMemory("front", .runningCritical)))
    }

    @Test("trim levels, Android 14 (use_modern_trim): UI_HIDDEN to an app that left the front and is not cached, BACKGROUND once an app is cached, no running levels")
    func trimAndroid14() {
        let rules = TrimMemoryRules(release: .android14)
        let snapshot = Self.snapshot([Self.app("front", adj: 0, order: 9, front: true),
                                      Self.app("prev", adj: 700, order: 8, previous: true, uiHidden: true),
                                      Self.app("cached", adj: 900, order: 7),
                                      Self.app("told", adj: 910, order: 6, trim: TrimLevel.background.rawValue)],
                                     level: .critical, release: .android14)
        #expect(rules.notifications(snapshot) == [.trimMemory("prev", .uiHidden), .trimMemory("cached", .background)])
    }

    @Test("Android 14's CachedAppOptimizer compacts a cached app 10 s after it became cached (freezer debounce, then compaction) into zram; Android 10 does not (use_compaction off)")
    func compaction() throws {
        let cached = Self.app("cached", adj: 900, order: 1, cachedSince: 0)
        #expect(LowMemoryKillerPolicy().nextAction(Self.snapshot([cached], level: .normal, release: .android14, bytesToFree: 0,
                                                                 compressor: true, now: 9)) == nil)
        #expect(LowMemoryKillerPolicy().nextAction(Self.snapshot([cached], level: .normal, release: .android14, bytesToFree: 0,
                                                                 compressor: true, now: 10)) == .compact("cached"))
        #expect(LowMemoryKillerPolicy().nextAction(Self.snapshot([cached], level: .normal, release: .android10, bytesToFree: 0,
                                                                 compressor: true, now: 10)) == nil)
        // On a device: after 10 s in the cache the app's memory is in the pool.
        let apps = try ["a", "b", "c"].map { try LifeCycleTests.app($0) }
        let device = XNUFidelityTests.device(apps, budget: 512 << 20, release: .android14, termination: LowMemoryKillerPolicy(),
                                             compressor: .lz4)
        for app in apps { try device.open(app.name) }
        #expect(!device.installed("a")!.isCompressed)
        device.idle(seconds: 10)
        #expect(device.installed("a")!.isCompressed)
        #expect(!device.installed("b")!.isCompressed)  // the previous app is not cached
    }

    @Test("without lmkd (Fleet's phone), only ActivityManager's limit and the kernel's OOM killer kill: nobody at warning; the most oom_badness points (mm/oom_kill.c) when an allocation finds nothing")
    func kernelOOMKiller() {
        let policy = LowMemoryKillerPolicy(lmkdKills: false)
        let apps = [Self.app("big-previous", adj: 700, order: 2, bytes: 60, previous: true),
                    Self.app("small-cached", adj: 900, order: 1, bytes: 10)]
        #expect(policy.nextAction(Self.snapshot(apps, level: .critical, release: .android10)) == nil)
        var emergency = Self.snapshot(apps, level: .critical, release: .android10)
        emergency.emergencyBytes = 1
        // Points: bytes + adj x budget / 1000 (budget 100: 0 per adj unit): the larger app.
        #expect(policy.nextAction(emergency) == .kill("big-previous", .kernelOOM))
        emergency.budgetBytes = 100_000
        // Budget 100,000: adj adds 70,000 and 90,000 points: the cached app.
        #expect(policy.nextAction(emergency) == .kill("small-cached", .kernelOOM))
    }

    @Test("a swap file on flash (Fleet's configure-flash-swap.sh): under pressure the least recently used suspended app's regions go out, its next launch is hot and reads back what it touches")
    func swapFile() throws {
        let apps = try (0..<4).map { try DeviceTests.app("app\($0)", bitmap: 4 << 20) }
        let perApp = try DeviceTests.appBytes(bitmap: 4 << 20)
        let device = Device(model: .init(budgetBytes: perApp * 100 / 30, release: .android10, swapFileBytes: 64 << 20),
                            termination: LowMemoryKillerPolicy(lmkdKills: false))
        for app in apps { device.install(app) }
        for app in apps { try device.open(app.name) }
        let first = device.installed("app0")!
        #expect(first.swappedBytes > perApp / 2 && first.bytes < perApp / 4)
        #expect(device.metrics.swapOuts >= 1 && device.metrics.kills == 0)
        let before = first.app.runtime.work
        let written = first.swappedBytes
        #expect(try device.open("app0") == .resume)
        #expect(first.swappedBytes == 0)
        #expect((first.app.runtime.work - before).storageReadBytes == written)
    }
}
