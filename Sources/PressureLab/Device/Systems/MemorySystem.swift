/// What a kernel's memory management decides, with the system services that work beside it:
/// XNU's memorystatus (``XNUMemoryStatus``), or Android's ActivityManager, lmkd and the
/// kernel's OOM killer (``AndroidMemoryManagement``).
///
/// An ``OSRelease`` picks its system once (``OSRelease/memorySystem``, an exhaustive switch),
/// and a system's release differences are switches over its own release type
/// (``XNURelease``, ``AndroidRelease``). The ``Device`` coordinates (installed apps, the
/// clock, the ledger, the step's outcome) and asks its system what the kernel decides.
///
/// Every system also gives the rules of the other family, as the built-in termination policies
/// apply them on this device: a `jetsam` policy may run on an Android device and `lmk` on an
/// iPhone (the policies' hooks, docs/fidelity.md, "Policies on the other platform"). Each
/// system says which of the other family's releases it lends.
public protocol MemorySystem: Sendable {
    /// The kernel family.
    var kernel: Kernel { get }
    /// The release whose rules were read for this system (what ``OSRelease/memoryRules`` gives).
    var rulesRelease: OSRelease { get }
    /// The source tag the rules were read from.
    var sourceTag: String { get }

    // MARK: Priorities and who is killed, frozen, compacted or warned

    /// Jetsam's bands, thresholds and kill reasons as they apply on this device.
    var jetsam: JetsamRules { get }
    /// The freezer's rules as they apply on this device.
    var freezer: FreezerRules { get }
    /// lmkd's and `oom_score_adj`'s rules as they apply on this device.
    var lowMemoryKiller: LowMemoryKillerRules { get }
    /// ActivityManager's trim levels as they apply on this device.
    var trimMemory: TrimMemoryRules { get }
    /// Whether an expired previous app takes `PROCESS_STATE_LAST_ACTIVITY`, `previousSince`
    /// seconds ago at `now` (Android 14's `computeOomAdjLSP`).
    func previousAppHasExpired(since previousSince: Double, now: Double) -> Bool

    /// Seconds after an app leaves the front before its runtime switches to the background
    /// collector and collects (Android's ART: ``ARTCollectionRules/collectorTransitionWaitSeconds``),
    /// nil where the runtime does no such transition (XNU's apps); ``appLeftFront(_:on:)``
    /// schedules it.
    var collectorTransitionWaitSeconds: Double? { get }

    // MARK: What counts

    /// Whether the kernel sees an app's secondary processes as processes of their own (each
    /// with its `oom_score_adj`): Android; on XNU an app is one process.
    var seesSecondaryProcesses: Bool { get }
    /// What the kernel counts of an app as its footprint, the figure policies rank it by: XNU's
    /// `phys_footprint` of the app's one process; Android's main process (its secondary
    /// processes are seen on their own).
    func policyBytes(of installed: Device.InstalledApp) -> Int
    /// What all apps' footprints add up to as the platform reports it (``Device/platformFootprintBytes``).
    func platformFootprint(of installed: Device.InstalledApp) -> Int

    // MARK: Limits

    /// Whether `installed` holds its active per-process limit now.
    func holdsActiveLimit(_ installed: Device.InstalledApp) -> Bool
    /// Whether the ledger's limit is written again at every move across the foreground band,
    /// re-arming its warning (``JetsamRules/rewritesLimitOnEveryMove``).
    var rewritesLimitOnEveryMove: Bool { get }

    // MARK: The kernel's own state

    /// Linux's memory management for a device `model` with the kernel's books
    /// (``DeviceModel/kernel``), nil without them: the books, kswapd, direct reclaim and
    /// refaults, which the device asks at its events (``LinuxKernel``).
    func linuxKernel(for model: DeviceModel) -> LinuxKernel?

    // MARK: Events

    /// Recomputes every app's priority in the kernel's books, stamping the order of each change
    /// (``Device`` calls it whenever an app's state, the front or use order changes). Each
    /// system keeps its own books and the other family's it lends (XNU's bands and aging,
    /// Android's `oom_score_adj`, its secondary processes where the kernel sees them), so that
    /// a policy of either family finds them on any device.
    func updatePriorities(of device: Device)
    /// An app has just left the front (Home, a switch): what the kernel's books and runtime do
    /// then (Android: `TRIM_MEMORY_UI_HIDDEN` is due and ART schedules its collector transition;
    /// XNU notes the UI_HIDDEN due for the trim rules it lends).
    func appLeftFront(_ installed: Device.InstalledApp, on device: Device)
    /// A step is ending, before pressure is read: the work the kernel's runtime has due by now
    /// (Android: ART's collections in the background, `ARTBackgroundCollector`; XNU: none).
    func stepEnding(on device: Device)
    /// An app's process died (`reason`): the apps the system then tells memory is low
    /// (Android: `onLowMemory`, ``AndroidMemoryManagement``'s rule; XNU: none), most recently
    /// used first. The device records the callback (``Application/receiveLowMemory()``).
    ///
    /// - Parameters:
    ///   - victim: the app whose process died.
    ///   - reason: why it died.
    ///   - device: the device, its priorities updated after the death.
    func lowMemoryReport(afterDeathOf victim: Device.InstalledApp, reason: KillReason, on device: Device) -> [Device.InstalledApp]

    // MARK: Policies of the other family

    /// A note when the built-in termination policy `policy` (``Termination/name``) applies the
    /// other family's rules on a device of `release` (a what-if there), else nil.
    func whatIfNote(policy: String, on release: OSRelease) -> String?
}

/// The kernel family a memory system belongs to.
public enum Kernel: String, Sendable, CaseIterable {
    /// Apple's XNU: memorystatus (jetsam), the freezer, the compressor.
    case xnu
    /// Linux as Android runs it: ActivityManager, lmkd, zram and the kernel's OOM killer.
    case android

    /// The platform as a device profile names it (`platform: ios`).
    public var platformName: String {
        switch self {
        case .xnu: return "ios"
        case .android: return "android"
        }
    }

    /// The platform as messages name it (`iOS`, `Android`).
    public var platformDescription: String {
        switch self {
        case .xnu: return "iOS"
        case .android: return "Android"
        }
    }
}

extension OSRelease {
    /// The memory system this release runs, decided here once: a new release must name its
    /// system before anything compiles.
    ///
    /// iOS before 18 follows iOS 12's rules (the oldest read), iOS 18 its own; Android 10 and
    /// 14 their own.
    public var memorySystem: any MemorySystem {
        switch self {
        case .iPhoneOS2, .iPhoneOS3, .iOS4, .iOS5, .iOS6, .iOS7, .iOS12, .iOS13:
            return XNUMemoryStatus(release: .iOS12)
        case .iOS18:
            return XNUMemoryStatus(release: .iOS18)
        case .android10:
            return AndroidMemoryManagement(release: .android10)
        case .android14:
            return AndroidMemoryManagement(release: .android14)
        }
    }
}
