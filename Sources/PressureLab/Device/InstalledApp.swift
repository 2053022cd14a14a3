extension Device {
    /// An installed app and what the device knows of it.
    ///
    /// Its stored properties are read and written by the device only, on one thread, many
    /// times a step (priorities, snapshots): their dynamic exclusivity checks are off.
    public final class InstalledApp {
        /// The app.
        public let app: Application
        /// Simulated time of its last use (seconds).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
        @exclusivity(unchecked)
#endif
        public internal(set) var lastUsed: Double = 0
        /// Order of last use: higher is more recent.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
        @exclusivity(unchecked)
#endif
        public internal(set) var useOrder: UInt64 = 0
        /// Whether its memory is in the freezer's file now.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
        @exclusivity(unchecked)
#endif
        public internal(set) var isFrozen = false
        /// XNU's `P_MEMSTAT_FROZEN`: frozen since launch; a thaw keeps it
        /// (`memorystatus_on_resume`), a kill clears it.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
        @exclusivity(unchecked)
#endif
        public internal(set) var hasBeenFrozen = false
        /// Thawed since last frozen (`P_MEMSTAT_REFREEZE_ELIGIBLE`).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
        @exclusivity(unchecked)
#endif
        public internal(set) var isRefreezeEligible = false
        /// Its jetsam band now, and when it entered it (see `Device/refreshPriorities()`).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
        @exclusivity(unchecked)
#endif
        public internal(set) var band: JetsamBand = .idle
        /// When it entered its jetsam band (XNU's order within a band).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
        @exclusivity(unchecked)
#endif
        public internal(set) var bandOrder: UInt64 = 0
        /// Until when (device time) it ages in the aging band, after asking for idle.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
        @exclusivity(unchecked)
#endif
        var agingUntil: Double?
        /// Its `oom_score_adj` now, and when it was set.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
        @exclusivity(unchecked)
#endif
        public internal(set) var oomScoreAdj = LowMemoryKillerRules.notRunningAdj
        /// When its `oom_score_adj` was last set (lmkd's slot order).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
        @exclusivity(unchecked)
#endif
        public internal(set) var adjOrder: UInt64 = 0
        /// Bytes of its memory in the swap file (0: none).
        public var swappedBytes: Int { app.runtime.swappedBytes }
        /// Since when it is cached on Android (adj 900 and up).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
        @exclusivity(unchecked)
#endif
        var cachedSince: Double?
        /// Its last compaction (Android 14's `CachedAppOptimizer`); a kill forgets it.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
        @exclusivity(unchecked)
#endif
        var lastCompaction: CompactionRecord?
        /// When its runtime collects next in the background (Android: ``ARTCollectionRules``); nil
        /// when none is due (in front, or no process).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
        @exclusivity(unchecked)
#endif
        public internal(set) var nextCollection: Double?
        /// ActivityManager's stored trim level, and whether `UI_HIDDEN` is due.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
        @exclusivity(unchecked)
#endif
        var trimLevel = 0
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
        @exclusivity(unchecked)
#endif
        var isUIHiddenPending = false
        /// Whether some of the app's memory is in the compressed pool.
        public var isCompressed: Bool { app.runtime.compressedRegions > 0 }
        /// Whether all the app's memory went into the pool when it was last compressed (it
        /// is not a candidate again until it runs).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
        @exclusivity(unchecked)
#endif
        var isFullyCompressed = false
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
        @exclusivity(unchecked)
#endif
        var warnedNearLimit = false
        /// The limit last written to its ledger, and whether it was the active one (a rewrite
        /// re-arms the warning: ``Device/enforceAppLimits()``); nil before the first.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
        @exclusivity(unchecked)
#endif
        var ledgerLimit: (bytes: Int, active: Bool)?
        /// Until when (``Device/now``) the app may keep running in the background; nil
        /// unless it is running there.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
        @exclusivity(unchecked)
#endif
        public internal(set) var backgroundUntil: Double?
        /// The background mode the app is running in now, if it runs in the background.
        public var runningBackgroundMode: BackgroundMode? {
            app.state == .background && backgroundUntil != nil ? app.backgroundMode : nil
        }
        /// The processes it runs beside its main one (Android), as the device ranks them.
        public let processes: [SecondaryProcess]
        init(app: Application) {
            self.app = app
            self.processes = app.processes.map { SecondaryProcess(spec: $0, appName: app.name) }
        }
        /// Measured bytes its main process holds (its secondary processes' aside).
        public var mainBytes: Int { processes.isEmpty ? bytes : bytes - app.secondaryProcessBytes }
        /// The app's name.
        public var name: String { app.name }
        /// Measured bytes the app holds.
        public var bytes: Int { app.runtime.ledger.total }
        /// Measured bytes the app holds now, including what an allocation in progress has
        /// not attributed yet.
        public var liveBytes: Int { app.runtime.ledger.liveTotal }
        /// XNU's `phys_footprint`: what it holds, with its compressed memory counted at its
        /// uncompressed size (`osfmk/kern/task.c`, `init_task_ledgers`: a page that goes into
        /// the compressor moves from `internal` to `internal_compressed` whole; the pmap keeps
        /// the footprint unchanged, `osfmk/arm/pmap/pmap.c`). Per-process limits see this.
        public var footprintBytes: Int {
            liveBytes - app.runtime.compressedBytes + app.runtime.compressedOriginalBytes
        }
    }
}
