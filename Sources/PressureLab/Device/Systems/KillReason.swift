/// Why a process was killed, in the terms of the system that killed it. The trace
/// (`processKilled` with its `reason`) and the timeline (`kill NAME (reason)`) carry it.
///
/// XNU's causes are `kMemorystatusKilled*` / `JETSAM_REASON_*` in
/// `bsd/sys/kern_memorystatus.h` (their numbers in ``xnuCode``); lmkd's are the
/// `kill_reasons` of `statslog.h` (Android 14) or the pressure level that set
/// `min_score_adj` (Android 10, `lmkd.c`, `mp_event_common`).
public enum KillReason: String, CaseIterable, Sendable, Codable, CustomStringConvertible {
    /// A process crossed its fatal per-process limit (XNU `JETSAM_REASON_MEMORY_PERPROCESSLIMIT`, 7).
    case perProcessLimit = "per-process-limit"
    /// An idle-band kill: available memory below the idle threshold (XNU
    /// `JETSAM_REASON_MEMORY_IDLE_EXIT`, 9; xnu-11417 `memorystatus_pick_action`,
    /// `MEMORYSTATUS_KILL_IDLE`). iOS 12 records every memory-pressure kill as
    /// ``vmPageShortage`` (xnu-4903: only `kill_idle_exit_proc`, macOS only, uses IDLE_EXIT).
    case idleExit = "idle-exit"
    /// A kill in any band: available memory below the critical threshold (XNU
    /// `JETSAM_REASON_MEMORY_VMPAGESHORTAGE`, 4; `MEMORYSTATUS_KILL_TOP_PROCESS`).
    case vmPageShortage = "vm-page-shortage"
    /// lmkd, Android 10: a medium-pressure event (PSI `some` stall), `min_score_adj` from `ro.lmk.medium`.
    case lmkdMediumPressure = "lmkd-medium-pressure"
    /// lmkd, Android 10: a critical-pressure event (PSI `full` stall), `min_score_adj` from `ro.lmk.critical`.
    case lmkdCriticalPressure = "lmkd-critical-pressure"
    /// lmkd, Android 10 with minfree levels (`ro.lmk.use_minfree_levels`, both Pixels): free
    /// memory and the page cache both under a row of the minfree table at a PSI event
    /// (`mp_event_common`), `min_score_adj` from that row.
    case lmkdMinfree = "lmkd-minfree"
    /// lmkd, Android 14: memory below the high watermark and swap low (`LOW_MEM_AND_SWAP`).
    case lowMemoryAndSwap = "low-mem-and-swap"
    /// lmkd, Android 14: a critical PSI event, the system not responding (`NOT_RESPONDING`).
    case notResponding = "not-responding"
    /// lmkd, Android 14: memory still short right after a kill (`PRESSURE_AFTER_KILL`): a
    /// further kill of the same pressure episode, decided on memory read again.
    case pressureAfterKill = "pressure-after-kill"
    /// Linux's OOM killer: an allocation found no memory and nothing else freed any; the
    /// process with the highest `oom_badness` (resident and swapped pages, plus
    /// `oom_score_adj` x total pages / 1000) dies (`mm/oom_kill.c`).
    case kernelOOM = "kernel-oom"
    /// ActivityManager: more cached processes than its limit (`OomAdjuster`, "cached #N").
    case tooManyCached = "too-many-cached"
    /// ActivityManager: more empty processes than its limit (`OomAdjuster`, "empty #N"): a
    /// process with nothing the user sees or waits for, such as a service process bound by a
    /// cached app.
    case tooManyEmpty = "too-many-empty"
    /// A policy that is not a real system's (largest-first, or one written in Swift).
    case policy = "policy"

    /// XNU's cause number, for the reasons XNU has.
    public var xnuCode: Int? {
        switch self {
        case .perProcessLimit: return 7
        case .idleExit: return 9
        case .vmPageShortage: return 4
        default: return nil
        }
    }

    /// Whether ActivityManager killed for its own limits ("cached #N", "empty #N"): such a death
    /// does not let Android 10's memory factor worsen (`appDiedLocked`).
    public var isActivityManagers: Bool { self == .tooManyCached || self == .tooManyEmpty }

    public var description: String { rawValue }
}
