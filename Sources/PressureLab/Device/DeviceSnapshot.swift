/// One app as a termination policy sees it.
public struct AppSnapshot: Sendable, Equatable {
    /// The app's name.
    public var name: String
    /// Its life-cycle state.
    public var state: AppState
    /// Whether it is the app in front.
    public var isForeground: Bool
    /// Whether its memory is in the freezer's file now.
    public var isFrozen: Bool
    /// Measured bytes the app holds: resident, plus its compressed memory at its
    /// compressed size (what it takes of the device's memory).
    public var bytes: Int
    /// Simulated time of its last use (seconds).
    public var lastUsed: Double
    /// Order of last use: higher is more recent (breaks ties in time).
    public var useOrder: UInt64
    /// Its jetsam band.
    public var band: JetsamBand
    /// Its Android `oom_score_adj`.
    public var oomScoreAdj: Int
    /// Whether its memory is in the in-RAM compressed pool (its bytes are its compressed footprint).
    public var isCompressed: Bool
    /// XNU's `phys_footprint`: resident bytes plus compressed memory at its uncompressed
    /// size (`osfmk/kern/task.c`, `init_task_ledgers`: `internal_compressed` counts whole
    /// pages); what per-process limits see.
    public var footprintBytes: Int
    /// When it last entered its band (higher is later): XNU appends a process at the tail of
    /// its band's list on every priority update and kills from the head
    /// (`memstat_update_priority_locked`, `memorystatus_kill_top_process`).
    public var bandOrder: UInt64
    /// When its `oom_score_adj` was last set (higher is later): lmkd slots a process at the
    /// head of its adj's list and takes the tail (`lmkd.c`, `adjslot_insert`, `proc_adj_lru`).
    public var adjOrder: UInt64
    /// Whether XNU's `P_MEMSTAT_FROZEN` is set: frozen since its launch, thawed or not.
    public var hasBeenFrozen: Bool
    /// Whether it was thawed since it was last frozen (`P_MEMSTAT_REFREEZE_ELIGIBLE`).
    public var isRefreezeEligible: Bool
    /// The background mode it runs in now, if it runs in the background.
    public var runningBackgroundMode: BackgroundMode?
    /// Whether it is Android's previous app (the one in front before the current one).
    public var isPrevious: Bool
    /// The trim level ActivityManager last stored for it (`ProcessRecord.trimMemoryLevel`; 0: none).
    public var trimLevel: Int
    /// Whether its interface was hidden and `TRIM_MEMORY_UI_HIDDEN` is still due (`hasPendingUiClean`).
    public var isUIHiddenPending: Bool
    /// Since when it is cached (`oom_score_adj` 900 and up), device time; nil when it is not.
    public var cachedSince: Double?
    /// Its anonymous memory resident now (measured bytes not in the compressed pool), its clean
    /// file pages resident, and its pages swapped out (in the pool, at their uncompressed size,
    /// and in the swap file): the figures `CachedAppOptimizer` reads (`getRss`).
    public var anonResidentBytes = 0
    /// (Its clean file pages resident.)
    public var cleanResidentBytes = 0
    /// (Its pages swapped out.)
    public var swappedBytes = 0
    /// Its last compaction (Android 14's `CachedAppOptimizer`), if any.
    public var lastCompaction: CompactionRecord?

    /// A snapshot with each field given (policies' tests).
    public init(name: String, state: AppState, isForeground: Bool, isFrozen: Bool, bytes: Int, lastUsed: Double,
                useOrder: UInt64, band: JetsamBand, oomScoreAdj: Int, isCompressed: Bool = false, footprintBytes: Int? = nil,
                bandOrder: UInt64? = nil, adjOrder: UInt64? = nil, hasBeenFrozen: Bool? = nil, isRefreezeEligible: Bool = false,
                runningBackgroundMode: BackgroundMode? = nil, isPrevious: Bool = false, trimLevel: Int = 0,
                isUIHiddenPending: Bool = false, cachedSince: Double? = nil) {
        self.isCompressed = isCompressed
        self.name = name
        self.state = state
        self.isForeground = isForeground
        self.isFrozen = isFrozen
        self.bytes = bytes
        self.lastUsed = lastUsed
        self.useOrder = useOrder
        self.band = band
        self.oomScoreAdj = oomScoreAdj
        self.footprintBytes = footprintBytes ?? bytes
        self.bandOrder = bandOrder ?? useOrder
        self.adjOrder = adjOrder ?? useOrder
        self.hasBeenFrozen = hasBeenFrozen ?? isFrozen
        self.isRefreezeEligible = isRefreezeEligible
        self.runningBackgroundMode = runningBackgroundMode
        self.isPrevious = isPrevious
        self.trimLevel = trimLevel
        self.isUIHiddenPending = isUIHiddenPending
        self.cachedSince = cachedSince
    }

    /// Whether the process exists and is not the foreground app.
    public var isKillableInBackground: Bool { state.hasProcess && !isForeground }
}

/// The freezer as a policy sees it (XNU's freezer state, ``FreezerRules``).
public struct FreezerSnapshot: Sendable, Equatable {
    /// Bytes it may still write in this window (may be below 0 after an overshoot).
    public var budgetBytes: Int
    /// Processes frozen now (`memorystatus_frozen_count`: frozen, thawed or not, still alive).
    public var frozenCount: Int
    /// Processes thawed since they were frozen (`memorystatus_refreeze_eligible_count`).
    public var refreezeEligibleCount: Int
    /// Whether its thread may run now (its next run time has come).
    public var mayRunNow: Bool

    /// The freezer's state with each field given.
    public init(budgetBytes: Int, frozenCount: Int = 0, refreezeEligibleCount: Int = 0, mayRunNow: Bool = true) {
        self.budgetBytes = budgetBytes
        self.frozenCount = frozenCount
        self.refreezeEligibleCount = refreezeEligibleCount
        self.mayRunNow = mayRunNow
    }
}

/// A secondary process (Android) as a termination policy sees it.
public struct ProcessSnapshot: Sendable, Equatable {
    /// `APP:PROCESS`.
    public var name: String
    /// The app it belongs to.
    public var app: String
    /// How ActivityManager ranks it.
    public var kind: ProcessKind
    /// Measured bytes it holds.
    public var bytes: Int
    /// Its `oom_score_adj`, and when it was last set (lmkd's slot order; higher is later).
    public var oomScoreAdj: Int
    /// (When its adj was last set.)
    public var adjOrder: UInt64
    /// Its app's use order (higher is more recent): where it sits in ActivityManager's LRU list.
    public var useOrder: UInt64
    /// Whether ActivityManager counts it against the empty-process limit
    /// (`PROCESS_STATE_CACHED_EMPTY`): a cached process none of whose clients has activities.
    /// Every modelled app keeps its activity while it lives, so none is: see
    /// ``isCachedActivityClient``.
    public var isEmpty: Bool
    /// Whether ActivityManager counts it against the cached limit with the apps: a bound or
    /// isolated process whose client is cached and has activities ends `computeOomAdjLocked` as
    /// `PROCESS_STATE_CACHED_ACTIVITY_CLIENT` ("cch-client-act", `hasClientActivities`, set by
    /// `ActiveServices.updateServiceClientActivitiesLocked`), which `updateOomAdjLocked` counts in
    /// `numCached` beside `PROCESS_STATE_CACHED_ACTIVITY` (Android 10, `OomAdjuster.java`).
    public var isCachedActivityClient: Bool

    /// A snapshot with each field given.
    public init(name: String, app: String, kind: ProcessKind, bytes: Int, oomScoreAdj: Int, adjOrder: UInt64,
                useOrder: UInt64, isEmpty: Bool, isCachedActivityClient: Bool = false) {
        self.isCachedActivityClient = isCachedActivityClient
        self.name = name
        self.app = app
        self.kind = kind
        self.bytes = bytes
        self.oomScoreAdj = oomScoreAdj
        self.adjOrder = adjOrder
        self.useOrder = useOrder
        self.isEmpty = isEmpty
    }
}

/// The device as a termination policy sees it.
public struct DeviceSnapshot: Sendable {
    /// Every installed app.
    public var apps: [AppSnapshot]
    /// Memory in use now, bytes (compressed memory at its compressed size).
    public var usedBytes: Int
    /// What the kernel's OOM killer scales `oom_score_adj` by (`totalpages`), bytes: RAM and
    /// swap on a device with the kernel's books, the budget otherwise.
    public var oomTotalBytes: Int?
    /// What lmkd reads when it reads minfree levels (``LmkdMinfreeReading``), on a device with the
    /// kernel's books whose profile gives the table; nil otherwise.
    public var lmkdMinfree: LmkdMinfreeReading?
    /// Memory all apps share, bytes (with the kernel's books, what the books leave the apps'
    /// anonymous memory above the min watermark now: ``Device/budgetBytes``).
    public var budgetBytes: Int
    /// The pressure level now.
    public var level: PressureLevel
    /// Bytes to free to get below the warning clear threshold (and the budget).
    public var bytesToFree: Int
    /// Bytes the freezer may still write.
    public var freezeBudgetBytes: Int
    /// Whether running apps were warned in this round already.
    public var runningAppsWarned: Bool
    /// The release whose rules apply.
    public var release: OSRelease
    /// The memory system whose rules apply (``release``'s, ``OSRelease/memorySystem``): the one
    /// route by which a policy reads jetsam's, the freezer's, lmkd's and the trim levels' rules.
    public var system: any MemorySystem { release.memorySystem }
    /// The device's physical memory, bytes (its size class picks XNU's thresholds).
    public var memoryBytes: Int
    /// Device time, seconds.
    public var now: Double
    /// Bytes an allocation waits for (the device ran out in the middle of a step), or 0.
    public var emergencyBytes: Int
    /// Whether the device has an in-RAM compressor (zram on Android), and whether it can
    /// compress no more (every candidate is in the pool: lmkd's "swap is low").
    public var hasCompressor: Bool
    /// Whether the compressor can take no more.
    public var compressorFull: Bool
    /// The freezer's state.
    public var freezer: FreezerSnapshot
    /// Swap as `/proc/meminfo` counts it (SwapTotal, SwapFree): the zram device (its size, less
    /// the uncompressed bytes it holds) and the swap file (its size, less what it holds); 0 when
    /// the device has neither, or zram with no size given (``DeviceModel/zramBytes``).
    public var swapTotalBytes = 0
    /// (Swap free now.)
    public var swapFreeBytes = 0
    /// Memory the kernel could have at once: available (within the budget) plus clean file
    /// pages (lmkd's `easy_available`: free pages plus the inactive file cache).
    public var easyAvailableBytes = 0
    /// Android 10's ActivityManager: the memory factor it kept last time and the process count
    /// then (`mLastMemoryLevel`, `mLastNumProcesses`), and whether a process died since by
    /// something other than ActivityManager (`mAllowLowerMemLevel`, set in `appDiedLocked`).
    public var trimMemFactor = PressureLevel.normal
    /// Processes counted for the trim level (`numTrimming`).
    public var trimProcessCount = 0
    /// Whether the memory factor may drop (`mAllowLowerMemLevel`).
    public var allowLowerMemLevel = false
    /// When the launcher was last in front (a use order: higher is more recent); nil: never.
    public var launcherUseOrder: UInt64?
    /// Processes the policy killed since memory last ran short (this evaluation): lmkd's kills
    /// after the first of an episode are recorded as `pressure-after-kill` on Android 14.
    public var killsInThisEvent = 0
    /// Android: the apps' secondary processes that run now (each app's main process is its
    /// entry in ``apps``, its ``AppSnapshot/bytes`` its own).
    public var processes: [ProcessSnapshot] = []
    /// The level of the reading that began this episode (``level`` is memory read again after
    /// each kill): Android 10's lmkd keeps the triggering event's level for its polls.
    public var eventLevel = PressureLevel.normal
    /// Memory in use at which measured pressure first rises above normal (the warning
    /// threshold): the stand-in for lmkd's low-pressure watermark (Android 10
    /// `low_pressure_mem.max_nr_free_pages`, the most free memory seen at a low-pressure event).
    public var lowPressureUsedBytes = Int.max

    /// A snapshot with each field given (policies' tests).
    public init(apps: [AppSnapshot], usedBytes: Int, budgetBytes: Int, level: PressureLevel, bytesToFree: Int,
                freezeBudgetBytes: Int, runningAppsWarned: Bool, release: OSRelease = .iOS12, memoryBytes: Int? = nil,
                now: Double = 0, emergencyBytes: Int = 0, hasCompressor: Bool = false, compressorFull: Bool = false,
                freezer: FreezerSnapshot? = nil) {
        self.apps = apps
        self.usedBytes = usedBytes
        self.budgetBytes = budgetBytes
        self.level = level
        self.bytesToFree = bytesToFree
        self.freezeBudgetBytes = freezeBudgetBytes
        self.runningAppsWarned = runningAppsWarned
        self.release = release
        self.memoryBytes = memoryBytes ?? budgetBytes
        self.now = now
        self.emergencyBytes = emergencyBytes
        self.hasCompressor = hasCompressor
        self.compressorFull = compressorFull
        self.freezer = freezer ?? FreezerSnapshot(budgetBytes: freezeBudgetBytes)
    }

    /// Memory not in use, bytes (XNU's available memory, within the budget).
    public var availableBytes: Int { budgetBytes - usedBytes }

    /// Whether memory is to be reclaimed the way the scenario format's pressure levels ask:
    /// above a level, or over the budget, and not yet down to the warning clear threshold
    /// (or an allocation waits). The policies that are no real system's decide by it.
    public var isAboveClearTarget: Bool {
        emergencyBytes > 0 || ((level > .normal || usedBytes > budgetBytes) && bytesToFree > 0)
    }
}

/// An app's last compaction: when, and its figures after it (anonymous, file and swapped
/// bytes), as `CachedAppOptimizer` keeps them (`mLastCompactTime`, `mRssAfterCompaction`).
public struct CompactionRecord: Sendable, Equatable {
    /// When (device time, seconds).
    public var time: Double
    /// Anonymous memory resident after it, bytes.
    public var anonBytes: Int
    /// File pages resident after it, bytes.
    public var fileBytes: Int
    /// Pages swapped out after it, bytes.
    public var swapBytes: Int

    /// A record with each field given.
    public init(time: Double, anonBytes: Int, fileBytes: Int, swapBytes: Int) {
        (self.time, self.anonBytes, self.fileBytes, self.swapBytes) = (time, anonBytes, fileBytes, swapBytes)
    }
}
