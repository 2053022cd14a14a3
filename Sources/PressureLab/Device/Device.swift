import PressureLabHeap
/// A device: apps sharing one memory budget, pressure levels, and a termination policy.
///
/// Memory in use is what jemalloc measured for each app (the sum of its runtime's ledger),
/// never declared sizes. Simulated time (``now``, for recency and idle steps) is separate
/// from the real time launches are measured in.
///
/// ```swift
/// let device = Device(model: .init(budgetBytes: 768 << 20), termination: JetsamPolicy())
/// device.install(mail); device.install(photos)
/// try device.open("mail")     // cold launch, then the policy enforces the budget
/// try device.open("photos")   // mail goes home (saved, suspended); photos launches
/// ```
public final class Device {
    // A device is used on one thread, and its stored properties are read many times a step
    // (priorities, snapshots, admission of every allocation): like ``InstalledApp``'s, the
    // hot ones skip the dynamic exclusivity checks (two runtime calls per access; with
    // InstalledApp's, 15.5% of a run's instructions: Benchmarks/README.md, "Exclusivity checks").

    /// What the device is (``DeviceModel``), by its older name.
    public typealias Configuration = DeviceModel


    /// What the device is: memory, limits, compressor, release, costs and contents.
    public let model: DeviceModel
    /// The kernel's memory management that its release runs (``OSRelease/memorySystem``):
    /// what the device asks whenever the rules of XNU or Android decide.
    public let system: any MemorySystem
    /// Whom the device kills, freezes or warns when memory runs short.
    public let termination: any TerminationPolicy
    /// Android's ActivityManager (the previous app, the memory factor, secondary processes'
    /// restarts), kept on every device for policies of its family (``ActivityManager``).
    let activityManager = ActivityManager()
    /// Android's previous app (the one in front before the current one).
    public var previous: InstalledApp? { activityManager.previous }
    /// The freezer's write budget over time.
    public var freezerBudget: FreezerBudget { freezer.budget }
    /// The order stamp of the next priority update (bands and `oom_score_adj`).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    var priorityCounter: UInt64 = 0
    /// Installed apps, in installation order.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public private(set) var apps: [InstalledApp] = []
    /// The installed apps' ledgers, in installation order (what ``usedBytes`` and
    /// ``liveUsedBytes`` add up, read without going through each app).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    private(set) var ledgers: [OwnerLedger<MemoryOwner>] = []
    /// The app in front.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public internal(set) var foreground: InstalledApp?
    /// The current pressure level.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public internal(set) var level: PressureLevel = .normal
    /// The level measured use gives (without scripted warnings): what the policy's warnings
    /// and trims follow.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    var measuredLevel: PressureLevel = .normal
    /// The level other sources (a script's warning) gave at this step's evaluation.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    var injectedLevel: PressureLevel = .normal
    /// Where levels come from; the highest wins. Measured use and scripted warnings by default.
    public var pressureSources: [any PressureSource]
    /// Scripted warnings (the second source).
    public let scripted = ScriptedPressure()
    /// Simulated time, seconds.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public internal(set) var now: Double = 0
    /// Counters and latencies.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public internal(set) var metrics = DeviceMetrics()
    /// Which policy call the device is in now (its apps' cleanup plans included): what a
    /// watchdog names when a step does not finish.
    public let policyCalls = PolicyCallMarker()
    /// Every mistake the policies made so far (``PolicyMistake``), in order.
    public internal(set) var policyMistakes: [PolicyMistake] = []
    /// Whether a policy's mistake is only counted (``policyMistakes``); by default
    /// ``perform(_:)`` throws it (``PolicyError/mistake(_:)``) at the end of its step.
    public var lenientPolicies = false
    /// What the current step did so far (``perform(_:)`` returns it as the step's outcome).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    var notes = StepNotes()
    /// Bytes the freezer may still write in its current window.
    public var freezeBudgetBytes: Int { freezerBudget.remainingBytes }
    /// XNU's freezer: its budget, its thread's next run, its files (``MemorystatusFreezer``).
    let freezer: MemorystatusFreezer
    /// The swap file (nil: no swap file), see ``LinuxSwapFile``.
    let swapFile: LinuxSwapFile?
    /// The in-RAM compressor (nil: the device does not compress), see ``MemoryCompressor``.
    let compressor: MemoryCompressor?
    /// The swap file, region by region (nil: no swap file), see ``SwapSpace``.
    public var swapSpace: SwapSpace? { swapFile?.space }
    /// The in-RAM compressed pool (nil: the device does not compress).
    public var compressedPool: CompressedPool? { compressor?.pool }
    /// Bytes of the swap file in use now.
    public var swappedBytes: Int { swapSpace?.usedBytes ?? 0 }
    /// Linux's memory management, on a device with the kernel's books (nil: the device has a
    /// budget instead, see ``DeviceModel/kernel``): what its system made of them.
    let linuxKernel: LinuxKernel?
    /// Linux's books beside the apps (nil: the device has a budget instead), see
    /// ``DeviceModel/kernel``.
    public var kernelBooks: LinuxMemory? { linuxKernel?.books }
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    private var useCounter: UInt64 = 0
    /// The installed apps, most recently used first (ties in installation order), as
    /// ``refreshPriorities()`` walks them; nil when an app was used or installed since it was
    /// sorted (use orders change only in ``touch(_:)``).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    var appsByUseCache: [InstalledApp]?
    /// Memory in use when pressure was last evaluated (a step that changes nothing is not
    /// evaluated again).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    var usedAtLastEvaluation = -1

    /// A device with no app installed yet.
    public init(model: DeviceModel, termination: any TerminationPolicy) {
        self.model = model
        self.system = model.release.memorySystem
        self.termination = termination
        self.pressureSources = [MeasuredPressure(thresholds: model.thresholds)]
        self.pressureSources.append(scripted)
        let compressor = MemoryCompressor(model: model)
        self.compressor = compressor
        self.freezer = MemorystatusFreezer(rules: system.freezer, model: model, pool: compressor?.pool)
        self.swapFile = LinuxSwapFile(model: model)
        self.linuxKernel = system.linuxKernel(for: model)
        // Weak: an app (and the pool it holds) may outlive its device.
        compressor?.pool.onChange = { [weak self] pool in self?.metrics.copyCounters(of: pool) }
    }

    /// Installs an app (not running). Its memory gate is the device's from now on: every
    /// allocation is admitted against the per-app limit and the budget (`admit(_:for:)`).
    public func install(_ app: Application) {
        precondition(!apps.contains { $0.name == app.name }, "an app named \(app.name) is already installed")
        let installed = InstalledApp(app: app)
        apps.append(installed)
        ledgers.append(app.runtime.ledger)
        appsByUseCache = nil
        model.apply(to: app.runtime)
        app.runtime.memoryGate.admission = DeviceAdmission(device: self, installed: installed)
        app.runtime.compressedPool = compressedPool
        app.runtime.swapSpace = swapSpace
        app.runtime.policyCalls = policyCalls
        // The release decides the life cycle, as it decides the memory system.
        app.runtime.lifeCycle = model.os.makeAppLifeCycle()
    }

    /// The memory the apps' anonymous memory may hold: on a device with a budget, the budget;
    /// with the kernel's books, what they leave above the min watermark (the apps' file pages,
    /// the system's and the kernel's taken off).
    public var budgetBytes: Int { linuxKernel?.budgetBytes ?? model.budgetBytes }

    /// Free memory by the kernel's books, bytes (nil: a device with a budget).
    public var kernelFreeBytes: Int? { linuxKernel?.freeBytes(on: self) }

    /// Writes a suspended app's memory to its freezer file and frees it (XNU's freezer,
    /// ``FreezerRules``); what is already in the compressed pool moves to the file as it is. The
    /// app then sits in the frozen band (`memorystatus_freeze_jetsam_band`) and counts as frozen
    /// until it dies.
    @discardableResult
    public func freeze(_ installed: InstalledApp) -> Bool {
        freezer.freeze(installed, limitBytes: nil, on: self) == .frozen
    }

    /// Compresses what a suspended app still holds uncompressed into the pool
    /// (`MemoryCompressor`); false when it could not (nothing is lost: what was compressed of
    /// a failed region is read back).
    @discardableResult
    public func compress(_ installed: InstalledApp) -> Bool { compressor?.compress(installed, on: self) ?? false }

    /// Swaps one region of a suspended app out (``LinuxSwapFile/swapOut(_:on:)``).
    @discardableResult
    func swapOut(_ installed: InstalledApp) -> Bool { swapFile?.swapOut(installed, on: self) ?? false }

    /// The installed app of that name.
    public func installed(_ name: String) -> InstalledApp? { apps.first { $0.name == name } }

    /// Measured bytes all apps hold.
    public var usedBytes: Int {
        var total = 0
        for ledger in ledgers { total += ledger.total }
        return total
    }

    /// Apps whose process exists (running or suspended, frozen included).
    public var cachedAppCount: Int {
        var count = 0
        for installed in apps where installed.app.state.hasProcess { count += 1 }
        return count
    }

    // MARK: - Steps

    /// The foreground app goes home; nothing is in front.
    public func goHome() throws {
        now += 1
        if let current = foreground {
            try sendHome(current)
            activityManager.appLeftFront(current, at: now)
            try finishLeaving(current)
        }
        foreground = nil
        // The launcher comes to the front: the most recent process in Android's LRU.
        useCounter += 1
        activityManager.launcherCameToFront(useOrder: useCounter)
        enforce()
        metrics.sampleCachedApps(cachedAppCount)
    }

    /// Simulated time passes.
    public func idle(seconds: Double) {
        now += max(0, seconds)
        enforce()
        metrics.sampleCachedApps(cachedAppCount)
    }

    /// A scripted memory warning at `level`.
    public func injectWarning(_ level: PressureLevel = .warning) {
        scripted.inject(level)
        enforce()
    }

    /// The app leaves the foreground. Before iOS 4 it is terminated (`willTerminate`, it
    /// saves, the process exits). Since, it enters the background, then is suspended, unless
    /// a background mode or task keeps it running (until ``InstalledApp/backgroundUntil``).
    func sendHome(_ installed: InstalledApp) throws {
        if foreground === installed { foreground = nil }
        guard model.os.hasMultitasking else {
            installed.app.terminate()
            metrics.homeTerminations += 1
            notes.terminatedOnHome = true
            return
        }
        try installed.app.enterBackground(purgingBackingStores: model.purgesBackingStoresInBackground)
        runInBackgroundOrSuspend(installed)
        // Its interface is hidden: the system answers (Android: UI_HIDDEN due, ART's transition).
        system.appLeftFront(installed, on: self)
        refreshPriorities()
    }

    /// The app that left the front is no longer visible (the next one, or the launcher, is in
    /// front): its life cycle's stop (Android: `onStop`, `onSaveInstanceState`). A frozen app
    /// runs no code.
    func finishLeaving(_ installed: InstalledApp?) throws {
        guard let installed, !installed.isFrozen else { return }
        try installed.app.finishLeavingFront()
    }

    func touch(_ installed: InstalledApp) {
        useCounter += 1
        installed.useOrder = useCounter
        appsByUseCache = nil
        installed.lastUsed = now
    }
}
