/// Android's ranking of processes (`oom_score_adj`, set by ActivityManager's `OomAdjuster`
/// from `ProcessList`'s constants) and lmkd's choice of victims, for one release.
/// `docs/fidelity.md` lists each rule with its test.
public struct LowMemoryKillerRules: Sendable, Equatable {
    /// The Android release whose rules these are.
    public let release: AndroidRelease

    /// The rules of an Android release.
    public init(_ release: AndroidRelease) { self.release = release }

    // MARK: oom_score_adj (ProcessList, Android 10 and 14 alike)

    /// `FOREGROUND_APP_ADJ`.
    public static let foregroundAdj = 0
    /// `PERCEPTIBLE_APP_ADJ`: a foreground service the user notices (playback, location).
    public static let perceptibleAdj = 200
    /// `SERVICE_ADJ`: a started service (a background task).
    public static let serviceAdj = 500
    /// `PREVIOUS_APP_ADJ`: the app the user was in before the current one.
    public static let previousAppAdj = 700
    /// `CACHED_APP_MIN_ADJ` ... `CACHED_APP_MAX_ADJ`.
    public static let cachedAdjRange = 900...999
    /// `CACHED_APP_IMPORTANCE_LEVELS`: each cached slot is this many x 2 wide.
    public static let cachedImportanceLevels = 5
    /// Seconds the previous app keeps `PREVIOUS_APP_ADJ` on Android 14 (`max_previous_time`,
    /// 60 s; after it the process is "previous-expired" and ranked with the cached apps, as
    /// one Android 14 tree read does; another leaves its adj alone: docs/fidelity.md).
    /// Android 10 has no such limit.
    public static let previousAppSeconds = 60.0
    /// No process (lmkd's `OOM_SCORE_ADJ_MAX` is 1000).
    public static let notRunningAdj = 1000
    /// `PERCEPTIBLE_RECENT_FOREGROUND_APP_ADJ`: a foreground service whose app left the front
    /// less than ``topToForegroundServiceGraceSeconds`` ago ("fg-service-act").
    public static let perceptibleRecentForegroundAdj = 50
    /// `TOP_TO_FGS_GRACE_DURATION` (`ActivityManagerConstants`, 15 s in Android 10 and 14): how
    /// long after leaving the front (`lastTopTime`) a process with a foreground service keeps
    /// ``perceptibleRecentForegroundAdj`` (`computeOomAdjLocked`; Android 14 `computeOomAdjLSP`);
    /// the next update after it gives ``perceptibleAdj``.
    public static let topToForegroundServiceGraceSeconds = 15.0
    /// `VISIBLE_APP_ADJ`: a process the app in front binds.
    public static let visibleAdj = 100
    /// `SERVICE_B_ADJ`: a started service past the first third of them in LRU order.
    public static let serviceBAdj = 800
    /// How long a started service stays ahead of the cached processes after it last saw
    /// activity: `MAX_SERVICE_INACTIVITY`, 30 minutes (`ActivityManagerConstants`); PressureLab
    /// takes the app's last use as the service's last activity (an estimate).
    public static let maxServiceInactivitySeconds = 30.0 * 60

    /// The `oom_score_adj` of a process bound by its app (a renderer, a GPU process), from its
    /// client's: `OomAdjuster.computeOomAdjLocked` (Android 10) for a binding without
    /// `BIND_ABOVE_CLIENT`, `BIND_IMPORTANT`, `BIND_NOT_VISIBLE` or `BIND_NOT_PERCEPTIBLE`: the
    /// client's adj when it is `PERCEPTIBLE_APP_ADJ` or more, else max(client's, `VISIBLE_APP_ADJ`).
    /// A cached client's adj is its cached slot's, which the bound process takes.
    public static func boundProcessAdj(clientAdj: Int) -> Int {
        clientAdj >= perceptibleAdj ? clientAdj : max(clientAdj, visibleAdj)
    }

    /// The `oom_score_adj` of the started-service processes that run, most recently used app
    /// first: `SERVICE_ADJ` for the first third of them and `SERVICE_B_ADJ` for the rest
    /// (`computeOomAdjLocked`: `serviceb = mNewNumAServiceProcs > mNumServiceProcs / 3`, the
    /// count of the update before; here this one's). Memory-based demotion (`serviceHighRam`) is
    /// not modelled.
    public static func serviceAdjs(count: Int) -> [Int] {
        let aServices = min(count, count / 3 + 1)
        return (0..<count).map { $0 < aServices ? serviceAdj : serviceBAdj }
    }

    /// The `oom_score_adj` of cached processes holding activities, most recently used first:
    /// `OomAdjuster` (Android 10 `updateOomAdjLocked`; later `assignCachedAdjIfNecessary`)
    /// divides the cached range into (999 - 900 + 1) / 2 / `CACHED_APP_IMPORTANCE_LEVELS` = 10
    /// slots, `cachedFactor` = max(1, ceil(count / 10)) processes a slot, starting at 900 and
    /// stepping by 10 up to 999 (`stepCached` starts at -1 and steps before each process).
    ///
    /// - Complexity: O(`count`).
    public static func cachedAdjs(count: Int) -> [Int] { slotAdjs(count: count, first: cachedAdjRange.lowerBound) }

    /// The `oom_score_adj` of processes ActivityManager ranks in the empty slots, most recently
    /// used first: those whose adj is still unknown after `computeOomAdjLocked` and whose state
    /// is neither `CACHED_ACTIVITY` nor `CACHED_ACTIVITY_CLIENT` (Android 10 `updateOomAdjLocked`,
    /// its first loop's default case, "cch-started-services" for a started service past
    /// `MAX_SERVICE_INACTIVITY`). The empty slots sit between the cached ones: `curEmptyAdj`
    /// starts at 900 + `CACHED_APP_IMPORTANCE_LEVELS` = 905 and steps by 10 (`emptyFactor`
    /// processes a slot, as ``cachedAdjs(count:)`` counts them).
    ///
    /// - Complexity: O(`count`).
    public static func emptySlotAdjs(count: Int) -> [Int] {
        slotAdjs(count: count, first: cachedAdjRange.lowerBound + cachedImportanceLevels)
    }

    /// Slots from `first`, stepping by 2 x `CACHED_APP_IMPORTANCE_LEVELS` up to 999, max(1,
    /// ceil(count / 10)) processes a slot (the step counter starts at -1 and steps before each).
    static func slotAdjs(count: Int, first: Int) -> [Int] {
        let slots = (cachedAdjRange.upperBound - cachedAdjRange.lowerBound + 1) / 2 / cachedImportanceLevels
        let factor = max(1, count > 0 ? (count + slots - 1) / slots : 1)
        var current = first
        var next = min(current + cachedImportanceLevels * 2, cachedAdjRange.upperBound)
        var step = -1
        var adjs: [Int] = []
        adjs.reserveCapacity(count)
        for _ in 0..<count {
            if current != next {
                step += 1
                if step >= factor {
                    step = 0
                    current = next
                    next = min(next + cachedImportanceLevels * 2, cachedAdjRange.upperBound)
                }
            }
            adjs.append(current)
        }
        return adjs
    }

    // MARK: lmkd

    /// The lowest `oom_score_adj` lmkd may kill at `level` (nil: no kill), with the reason.
    ///
    /// - Android 10 (`lmkd.c`, `mp_event_common`, `level_oomadj`): a medium-pressure event
    ///   kills at `ro.lmk.medium` = 800 and up, a critical one at `ro.lmk.critical` = 0 and up.
    ///   PressureLab's warning level stands for PSI's medium (`some` 100 ms a second on
    ///   Android 10), critical for PSI's critical (`full` 70 ms).
    /// - Android 14 (`lmkd.cpp`, `mp_event_psi`): a critical PSI event is `NOT_RESPONDING`,
    ///   min 0; below the high watermark with swap low it is `LOW_MEM_AND_SWAP`,
    ///   `PERCEPTIBLE_APP_ADJ + 1` = 201. With swap that still has room and no thrashing
    ///   (refaults, not modelled) a medium event kills nobody. `swapLow`: the device cannot
    ///   compress more (no candidate left); without a compressor there is no swap, and lmkd's
    ///   `swap_is_low` is false (free 0 < 0 x 10%). `NOT_RESPONDING` answers the critical PSI
    ///   event itself (`level == CRITICAL && events != 0`); a further kill of the same episode,
    ///   decided after the first on memory read again (`afterKill`), is `PRESSURE_AFTER_KILL`
    ///   (min 0) while memory is still critically short.
    public func minimumAdj(level: PressureLevel, swapLow: Bool, afterKill: Bool = false) -> (adj: Int, reason: KillReason)? {
        switch (release, level) {
        case (_, .normal): return nil
        case (.android14, .critical): return (0, afterKill ? .pressureAfterKill : .notResponding)
        case (.android14, .warning): return swapLow ? (Self.perceptibleAdj + 1, .lowMemoryAndSwap) : nil
        case (.android10, .critical): return (0, .lmkdCriticalPressure)
        case (.android10, .warning): return (800, .lmkdMediumPressure)
        }
    }

    /// Whether lmkd's swap is low: Android 14 `mp_event_psi`: `get_free_swap` (the smaller of
    /// SwapFree and `easy_available`, free pages plus the inactive file cache) under
    /// `swap_free_low_percentage` (10%) of SwapTotal, every swap device counted (zram and a swap
    /// file alike, `/proc/meminfo`); no swap, never low. Android 10's `mp_event_common` tests
    /// SwapFree alone against the same 10%. When the profile gives no zram size, the pool is
    /// read as low when it can take no more (every candidate is in it: an estimate).
    public func swapIsLow(_ device: DeviceSnapshot) -> Bool {
        guard device.swapTotalBytes > 0 else { return device.hasCompressor && device.compressorFull }
        let free: Int
        switch release {
        case .android10: free = device.swapFreeBytes
        case .android14: free = min(device.swapFreeBytes, device.easyAvailableBytes)
        }
        return free.multipliedSaturating(by: 100) < device.swapTotalBytes.multipliedSaturating(by: Self.swapFreeLowPercent)
    }

    /// `swap_free_low_percentage` (`ro.lmk.swap_free_low_percentage`, `DEF_LOW_SWAP` 10).
    public static let swapFreeLowPercent = 10

    // MARK: CachedAppOptimizer (Android 14)

    /// Free swap under this percentage of swap downgrades a full compaction to a partial one
    /// (`COMPACT_DOWNGRADE_FREE_SWAP_THRESHOLD`, 0.2), and a partial one to none, file
    /// compaction being off (`ENABLE_FILE_COMPACT` false: `resolveCompactionProfile`).
    public static let compactionDowngradeFreeSwapPercent = 20

    /// Whether ActivityManager compacts cached apps (`CachedAppOptimizer`, after freezing
    /// them): Android 14; Android 10's `AppCompactor` is off by default
    /// (`DEFAULT_USE_COMPACTION` false, docs/fidelity.md).
    public var compactsCachedApps: Bool {
        switch release {
        case .android10: return false
        case .android14: return true
        }
    }
    /// A full compaction is skipped for less anonymous memory than this
    /// (`DEFAULT_COMPACT_FULL_RSS_THROTTLE_KB`, 12,000 KB; `shouldRssThrottleCompaction`)...
    public static let compactionMinimumAnonBytes = 12_000 * 1024
    /// ...or when the app's figures moved by at most this since its last compaction
    /// (`DEFAULT_COMPACT_FULL_DELTA_RSS_THROTTLE_KB`, 8,000 KB)...
    public static let compactionMinimumDeltaBytes = 8_000 * 1024
    /// ...or within this long of its last full compaction (`DEFAULT_COMPACT_THROTTLE_4`,
    /// 10,000 ms; `shouldTimeThrottleCompaction`).
    public static let compactionThrottleSeconds = 10.0

    /// Whether free swap is so low that no compaction runs (see
    /// ``compactionDowngradeFreeSwapPercent``; `getFreeSwapPercent` counts every swap device).
    public func compactionDowngradedToNone(_ device: DeviceSnapshot) -> Bool {
        device.swapTotalBytes > 0
            && device.swapFreeBytes.multipliedSaturating(by: 100)
                < device.swapTotalBytes.multipliedSaturating(by: Self.compactionDowngradeFreeSwapPercent)
    }

    /// Whether `CachedAppOptimizer`'s throttles skip a full compaction of `app` now
    /// (`MemCompactionHandler`, in order: its adj at perceptible or below, the time since its
    /// last full compaction, its anonymous memory, and how much its figures moved since).
    public func throttlesFullCompaction(of app: AppSnapshot, now: Double) -> Bool {
        if app.oomScoreAdj <= Self.perceptibleAdj { return true }
        if let last = app.lastCompaction, now - last.time < Self.compactionThrottleSeconds { return true }
        if app.anonResidentBytes < Self.compactionMinimumAnonBytes { return true }
        if let last = app.lastCompaction {
            let moved = abs(app.anonResidentBytes - last.anonBytes) + abs(app.cleanResidentBytes - last.fileBytes)
                + abs(app.swappedBytes - last.swapBytes)
            if moved <= Self.compactionMinimumDeltaBytes { return true }
        }
        return false
    }

    /// Whether the kills after the first of an episode keep the triggering event's level.
    ///
    /// - Android 10 (`lmkd.c`, `mainloop`): after a vmpressure/PSI event lmkd polls the same
    ///   handler every `PSI_POLL_PERIOD_MS` (10 ms) for `PSI_WINDOW_SIZE_MS` (1 s) with the
    ///   event's level (`data`); each call (`mp_event_common`) reads `/proc/meminfo` again and
    ///   returns without a kill once free pages reach `low_pressure_mem.max_nr_free_pages`.
    ///   PressureLab stands that watermark in with the warning threshold
    ///   (``DeviceSnapshot/lowPressureUsedBytes``), where its measured pressure first rises.
    /// - Android 14 (`lmkd.cpp`, `mp_event_psi`): every call decides its reason afresh from
    ///   memory read again (``minimumAdj(level:swapLow:afterKill:)``).
    public var holdsEventLevel: Bool {
        switch release {
        case .android10: return true
        case .android14: return false
        }
    }

    /// Whether lmkd picks the heaviest process of an `oom_score_adj` rather than the least
    /// recently slotted one: `ro.lmk.kill_heaviest_task` defaults to false (both releases);
    /// Android 14's `find_and_kill_process` takes the heaviest once the scan reaches
    /// `PERCEPTIBLE_APP_ADJ` (200) or below.
    public func killsHeaviest(atAdj adj: Int) -> Bool {
        switch release {
        case .android10: return false
        case .android14: return adj <= Self.perceptibleAdj
        }
    }
}

// MARK: - ActivityManager's cached-process limit

extension LowMemoryKillerRules {
    /// An app's `oom_score_adj` as `OomAdjuster` sets it (Android 10's rules): foreground 0;
    /// running in the background, perceptible (200) for audio and location, or 50 while it left
    /// the front less than ``topToForegroundServiceGraceSeconds`` ago (`recentlyInFront`), a
    /// service (500) for a task; the previous app 700; cached apps by `cachedRank` in
    /// `OomAdjuster`'s slots (see ``cachedAdjs(count:)``); 1000 without a process.
    public static func oomScoreAdj(isForeground: Bool, runningInBackground mode: BackgroundMode?, cachedRank: Int?,
                                   isPrevious: Bool = false, cachedCount: Int? = nil, recentlyInFront: Bool = false) -> Int {
        if isForeground { return foregroundAdj }
        switch mode {
        case .audio, .location: return recentlyInFront ? perceptibleRecentForegroundAdj : perceptibleAdj
        case .task: return serviceAdj
        case nil: break
        }
        if isPrevious { return previousAppAdj }
        guard let rank = cachedRank else { return notRunningAdj }
        let adjs = cachedAdjs(count: max(cachedCount ?? (rank + 1), rank + 1))
        return adjs[rank]
    }

    /// Cached apps ActivityManager keeps: `CUR_MAX_CACHED_PROCESSES` (32, AOSP's
    /// `DEFAULT_MAX_CACHED_PROCESSES`) less `computeEmptyProcessLimit(32)` = 16 kept for
    /// empty processes (`OomAdjuster.updateOomAdjLocked`, Android 10;
    /// `updateAndTrimProcessLocked` later): 16. ActivityManager's constant, read by lmk's
    /// policy and the trim walk alike.
    public static let cachedProcessLimit = 32 - 32 / 2

    /// An entry of ActivityManager's walk of cached processes: an app or a secondary process.
    struct CachedEntry {
        var name: String
        var isApp: Bool
    }

    /// The processes the cached limit counts, most recently used first, as `updateOomAdjLocked`
    /// walks its LRU list: each cached app (not in front, not the previous app, not running in
    /// the background, its adj in the cached range), followed by its cached activity clients
    /// (``ProcessSnapshot/isCachedActivityClient``), which `updateLruProcessLocked` slots just
    /// below their client (an estimate of their place: the LRU list itself is not modelled).
    static func cachedWalk(_ apps: [AppSnapshot], processes: [ProcessSnapshot]) -> [CachedEntry] {
        let cached = apps.filter { $0.state.hasProcess && !$0.isForeground && !$0.isPrevious && $0.runningBackgroundMode == nil
            && $0.oomScoreAdj >= Self.cachedAdjRange.lowerBound && $0.oomScoreAdj < Self.notRunningAdj }
            .sorted { $0.useOrder > $1.useOrder }
        var clients: [String: [ProcessSnapshot]] = [:]
        for process in processes where process.isCachedActivityClient { clients[process.app, default: []].append(process) }
        var walk: [CachedEntry] = []
        for app in cached {
            walk.append(CachedEntry(name: app.name, isApp: true))
            for process in clients[app.name] ?? [] { walk.append(CachedEntry(name: process.name, isApp: false)) }
        }
        return walk
    }
}
