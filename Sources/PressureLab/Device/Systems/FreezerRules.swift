/// XNU's freezer (`bsd/kern/kern_memorystatus_freeze.c`; in xnu-4903,
/// `bsd/kern/kern_memorystatus.c`): when it runs, whom it freezes, and its write budget.
/// `docs/fidelity.md` lists each rule with its test.
public struct FreezerRules: Sendable, Equatable {
    /// The XNU release whose rules these are.
    public let release: XNURelease

    /// The rules of an XNU release.
    public init(_ release: XNURelease) { self.release = release }

    /// The freezer runs only while available memory is at most this fraction
    /// (`memorystatus_freeze_threshold`: `MEMORYSTATUS_FREEZE_THRESHOLD_PERCENTAGE`, 50% of
    /// memory, both releases; `memorystatus_freeze_thread_should_run`). Applied to the
    /// budget, as the jetsam thresholds are.
    public static let availableFraction = 0.5

    /// It freezes only when more suspended processes than this are not frozen
    /// (`memorystatus_freeze_suspended_threshold` = `FREEZE_SUSPENDED_THRESHOLD_DEFAULT`, 4;
    /// `memorystatus_can_freeze`).
    public static let suspendedThreshold = 4

    /// At most this many processes are frozen (`memorystatus_frozen_processes_max` =
    /// `FREEZE_PROCESSES_MAX` / `FREEZE_PROCESSES_MAX_DEFAULT`, 20).
    public static let maxFrozen = 20

    /// Thawed-and-suspended-again processes needed before refreezing is considered
    /// (`MIN_THAW_REFREEZE_THRESHOLD` / `memorystatus_min_thaw_refreeze_threshold`, 3).
    public static let refreezeThreshold = 3

    /// A candidate's footprint must be at least this (`FREEZE_PAGES_MIN`, 8 MB of pages;
    /// `memorystatus_is_process_eligible_for_freeze`).
    public static let minimumBytes = 8 << 20

    /// Seconds between two runs of the freezer thread (`memorystatus_freezer_thread_next_run_ts`
    /// = now + `memorystatus_apps_idle_delay_time`: 10 s, `DEFERRED_IDLE_EXIT_TIME_SECS` in
    /// xnu-4903, `memstat_idle_deferral_time_s` in xnu-11417).
    public static let runIntervalSeconds = 10.0

    /// Bytes the freezer may write in one window (`memorystatus_freeze_daily_mb_max` =
    /// `FREEZE_DAILY_MB_MAX_DEFAULT`: 1024 MB in xnu-4903, 2048 MB in xnu-11417).
    public var dailyBudgetBytes: Int {
        switch release {
        case .iOS12: return 1024 << 20
        case .iOS18: return 2048 << 20
        }
    }

    /// The budget window, seconds (`NORMAL_WINDOW_MINS`, 24 h).
    public static let windowSeconds = 24.0 * 3600

    /// Whether refreezes come only when the freezer is full (xnu-4903:
    /// `memorystatus_freeze_top_process` walks the freezer band only when
    /// `memorystatus_frozen_count >= memorystatus_frozen_processes_max`), or also when no
    /// new candidate is found and enough were thawed (xnu-11417:
    /// `memorystatus_freeze_pick_process`, new candidates first).
    public var refreezesWhenNoNewCandidate: Bool {
        switch release {
        case .iOS12: return false
        case .iOS18: return true
        }
    }

    /// Whether a freeze stops at the budget left: xnu-11417 passes
    /// `MIN(memorystatus_freeze_pages_max, memorystatus_freeze_budget_pages_remaining)` to
    /// `vm_map_freeze`, whose pageout stops at that many pages (`memorystatus_freeze_process`,
    /// `vm_object_compressed_freezer_pageout`); pages already compressed are relocated without
    /// counting. xnu-4903 passes the same figure but `vm_map_freeze` ignores it (its
    /// `dirty_budget` is `__unused`): the whole app is frozen and the overshoot comes out of the
    /// next window (``FreezerBudget/spend(_:)``).
    public var capsFreezeAtBudget: Bool {
        switch release {
        case .iOS12: return false
        case .iOS18: return true
        }
    }
}

/// The freezer's write budget over time: one window's worth of bytes, and at the end of each
/// window the next one's plus what was left unused (xnu-11417
/// `memorystatus_freeze_calculate_new_budget`: unused budget rolls over, plus a share for days
/// missed; xnu-4903 `memorystatus_freeze_update_throttle_interval`: max - used + daily).
public struct FreezerBudget: Sendable, Equatable {
    /// Bytes one window grants.
    public let windowBytes: Int
    /// The window's length, seconds.
    public let windowSeconds: Double
    /// Bytes left in the current window.
    public private(set) var remainingBytes: Int
    /// When the current window ends (device time, seconds).
    public private(set) var windowEnd: Double

    /// A budget of `windowBytes` a window of `windowSeconds`, the first window starting at
    /// `start`.
    public init(windowBytes: Int, windowSeconds: Double = FreezerRules.windowSeconds, start: Double = 0) {
        self.windowBytes = windowBytes
        self.windowSeconds = windowSeconds
        self.remainingBytes = windowBytes
        self.windowEnd = start + windowSeconds
    }

    /// Rolls the window over as many times as `now` has passed its end: each new window
    /// adds its bytes to what was left (`memorystatus_freeze_reset_interval`).
    public mutating func advance(to now: Double) {
        guard now >= windowEnd, windowSeconds > 0 else { return }
        let windows = Int(((now - windowEnd) / windowSeconds).rounded(.down)) + 1
        remainingBytes = remainingBytes.addingSaturating(windowBytes.multipliedSaturating(by: windows))
        windowEnd += Double(windows) * windowSeconds
    }

    /// Takes `bytes` written (an overshoot is taken from the next window: the remainder may
    /// go below 0 until then).
    public mutating func spend(_ bytes: Int) {
        remainingBytes -= bytes
    }
}
