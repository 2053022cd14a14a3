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

    /// A snapshot where ActivityManager may take a worse memory factor: a process died by
    /// something other than it since, and the count fell (`mAllowLowerMemLevel`, `mLastNumProcesses`).
    static func allowingWorse(_ snapshot: DeviceSnapshot) -> DeviceSnapshot {
        var snapshot = snapshot
        snapshot.allowLowerMemLevel = true
        snapshot.trimProcessCount = 100
        return snapshot
    }

    @Test("trim levels, Android 10 (updateLowMemStateLocked): UI_HIDDEN at normal; under pressure COMPLETE, MODERATE, BACKGROUND every `factor` processes from the most recent, the running level stored for the front; only a higher level is sent")
    func trimAndroid10() {
        let rules = OSRelease.android10.memorySystem.trimMemory
        let hidden = Self.snapshot([Self.app("front", adj: 0, order: 9, front: true),
                                    Self.app("left", adj: 700, order: 8, previous: true, uiHidden: true)],
                                   level: .normal, release: .android10)
        // Two apps and the launcher: 3 processes.
        #expect(rules.notifications(hidden) == [.storeMemoryFactor(.normal, processCount: 3), .trimMemory("left", .uiHidden),
                                                .storeTrimLevel("left", 0)])
        // 9 cached, a previous app and the launcher (never in front here: the oldest):
        // numTrimming 11, factor = max(11 / 3, 2 + home + previous) = 4.
        let cached = (0..<9).map { Self.app("c\($0)", adj: 900 + $0 * 10, order: UInt64(20 - $0)) }
        var pressure = Self.allowingWorse(Self.snapshot([Self.app("front", adj: 0, order: 30, front: true),
                                                         Self.app("prev", adj: 700, order: 29, previous: true)] + cached,
                                                        level: .warning, release: .android10))
        let sent = rules.notifications(pressure)
        #expect(sent == [.storeMemoryFactor(.warning, processCount: 12),
                         .trimMemory("front", .runningModerate), .storeTrimLevel("front", TrimLevel.runningModerate.rawValue),
                         .trimMemory("prev", .complete), .trimMemory("c0", .complete),
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
        pressure.trimMemFactor = .warning
        #expect(rules.notifications(pressure).allSatisfy {
            switch $0 {
            case .storeTrimLevel, .storeMemoryFactor: true
            default: false
            }
        })
        pressure.level = .critical
        #expect(rules.notifications(pressure).contains(.trimMemory("front", .runningCritical)))
    }

    @Test("Android 10's trim walk (ActivityManagerService.updateLowMemStateLocked): the launcher is a process at HOME, counted in numTrimming and taking its step in the LRU walk")
    func trimWalkCountsTheLauncher() {
        let rules = OSRelease.android10.memorySystem.trimMemory
        // LRU, most recent first: F in front, the launcher (F was opened from Home), A the
        // previous app, C1..C6 cached. numTrimming = launcher + A + 6 = 8; factor = max(8 / 3, 4) = 4:
        // COMPLETE to the launcher, A, C1 and C2; MODERATE to C3..C6.
        let cached = (1...6).map { Self.app("c\($0)", adj: 900 + $0 * 10, order: UInt64(10 - $0)) }
        var snapshot = Self.allowingWorse(Self.snapshot([Self.app("f", adj: 0, order: 20, front: true),
                                                         Self.app("a", adj: 700, order: 15, previous: true)] + cached,
                                                        level: .warning, release: .android10))
        snapshot.launcherUseOrder = 18
        let trims = rules.notifications(snapshot).compactMap { notification -> String? in
            if case .trimMemory(let name, let level) = notification, name != "f" { return "\(name) \(level.rawValue)" }
            return nil
        }
        #expect(trims == ["a 80", "c1 80", "c2 80", "c3 60", "c4 60", "c5 60", "c6 60"])
    }

    @Test("Android 10's memory factor worsens only after a process died by something other than ActivityManager and the process count fell (mAllowLowerMemLevel, mLastNumProcesses)")
    func memoryFactorGate() {
        let rules = OSRelease.android10.memorySystem.trimMemory
        let apps = [Self.app("f", adj: 0, order: 9, front: true), Self.app("c", adj: 900, order: 8)]
        var snapshot = Self.snapshot(apps, level: .warning, release: .android10)
        // Memory rose with no death since: the factor stays normal, nothing is trimmed.
        snapshot.trimProcessCount = 3
        #expect(rules.notifications(snapshot) == [.storeMemoryFactor(.normal, processCount: 3)])
        // An lmkd kill since, but the count did not fall: still normal.
        snapshot.allowLowerMemLevel = true
        #expect(rules.notifications(snapshot).first == .storeMemoryFactor(.normal, processCount: 3))
        // The count fell (4 before, 3 now): the worse factor is taken, and trims follow.
        snapshot.trimProcessCount = 4
        #expect(rules.notifications(snapshot).first == .storeMemoryFactor(.warning, processCount: 3))
        #expect(rules.notifications(snapshot).contains(.trimMemory("c", .complete)))
        // A better factor is always taken.
        snapshot.level = .normal
        snapshot.trimMemFactor = .critical
        snapshot.allowLowerMemLevel = false
        #expect(rules.notifications(snapshot).first == .storeMemoryFactor(.normal, processCount: 3))
    }

    @Test("trim levels, Android 14 (use_modern_trim): UI_HIDDEN to an app that left the front and is not cached, BACKGROUND once an app is cached, no running levels")
    func trimAndroid14() {
        let rules = OSRelease.android14.memorySystem.trimMemory
        let snapshot = Self.snapshot([Self.app("front", adj: 0, order: 9, front: true),
                                      Self.app("prev", adj: 700, order: 8, previous: true, uiHidden: true),
                                      Self.app("cached", adj: 900, order: 7),
                                      Self.app("told", adj: 910, order: 6, trim: TrimLevel.background.rawValue)],
                                     level: .critical, release: .android14)
        #expect(rules.notifications(snapshot) == [.trimMemory("prev", .uiHidden), .trimMemory("cached", .background)])
    }

    @Test("Android 14's CachedAppOptimizer compacts a cached app 10 s after it became cached (freezer debounce, then compaction) into zram; Android 10 does not (use_compaction off)")
    func compaction() throws {
        var cached = Self.app("cached", adj: 900, order: 1, bytes: 40 << 20, cachedSince: 0)
        cached.anonResidentBytes = 40 << 20
        #expect(LowMemoryKillerPolicy().nextAction(Self.snapshot([cached], level: .normal, release: .android14, bytesToFree: 0,
                                                                 compressor: true, now: 9)) == nil)
        #expect(LowMemoryKillerPolicy().nextAction(Self.snapshot([cached], level: .normal, release: .android14, bytesToFree: 0,
                                                                 compressor: true, now: 10)) == .compact("cached"))
        #expect(LowMemoryKillerPolicy().nextAction(Self.snapshot([cached], level: .normal, release: .android10, bytesToFree: 0,
                                                                 compressor: true, now: 10)) == nil)
        // On a device: after 10 s in the cache an app of more than 12,000 KB is in the pool.
        let apps = try ["a", "b", "c"].map { try XNUFidelityTests.bigApp($0, bytes: 16 << 20) }
        let device = XNUFidelityTests.device(apps, budget: 512 << 20, release: .android14, termination: LowMemoryKillerPolicy(),
                                             compressor: .lz4)
        for app in apps { try device.open(app.name) }
        #expect(!device.installed("a")!.isCompressed)
        device.idle(seconds: 10)
        #expect(device.installed("a")!.isCompressed)
        #expect(!device.installed("b")!.isCompressed)  // the previous app is not cached
    }

    @Test("a zram device holds its size in pages: what is compressed counts at its own size against it (SwapTotal - SwapFree), and an app whose memory no longer fits is not compressed")
    func zramHoldsItsSize() throws {
        let apps = try ["a", "b", "c", "d"].map { try XNUFidelityTests.bigApp($0, bytes: 16 << 20) }
        var model = DeviceModel(budgetBytes: 512 << 20, compressor: .lz4, release: .android14)
        model.zramBytes = 24 << 20
        let device = Device(model: model, termination: LowMemoryKillerPolicy())
        for app in apps { device.install(app) }
        for app in apps { try device.open(app.name) }
        device.idle(seconds: 10)
        // a and b are cached; a (least recently used) goes first and takes 16 MiB and more of the
        // 24 MiB; b's 16 MiB no longer fit what is left.
        let a = device.installed("a")!, b = device.installed("b")!
        #expect(a.isCompressed && !b.isCompressed)
        let used = a.app.runtime.compressedOriginalBytes
        #expect(used >= 16 << 20 && used > (24 << 20) - b.bytes)
        let snapshot = device.deviceSnapshot(used: device.usedBytes, target: 0, warned: false)
        #expect(snapshot.swapTotalBytes == 24 << 20)
        #expect(snapshot.swapFreeBytes == (24 << 20) - used)
    }

    @Test("Android 10: cached apps over ActivityManager's limit are killed before the trim walk (updateOomAdjLocked): none is trimmed, none counted among the processes")
    func trimSkipsCachedOverTheLimit() {
        let rules = OSRelease.android10.memorySystem.trimMemory
        // 18 cached apps beyond the one in front: the limit keeps 16, the two least recently used go.
        let cached = (0..<18).map { Self.app("c\($0)", adj: 900 + min($0, 9) * 10, order: UInt64(40 - $0)) }
        let apps = [Self.app("front", adj: 0, order: 50, front: true)] + cached
        #expect(TrimMemoryRules.killedByCachedLimit(apps) == ["c16", "c17"])
        let sent = rules.notifications(Self.allowingWorse(Self.snapshot(apps, level: .warning, release: .android10)))
        // 19 processes with the launcher, less the two.
        #expect(sent.first == .storeMemoryFactor(.warning, processCount: 18))
        let trimmed = sent.compactMap { notification -> String? in
            if case .trimMemory(let name, _) = notification { return name } else { return nil }
        }
        #expect(trimmed.contains("c15") && !trimmed.contains("c16") && !trimmed.contains("c17"))
    }

    @Test("UI_HIDDEN goes to a background task but not to a foreground service (audio, location: perceptible) nor the app in front (PROCESS_STATE_IMPORTANT_BACKGROUND)")
    func uiHiddenByProcessState() {
        var app = Self.app("a", adj: 500, order: 1)
        app.runningBackgroundMode = .task(seconds: 30)
        #expect(TrimMemoryRules.getsUIHidden(app))
        app.runningBackgroundMode = .audio(seconds: nil)
        #expect(!TrimMemoryRules.getsUIHidden(app))
        app.runningBackgroundMode = .location(seconds: nil)
        #expect(!TrimMemoryRules.getsUIHidden(app))
        #expect(!TrimMemoryRules.getsUIHidden(Self.app("front", adj: 0, order: 2, front: true)))
    }

    @Test("Android 14's compaction throttles (CachedAppOptimizer): under 12,000 KB of anonymous memory, within 10 s of the last full compaction, under 8,000 KB of change since it, or with free swap under 20%: no compaction")
    func compactionThrottles() {
        func app(anon: Int, last: CompactionRecord? = nil) -> AppSnapshot {
            var app = Self.app("a", adj: 900, order: 1, bytes: anon, cachedSince: 0)
            app.anonResidentBytes = anon
            app.lastCompaction = last
            return app
        }
        func decision(_ app: AppSnapshot, now: Double = 20, swap: (total: Int, free: Int) = (0, 0)) -> ReclaimAction? {
            var snapshot = Self.snapshot([app], level: .normal, release: .android14, bytesToFree: 0, compressor: true, now: now)
            (snapshot.swapTotalBytes, snapshot.swapFreeBytes) = swap
            return LowMemoryKillerPolicy().nextAction(snapshot)
        }
        // DEFAULT_COMPACT_FULL_RSS_THROTTLE_KB: 12,000 KB = 12,288,000 bytes.
        #expect(decision(app(anon: 5 << 20)) == nil)
        #expect(decision(app(anon: 12_288_000 - 1)) == nil)
        #expect(decision(app(anon: 12_288_000)) == .compact("a"))
        // DEFAULT_COMPACT_THROTTLE_4: 10 s after a full compaction.
        let last = CompactionRecord(time: 15, anonBytes: 0, fileBytes: 0, swapBytes: 0)
        #expect(decision(app(anon: 40 << 20, last: last), now: 24) == nil)
        #expect(decision(app(anon: 40 << 20, last: last), now: 25) == .compact("a"))
        // DEFAULT_COMPACT_FULL_DELTA_RSS_THROTTLE_KB: the figures moved by at most 8,000 KB since.
        let close = CompactionRecord(time: 0, anonBytes: 40 << 20, fileBytes: 0, swapBytes: 0)
        #expect(decision(app(anon: (40 << 20) + 8_000 * 1024, last: close)) == nil)
        #expect(decision(app(anon: (40 << 20) + 8_000 * 1024 + 1, last: close)) == .compact("a"))
        // COMPACT_DOWNGRADE_FREE_SWAP_THRESHOLD: free swap under 20% -> FULL becomes SOME, then NONE
        // (ENABLE_FILE_COMPACT is false).
        #expect(decision(app(anon: 40 << 20), swap: (1000, 199)) == nil)
        #expect(decision(app(anon: 40 << 20), swap: (1000, 200)) == .compact("a"))
        // DEFAULT_COMPACT_PROC_STATE_THROTTLE: perceptible (200) and above never; the policy only
        // offers cached apps (900 and up), so the rule is seen on the rules alone.
        let rules = OSRelease.android14.memorySystem.lowMemoryKiller
        var perceptible = app(anon: 40 << 20)
        perceptible.oomScoreAdj = 200
        #expect(rules.throttlesFullCompaction(of: perceptible, now: 20))
        perceptible.oomScoreAdj = 201
        #expect(!rules.throttlesFullCompaction(of: perceptible, now: 20))
    }

    @Test("lmkd's swap is low when free swap (zram and a swap file alike) is under 10% of it; Android 14 takes the smaller of free swap and easily available memory (get_free_swap)")
    func swapLowCountsAllSwap() {
        let rules14 = OSRelease.android14.memorySystem.lowMemoryKiller, rules10 = OSRelease.android10.memorySystem.lowMemoryKiller
        var snapshot = Self.snapshot([Self.app("c", adj: 900, order: 1)], level: .warning, release: .android14)
        // No swap at all: never low.
        #expect(!rules14.swapIsLow(snapshot))
        // A 2 GiB swap file with 150 MiB free (under 204.8 MiB): low, for either release.
        (snapshot.swapTotalBytes, snapshot.swapFreeBytes, snapshot.easyAvailableBytes) = (2048 << 20, 150 << 20, 1 << 30)
        #expect(rules14.swapIsLow(snapshot) && rules10.swapIsLow(snapshot))
        #expect(LowMemoryKillerPolicy().nextAction(snapshot) == .kill("c", .lowMemoryAndSwap))
        // Plenty of swap free but 150 MiB easily available: low on Android 14 only.
        (snapshot.swapFreeBytes, snapshot.easyAvailableBytes) = (1800 << 20, 150 << 20)
        #expect(rules14.swapIsLow(snapshot) && !rules10.swapIsLow(snapshot))
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
        // The OOM killer scores every process, a secondary one too: a renderer of the app in
        // front, visible (100), holding 95,000 bytes: 95,000 + 10,000 points, beyond both apps.
        emergency.processes = [ProcessSnapshot(name: "browser:renderer", app: "browser", kind: .isolated, bytes: 95_000,
                                               oomScoreAdj: 100, adjOrder: 0, useOrder: 3, isEmpty: false)]
        #expect(policy.nextAction(emergency) == .kill("browser:renderer", .kernelOOM))
        emergency.processes[0].bytes = 75_000
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

    /// The situation of issue 41's lmkd rule: 1000 MiB shared, F in front (610 MiB), P playing
    /// audio in the background (perceptible, 100 MiB), C1 and C2 cached (120 MiB each): 950 MiB
    /// in use, critical (92% rises, 85% clears; warning 80% / 70%).
    static func lmkdEpisode(_ release: OSRelease) throws -> Device {
        let sizes: [(String, Int, BackgroundMode?)] = [("c2", 120, nil), ("c1", 120, nil), ("p", 100, .audio(seconds: nil)), ("f", 610, nil)]
        let apps = try sizes.map { name, mebibytes, mode -> Application in
            let app = try LifeCycleTests.app(name, mode: mode)
            app.appDataBytes = mebibytes << 20
            return app
        }
        let device = XNUFidelityTests.device(apps, budget: 1000 << 20, release: release, termination: LowMemoryKillerPolicy())
        for app in apps { try device.open(app.name) }
        return device
    }

    @Test("lmkd kills one process per event and reads memory again before the next (Android 10 mp_event_common, Android 14 mp_event_psi): a critical reading does not kill down to the perceptible app once memory is back; Android 10 keeps the event level for its polls")
    func oneKillPerEvent() throws {
        // Android 10: C2 at the critical event; the polls keep the event's level while memory is
        // short: 830 MiB is over the warning threshold (800 MiB), C1 at critical too; 710 MiB is
        // under it: the poll returns without a kill and P (adj 200, within critical's reach) lives.
        let android10 = try Self.lmkdEpisode(.android10)
        #expect(android10.metrics.killOrder == ["c2", "c1"])
        #expect(android10.metrics.killReasons == [.lmkdCriticalPressure, .lmkdCriticalPressure])
        #expect(android10.installed("p")!.app.state.hasProcess)
        // Android 14: C2 is NOT_RESPONDING; then warning with no swap (never low): nobody.
        let android14 = try Self.lmkdEpisode(.android14)
        #expect(android14.metrics.killOrder == ["c2"])
        #expect(android14.metrics.killReasons == [.notResponding])
        // A further kill of the same episode, still critical after the first, is PRESSURE_AFTER_KILL.
        var snapshot = Self.snapshot([Self.app("c", adj: 900, order: 1)], level: .critical, release: .android14)
        snapshot.killsInThisEvent = 1
        #expect(LowMemoryKillerPolicy().nextAction(snapshot) == .kill("c", .pressureAfterKill))
    }

    @Test("Android 14's expired previous app is LAST_ACTIVITY at adj 900 (computeOomAdjLSP \"previous-expired\"): it takes no cached slot and does not count against the cached limit (updateAndTrimProcessLSP counts CACHED_ACTIVITY only)")
    func expiredPreviousIsNotCached() throws {
        // 16 cached apps and a previous one: when the previous expires nobody is killed.
        let apps = try (0...17).map { try LifeCycleTests.app("a\($0)") }
        let device = XNUFidelityTests.device(apps, budget: 1 << 30, release: .android14, termination: LowMemoryKillerPolicy())
        for app in apps { try device.open(app.name) }
        let previous = device.installed("a16")!
        #expect(device.oomScoreAdj(of: previous) == LowMemoryKillerRules.previousAppAdj)
        device.idle(seconds: 61)
        #expect(device.metrics.kills == 0)
        #expect(device.oomScoreAdj(of: previous) == 900)
        // The 16 cached apps keep their slots: the most recent first, two a slot.
        #expect(device.oomScoreAdj(of: device.installed("a15")!) == 900)
        #expect(device.oomScoreAdj(of: device.installed("a0")!) == LowMemoryKillerRules.cachedAdjs(count: 16).last)
        // a17 goes home: it is the previous app now, and a16 a cached one: 17, one too many.
        try device.goHome()
        #expect(device.metrics.killOrder == ["a0"])
        #expect(device.metrics.killReasons == [.tooManyCached])
    }
}
