/// What XNU's memorystatus keeps of an app's one process: the `p_memstat_*` fields of its
/// `proc` (`bsd/kern/kern_memorystatus.c`): its jetsam band and place in it, its aging, its
/// freezer state, and its per-process limit and the warning near it.
///
/// Kept for every app on every device (a policy of XNU's family may run on Android as a
/// what-if, ``MemorySystem``); only XNU's code in `Device/Systems/` and the device's freezer,
/// limits and kills write it.
struct MemorystatusEntry {
    /// Its jetsam band now (`p_memstat_effectivepriority`).
    var band: JetsamBand = .idle
    /// When it entered its band: XNU's order within a band (the tail of the band's list).
    var bandOrder: UInt64 = 0
    /// Until when (device time) it ages in the aging band, after asking for idle.
    var agingUntil: Double?
    /// Whether its memory is in the freezer's file now.
    var isFrozen = false
    /// `P_MEMSTAT_FROZEN`: frozen since launch; a thaw keeps it (`memorystatus_on_resume`), a
    /// kill clears it.
    var hasBeenFrozen = false
    /// Thawed since last frozen (`P_MEMSTAT_REFREEZE_ELIGIBLE`).
    var isRefreezeEligible = false
    /// Whether the warning near its limit went out since the limit was last written
    /// (``MemorySystem/enforceProcessLimits(on:)``).
    var warnedNearLimit = false
    /// The limit last written to its ledger, and whether it was the active one (a rewrite
    /// re-arms the warning: ``MemorySystem/enforceProcessLimits(on:)``); nil before the first.
    var ledgerLimit: (bytes: Int, active: Bool)?

    /// What XNU forgets when the process dies: its freezer history (`P_MEMSTAT_FROZEN` and
    /// `P_MEMSTAT_REFREEZE_ELIGIBLE` belong to the `proc`, which is gone). Whether its memory is
    /// in the freezer's file is the device's to clear, with the file.
    mutating func processDied() {
        hasBeenFrozen = false
        isRefreezeEligible = false
    }
}

/// What Android keeps of an app's main process: ActivityManager's `ProcessRecord` (its
/// `oom_score_adj`, since when it is cached, its last compaction, its stored trim level and a
/// pending `TRIM_MEMORY_UI_HIDDEN`), lmkd's slot order, and when ART collects next.
///
/// Kept for every app on every device (`lmk` may run on an iPhone as a what-if,
/// ``MemorySystem``); only Android's code in `Device/Systems/` and the device's trims,
/// collections and kills write it.
struct ActivityManagerRecord {
    /// Its `oom_score_adj` now (`ProcessRecord.setAdj`).
    var oomScoreAdj = LowMemoryKillerRules.notRunningAdj
    /// When its `oom_score_adj` was last set (lmkd's slot order, `adjslot_insert`).
    var adjOrder: UInt64 = 0
    /// Since when it is cached (adj 900 and up).
    var cachedSince: Double?
    /// Its last compaction (Android 14's `CachedAppOptimizer`); a kill forgets it.
    var lastCompaction: CompactionRecord?
    /// When its runtime collects next in the background (``ARTCollectionRules``); nil when
    /// none is due (in front, or no process).
    var nextCollection: Double?
    /// ActivityManager's stored trim level (`ProcessRecord.trimMemoryLevel`).
    var trimLevel = 0
    /// Whether `TRIM_MEMORY_UI_HIDDEN` is due (`hasPendingUiClean`).
    var isUIHiddenPending = false
    /// When it was last sent `onLowMemory` (`ProcessRecord.lastLowMemory`; nil: never).
    var lastLowMemory: Double?
    /// When it last left the front (`ProcessRecord.lastTopTime`, stamped as its process state
    /// leaves `PROCESS_STATE_TOP`; nil: never in front since it started).
    var lastTopTime: Double?

    /// What ActivityManager forgets when the process dies: a new process gets a new
    /// `ProcessRecord`, with no compaction, no stored trim level and no pending UI clean.
    mutating func processDied() {
        lastCompaction = nil
        trimLevel = 0
        isUIHiddenPending = false
        lastLowMemory = nil
        lastTopTime = nil
    }
}
