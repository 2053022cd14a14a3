/// What a device is, in one value: what its profile and a scenario say about it (memory and
/// budget, pressure thresholds, per-app limits, page size, compressor, the system release and
/// its rules, the costs of its work, what memory is filled with), built once and applied by
/// the device to every app it installs (``apply(to:)``).
///
/// A bare model (no costs, no contents) is a device with host time only and memory filled
/// with a constant pattern: what unit tests use.
public struct DeviceModel: Sendable {
    /// Memory all apps share, bytes.
    public var budgetBytes: Int
    /// The pressure levels' thresholds.
    public var thresholds: PressureThresholds
    /// A per-app hard limit (jetsam's per-process limit) while the app is active (in
    /// front, or running in the background), bytes: XNU's `memlimit_active`.
    public var appLimitBytes: Int?
    /// The limit while it is inactive (suspended): XNU's `memlimit_inactive`, by default
    /// the active one (`memorystatus_get_default_task_active_limit` serves both).
    public var appLimitInactiveBytes: Int?
    /// Bytes the freezer may write in one 24-hour window (default: the release's,
    /// ``FreezerRules/dailyBudgetBytes``); what a window leaves unused rolls over.
    public var freezeWriteBudgetBytes: Int
    /// The in-RAM compressor of suspended apps' memory (`.none`: off).
    public var compressor: Compressor
    /// The unit of compression, bytes.
    public var pageBytes: Int
    /// The OS release: whether Home suspends or terminates apps, and how long a
    /// background task may run (``OSRelease``).
    public var os: OSRelease
    /// Whether the system discards an app's drawn views as it enters the background: iOS
    /// does (Apple, "Performance Tips: Reduce Your App's Memory Footprint"), and so does
    /// Android, whose `ViewRootImpl.performTraversals` destroys a window's hardware
    /// resources (`destroyHardwareResources`: layers, textures) when it stops being visible.
    /// On with any device profile; off for a bare device.
    public var purgesBackingStoresInBackground: Bool
    /// The system release whose jetsam, freezer, lmkd and trim rules apply.
    public var release: OSRelease
    /// The device's physical memory, bytes (XNU's thresholds depend on its size class);
    /// the budget when nil.
    public var memoryBytes: Int?
    /// A swap file on flash of this many bytes (nil: none), see `Device/swapOut(_:)`.
    public var swapFileBytes: Int?
    /// The zram device's size (uncompressed bytes it can hold), when known: the compressor takes
    /// no more than it holds, and Android's free-swap figures count it (nil: no size given).
    public var zramBytes: Int?
    /// The costs of the device's work (a profile's `costs:`): with them every latency also
    /// has a device time (docs/formats.md, "Device profile"). Nil: host time only.
    public var costs: CostModel?
    /// What memory is filled with: realistic contents as compressible as the profile says,
    /// per kind of memory (nil: a constant pattern).
    public var contents: MemoryContents?
    /// Linux's books beside the apps (a profile's `kernel:`, with a scenario's
    /// `device.memory_model: kernel`): when given, the apps have what the kernel leaves them
    /// (``Device/budgetBytes``) instead of ``budgetBytes``, and kswapd, direct reclaim, refaults
    /// and the OOM killer decide (docs/memory-under-load.md). Nil: the budget.
    public var kernel: LinuxMemoryInputs?

    /// A device with each field given; see the properties.
    public init(budgetBytes: Int, thresholds: PressureThresholds = .default, appLimitBytes: Int? = nil,
                appLimitInactiveBytes: Int? = nil, freezeWriteBudgetBytes: Int? = nil, compressor: Compressor = .none,
                pageBytes: Int = 4096, os: OSRelease = .iOS13, purgesBackingStoresInBackground: Bool = false,
                release: OSRelease = .iOS12, memoryBytes: Int? = nil, swapFileBytes: Int? = nil,
                costs: CostModel? = nil, contents: MemoryContents? = nil) {
        self.swapFileBytes = swapFileBytes
        self.costs = costs
        self.contents = contents
        self.budgetBytes = budgetBytes
        self.os = os
        self.purgesBackingStoresInBackground = purgesBackingStoresInBackground
        self.thresholds = thresholds
        self.appLimitBytes = appLimitBytes
        self.appLimitInactiveBytes = appLimitInactiveBytes
        self.compressor = compressor
        self.pageBytes = pageBytes
        self.release = release
        self.memoryBytes = memoryBytes
        self.freezeWriteBudgetBytes = freezeWriteBudgetBytes ?? release.memorySystem.freezer.dailyBudgetBytes
    }

    /// The per-app limit that applies to an app active (in front or running) or not.
    public func appLimit(active: Bool) -> Int? {
        active ? appLimitBytes : (appLimitInactiveBytes ?? appLimitBytes)
    }

    /// Gives an app's runtime what the device decides for it: the page size compression works
    /// in, the costs its work is charged at (and the compressor charged for (de)compression),
    /// and what its memory is filled with. ``Device/install(_:)`` calls it.
    public func apply(to runtime: RuntimeContext) {
        runtime.pageBytes = pageBytes
        runtime.costModel = costs
        runtime.compressor = costs == nil ? .none : compressor
        runtime.contents = contents
    }
}
