/// What lmkd reads at an event when it uses minfree levels (android-10.0.0_r1 `lmkd/lmkd.c`,
/// `mp_event_common` with `ro.lmk.use_minfree_levels`; docs/memory-under-load.md, "lmkd").
public struct LmkdMinfreeReading: Sendable, Equatable {
    /// Whether a PSI event came: the step's memory stall reached lmkd's low trigger
    /// (``PressureStall``); on a device without device time, whether memory stalled at all
    /// (kswapd ran, or an allocation reclaimed directly). lmkd looks only then.
    public var event: Bool
    /// `other_free`: free memory less the reserve (the high watermarks), bytes.
    public var otherFreeBytes: Int
    /// `other_file`: the page cache less shared and unevictable memory, bytes.
    public var otherFileBytes: Int
    /// The table (``LinuxMinfreeLevel``), rising.
    public var levels: [LinuxMinfreeLevel]

    /// A reading with each figure given.
    public init(event: Bool, otherFreeBytes: Int, otherFileBytes: Int, levels: [LinuxMinfreeLevel]) {
        self.event = event
        self.otherFreeBytes = otherFreeBytes
        self.otherFileBytes = otherFileBytes
        self.levels = levels
    }

    /// The lowest `oom_score_adj` lmkd kills now: the first row (in table order) whose threshold
    /// both `other_free` and `other_file` are under; nil when none is (the event is ignored).
    public var minimumAdj: Int? {
        levels.first { otherFreeBytes < $0.minfreeBytes && otherFileBytes < $0.minfreeBytes }?.minimumAdj
    }
}
