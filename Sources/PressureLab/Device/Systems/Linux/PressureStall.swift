/// Memory pressure stall information as lmkd reads it on Android 10 (docs/memory-under-load.md,
/// "lmkd"): the time in a window during which some task waited on memory, against the
/// triggers lmkd writes to `/proc/pressure/memory`.
///
/// The kernel counts a task as stalled on memory while it reclaims directly
/// (`__perform_reclaim`), while kswapd balances a node (`balance_pgdat`), and while a task
/// waits for a page of its working set to be read back (`wait_on_page_bit_common` on a page
/// with `PageWorkingset`): `psi_memstall_enter`/`psi_memstall_leave` around each (the Pixel 3's
/// 4.9 tree, `mm/page_alloc.c`, `mm/vmscan.c`, `mm/filemap.c`; `kernel/sched/psi.c`). lmkd
/// (android-10.0.0_r1 `lmkd/lmkd.c`, `init_psi_monitors` and `psi_thresholds`) asks for an
/// event when that "some" time reaches 70 ms (low) or 100 ms (medium) in a 1-second window
/// (`PSI_WINDOW_SIZE_MS`), and when "full" time (every running task stalled) reaches 70 ms
/// (critical). With `ro.lmk.use_minfree_levels` the level only wakes lmkd: the minfree
/// table decides whom it kills (``LmkdMinfreeReading``).
///
/// The model's window is the step: the stall a step's reclaim and refaults take, in device
/// time, is taken to fall within one second (reclaim comes in bursts at an allocation). The
/// "full" state is not modelled (it needs every runnable task's state): the critical trigger
/// never fires on its own, and the low one, which it implies, decides.
public struct PressureStall: Sendable, Equatable {
    /// The "some" stall lmkd's low trigger waits for in a window (70 ms).
    public static let lowSomeNanoseconds: UInt64 = 70_000_000
    /// The "some" stall of its medium trigger (100 ms).
    public static let mediumSomeNanoseconds: UInt64 = 100_000_000
    /// The window the triggers count in (`PSI_WINDOW_SIZE_MS`, 1 s).
    public static let windowNanoseconds: UInt64 = 1_000_000_000

    /// Device time some task was stalled on memory in this window, nanoseconds.
    public private(set) var someNanoseconds: UInt64 = 0

    /// No stall yet.
    public init() {}

    /// Adds `nanoseconds` of a task waiting on memory.
    public mutating func add(_ nanoseconds: UInt64) {
        someNanoseconds = someNanoseconds.addingSaturating(nanoseconds)
    }

    /// A new window: nothing stalled yet.
    public mutating func reset() {
        someNanoseconds = 0
    }

    /// Whether a trigger fired in this window: the low one's threshold was reached (the medium
    /// one's is above it, and lmkd with minfree levels treats every level alike).
    public var triggered: Bool { someNanoseconds >= Self.lowSomeNanoseconds }
}
