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
        /// What XNU's memorystatus keeps of its process (band, aging, freezer state, limit):
        /// ``MemorystatusEntry``, the record of XNU's books; the properties below forward to it.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
        @exclusivity(unchecked)
#endif
        var memorystatus = MemorystatusEntry()
        /// What ActivityManager, lmkd and ART keep of its main process (adj, cached time,
        /// compaction, trim level, next collection): ``ActivityManagerRecord``, Android's books.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
        @exclusivity(unchecked)
#endif
        var processRecord = ActivityManagerRecord()
        /// Whether its memory is in the freezer's file now.
        public internal(set) var isFrozen: Bool {
            get { memorystatus.isFrozen }
            set { memorystatus.isFrozen = newValue }
        }
        /// XNU's `P_MEMSTAT_FROZEN`: frozen since launch; a thaw keeps it
        /// (`memorystatus_on_resume`), a kill clears it.
        public internal(set) var hasBeenFrozen: Bool {
            get { memorystatus.hasBeenFrozen }
            set { memorystatus.hasBeenFrozen = newValue }
        }
        /// Thawed since last frozen (`P_MEMSTAT_REFREEZE_ELIGIBLE`).
        public internal(set) var isRefreezeEligible: Bool {
            get { memorystatus.isRefreezeEligible }
            set { memorystatus.isRefreezeEligible = newValue }
        }
        /// Its jetsam band now, and when it entered it (see `Device/refreshPriorities()`).
        public internal(set) var band: JetsamBand {
            get { memorystatus.band }
            set { memorystatus.band = newValue }
        }
        /// When it entered its jetsam band (XNU's order within a band).
        public internal(set) var bandOrder: UInt64 {
            get { memorystatus.bandOrder }
            set { memorystatus.bandOrder = newValue }
        }
        /// Until when (device time) it ages in the aging band, after asking for idle.
        var agingUntil: Double? {
            get { memorystatus.agingUntil }
            set { memorystatus.agingUntil = newValue }
        }
        /// Its `oom_score_adj` now, and when it was set.
        public internal(set) var oomScoreAdj: Int {
            get { processRecord.oomScoreAdj }
            set { processRecord.oomScoreAdj = newValue }
        }
        /// When its `oom_score_adj` was last set (lmkd's slot order).
        public internal(set) var adjOrder: UInt64 {
            get { processRecord.adjOrder }
            set { processRecord.adjOrder = newValue }
        }
        /// Bytes of its memory in the swap file (0: none).
        public var swappedBytes: Int { app.runtime.swappedBytes }
        /// Since when it is cached on Android (adj 900 and up).
        var cachedSince: Double? {
            get { processRecord.cachedSince }
            set { processRecord.cachedSince = newValue }
        }
        /// Its last compaction (Android 14's `CachedAppOptimizer`); a kill forgets it.
        var lastCompaction: CompactionRecord? {
            get { processRecord.lastCompaction }
            set { processRecord.lastCompaction = newValue }
        }
        /// When its runtime collects next in the background (Android: ``ARTCollectionRules``); nil
        /// when none is due (in front, or no process).
        public internal(set) var nextCollection: Double? {
            get { processRecord.nextCollection }
            set { processRecord.nextCollection = newValue }
        }
        /// ActivityManager's stored trim level.
        var trimLevel: Int {
            get { processRecord.trimLevel }
            set { processRecord.trimLevel = newValue }
        }
        /// Whether `TRIM_MEMORY_UI_HIDDEN` is due.
        var isUIHiddenPending: Bool {
            get { processRecord.isUIHiddenPending }
            set { processRecord.isUIHiddenPending = newValue }
        }
        /// Whether some of the app's memory is in the compressed pool.
        public var isCompressed: Bool { app.runtime.compressedRegions > 0 }
        /// Whether all the app's memory went into the pool when it was last compressed (it
        /// is not a candidate again until it runs).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
        @exclusivity(unchecked)
#endif
        var isFullyCompressed = false
        /// Whether the warning near its limit went out since the limit was last written.
        var warnedNearLimit: Bool {
            get { memorystatus.warnedNearLimit }
            set { memorystatus.warnedNearLimit = newValue }
        }
        /// The limit last written to its ledger, and whether it was the active one (a rewrite
        /// re-arms the warning: ``MemorySystem/enforceProcessLimits(on:)``); nil before the first.
        var ledgerLimit: (bytes: Int, active: Bool)? {
            get { memorystatus.ledgerLimit }
            set { memorystatus.ledgerLimit = newValue }
        }
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
