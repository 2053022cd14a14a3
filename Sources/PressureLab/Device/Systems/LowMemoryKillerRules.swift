/// Android's ranking of processes (`oom_score_adj`, set by ActivityManager's `OomAdjuster`
/// from `ProcessList`'s constants) and lmkd's choice of victims, for one release.
/// `docs/fidelity.md` lists each rule with its test.
public struct LowMemoryKillerRules: Sendable, Equatable {
    public let release: OSRelease

    /// The rules of `release` (an iOS release gets Android 10's: `lmk` under an iOS profile
    /// is a what-if).
    public init(release: OSRelease) {
        self.release = release.isApple ? .android10 : release
    }

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

    /// The `oom_score_adj` of cached processes holding activities, most recently used first:
    /// `OomAdjuster` (Android 10 `updateOomAdjLocked`; later `assignCachedAdjIfNecessary`)
    /// divides the cached range into (999 - 900 + 1) / 2 / `CACHED_APP_IMPORTANCE_LEVELS` = 10
    /// slots, `cachedFactor` = max(1, ceil(count / 10)) processes a slot, starting at 900 and
    /// stepping by 10 up to 999 (`stepCached` starts at -1 and steps before each process).
    ///
    /// - Complexity: O(`count`).
    public static func cachedAdjs(count: Int) -> [Int] {
        let slots = (cachedAdjRange.upperBound - cachedAdjRange.lowerBound + 1) / 2 / cachedImportanceLevels
        let factor = max(1, count > 0 ? (count + slots - 1) / slots : 1)
        var current = cachedAdjRange.lowerBound
        var next = current + cachedImportanceLevels * 2
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
    ///   `swap_is_low` is false (free 0 < 0 x 10%).
    public func minimumAdj(level: PressureLevel, swapLow: Bool) -> (adj: Int, reason: KillReason)? {
        switch (release, level) {
        case (_, .normal): return nil
        case (.android14, .critical): return (0, .notResponding)
        case (.android14, .warning): return swapLow ? (Self.perceptibleAdj + 1, .lowMemoryAndSwap) : nil
        case (_, .critical): return (0, .lmkdCriticalPressure)
        case (_, .warning): return (800, .lmkdMediumPressure)
        }
    }

    /// Whether lmkd picks the heaviest process of an `oom_score_adj` rather than the least
    /// recently slotted one: `ro.lmk.kill_heaviest_task` defaults to false (both releases);
    /// Android 14's `find_and_kill_process` takes the heaviest once the scan reaches
    /// `PERCEPTIBLE_APP_ADJ` (200) or below.
    public func killsHeaviest(atAdj adj: Int) -> Bool {
        release == .android14 && adj <= Self.perceptibleAdj
    }
}
