/// XNU's memorystatus ("jetsam") rules for one release: bands, aging, the page-shortage
/// thresholds that decide between idle-band and any-band kills, and the warning near a
/// process's limit. Each value names its source; `docs/fidelity.md` lists them with the
/// tests that check them.
public struct JetsamRules: Sendable, Equatable {
    /// The XNU release whose rules these are.
    public let release: XNURelease

    /// The rules of an XNU release.
    public init(_ release: XNURelease) { self.release = release }

    /// The band a frozen process sits in while inactive: `memorystatus_freeze_jetsam_band`,
    /// `JETSAM_PRIORITY_FREEZER` (75) in xnu-11417 (`bsd/kern/kern_memorystatus.c`); in
    /// xnu-4903 `memorystatus_init` set it to `JETSAM_PRIORITY_UI_SUPPORT` (8 on that
    /// release's scale, 80 on today's).
    public var frozenBand: JetsamBand {
        switch release {
        case .iOS12: return .uiSupport
        case .iOS18: return .freezer
        }
    }

    /// The band an app ages in after it asks for idle, and for how long (seconds): xnu-11417
    /// puts RunningBoard-managed apps in `applications_aging_band` =
    /// `JETSAM_PRIORITY_AGING_BAND2` (20) for `memorystatus_apps_idle_delay_time` =
    /// `memstat_idle_deferral_time_s` (10 s) / `kJetsamAppsIdleDelayTimeRatio` (5) = 2 s
    /// (`memstat_update_priority_locked`). xnu-4903's default `kJetsamAgingPolicyLegacy` set
    /// `applications_aging_band = JETSAM_PRIORITY_IDLE`: apps do not age (`memorystatus_init`).
    public var appAging: (band: JetsamBand, seconds: Double)? {
        switch release {
        case .iOS12: return nil
        case .iOS18: return (.aging2, 2)
        }
    }

    /// The per-process limit's warning, percent of the limit: `PHYS_FOOTPRINT_WARNING_LEVEL`
    /// (80) in `osfmk/kern/task.c`, passed to `ledger_set_limit`; the ledger warns once per
    /// upward crossing and re-arms below it (`osfmk/kern/ledger.c`, `LF_WARNED`). Both releases.
    public static let limitWarningPercent = 80

    /// Available memory below which idle-band processes are killed (`MEMORYSTATUS_KILL_IDLE`,
    /// cause `JETSAM_REASON_MEMORY_IDLE_EXIT`), and below which any band is (the system is
    /// unhealthy: `MEMORYSTATUS_KILL_TOP_PROCESS`, `JETSAM_REASON_MEMORY_VMPAGESHORTAGE`), as
    /// fractions.
    ///
    /// xnu-11417 (`memorystatus_init`, `memstat_critical_threshold`, `memstat_idle_threshold`):
    /// by the device's memory, <= 3 GB: critical 5%, idle 10%; 3 to 6 GB: 4%, 9%; more: 4%, 8%.
    /// xnu-4903: critical 5% (`memorystatus_available_pages_critical_base`), raised by the idle
    /// offset (5%) while the idle band is not empty (`memorystatus_update_levels_locked`): idle
    /// processes die below 10%, others below 5%.
    ///
    /// XNU takes them of physical memory (`max_mem`); PressureLab applies them to the budget,
    /// the memory its apps share, so that a scenario's budget scales them (docs/fidelity.md,
    /// departures). `memoryBytes` picks the row.
    public func pageShortage(memoryBytes: Int) -> (critical: Double, idle: Double) {
        switch release {
        case .iOS12: return (0.05, 0.10)
        case .iOS18: break
        }
        if memoryBytes <= Self.smallMemoryBytes { return (0.05, 0.10) }
        if memoryBytes <= Self.mediumMemoryBytes { return (0.04, 0.09) }
        return (0.04, 0.08)
    }

    /// xnu-11417's size classes are binary: `MEMORYSTATUS_SMALL_MEMORY_THRESHOLD` =
    /// `3UL * (1UL << 30)` and `MEMORYSTATUS_MEDIUM_MEMORY_THRESHOLD` = `6UL * (1UL << 30)`
    /// (`bsd/kern/kern_memorystatus.c`), compared `max_mem <= threshold`.
    public static let smallMemoryBytes = 3 << 30
    /// (`MEMORYSTATUS_MEDIUM_MEMORY_THRESHOLD`.)
    public static let mediumMemoryBytes = 6 << 30

    /// Whether `available` bytes are short of `threshold`: xnu-4903 compares `<=`
    /// (`memorystatus_avail_pages_below_critical`, `..._below_pressure`), xnu-11417 `<`
    /// (`memstat_evaluate_page_shortage`).
    public func isShort(_ available: Int, of threshold: Int) -> Bool {
        switch release {
        case .iOS12: return available <= threshold
        case .iOS18: return available < threshold
        }
    }

    /// The cause a kill of the idle band is recorded with: xnu-11417's `MEMORYSTATUS_KILL_IDLE`
    /// records IDLE_EXIT; xnu-4903's jetsam thread records every kill of its loop as
    /// VMPAGESHORTAGE (`memorystatus_thread`, the `default:` cause), IDLE_EXIT being
    /// `kill_idle_exit_proc`'s only, which is called under `!CONFIG_JETSAM` (macOS) alone.
    public var idleKillReason: KillReason {
        switch release {
        case .iOS12: return .vmPageShortage
        case .iOS18: return .idleExit
        }
    }

    /// Whether an app in `state` holds its active limit: xnu-11417 while it holds an active
    /// process assertion (in front, or running in the background:
    /// `memstat_proc_is_active_locked`); xnu-4903 while its band is the foreground one or
    /// above (`memorystatus_update_priority_locked` switches limits when the priority crosses
    /// `JETSAM_PRIORITY_FOREGROUND`), so an app running in the background (band 30) has its
    /// inactive limit there.
    public func holdsActiveLimit(_ state: AppState) -> Bool {
        switch release {
        case .iOS12: return state == .active || state == .inactive
        case .iOS18: return state.isRunning
        }
    }

    /// Whether the ledger's limit is written again at every move across the foreground band,
    /// re-arming its warning (`ledger_set_limit` clears `LF_WARNED`): xnu-4903's
    /// `memorystatus_update_priority_locked` calls `task_set_phys_footprint_limit_internal` at
    /// every such move, whose active flag changes even when both limits are equal; xnu-11417
    /// writes it only when the limit's value changes (`memstat_update_memlimit_locked` returns
    /// false for an unchanged limit).
    public var rewritesLimitOnEveryMove: Bool {
        switch release {
        case .iOS12: return true
        case .iOS18: return false
        }
    }

    /// The band of an app (XNU's `p_memstat_effectivepriority`). Which band an app asks for
    /// is RunningBoard's (not in XNU): in front 100 (`JETSAM_PRIORITY_FOREGROUND`), running in
    /// the background 30 (`JETSAM_PRIORITY_BACKGROUND`, an estimate: RunningBoard's choice),
    /// suspended idle (0). XNU then redirects an idle request to the aging band while the
    /// app ages (``appAging``), and keeps a frozen process in ``frozenBand`` while it is
    /// inactive, thawed or not (`P_MEMSTAT_FROZEN` survives a thaw: `memorystatus_on_resume`).
    ///
    /// - Parameters:
    ///   - isForeground: whether the app is the one in front.
    ///   - state: the app's life-cycle state.
    ///   - frozen: whether the freezer has frozen the app (a thaw keeps it so in XNU's books).
    ///   - aging: whether the app is still within its aging time.
    public func band(isForeground: Bool, state: AppState, frozen: Bool, aging: Bool) -> JetsamBand {
        if isForeground { return .foreground }
        switch state {
        case .active, .inactive: return .foreground
        case .background: return frozen ? max(frozenBand, .background) : .background
        case .suspended, .notRunning:
            if frozen { return frozenBand }
            if aging, let appAging { return appAging.band }
            return .idle
        }
    }
}
