import PressureLabHeap

/// What the controllers of one app share: the bundle they load from, the trace they
/// record into, the OS generation they behave as, and the ledger their bytes go to.
///
/// ```swift
/// let runtime = try RuntimeContext(app: "photos", generation: .iPhoneOS3)
/// try runtime.register(ScreenSpec(name: "detail", view: .tree(depth: 3, fanout: 4, bytes: 2048)))
/// let detail = try runtime.makeController(screen: "detail")
/// _ = try detail.view            // loadView, viewDidLoad
/// ```
///
/// A runtime and its controllers are confined to one thread.
public final class RuntimeContext {
    /// The app's name, stamped on trace events.
    public let app: String
    /// Where view descriptions and model files live.
    public let bundle: ViewBundle
    /// Every callback and state change, in order.
    public let trace: TraceRecorder
    /// The UIKit generation whose default memory-warning behaviour controllers follow.
    public var generation: OSRelease
    /// Measured bytes per controller and category.
    public let ledger: OwnerLedger<MemoryOwner>
    /// The most bytes one view tree may declare (a safe share of the host's memory).
    public var memoryLimit: Int
    /// The window the app's controllers are shown in, if any (not retained).
    public internal(set) weak var window: Window?
    /// Measured reload latencies, per kind and per screen (may be shared by the apps of a run).
    public let reloadStatistics: ReloadStatistics
    /// Admits or refuses every allocation of the app's simulated memory (the device installs
    /// its limits here).
    public let memoryGate = MemoryGate()
    /// The work the app did so far (files read and written, views decoded and laid out,
    /// bitmaps drawn, ...), counted as it happens: what device time is computed from.
    ///
    /// A runtime is used by one thread, so the counters skip the dynamic exclusivity checks
    /// (two runtime calls per access) that every count and every latency would otherwise pay
    /// (measured: Benchmarks/README.md, "Exclusivity checks").
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public internal(set) var work = WorkCounters()
    /// Whether work is counted (off only to measure what counting costs).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public var isCountingWork = true
    /// The costs of the modelled device: with one, every latency also has a device time.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public var costModel: CostModel? {
        didSet { reloadStatistics.expectsDeviceTime = costModel != nil }
    }
    /// The compressor that (de)compression work is charged to.
    public var compressor: Compressor = .none
    /// What memory is filled with: realistic, compressible contents per kind (nil: a
    /// constant pattern). Model files declared before it is set are filled with it too (they
    /// are written when first read).
    public var contents: MemoryContents? {
        didSet { bundle.refillPendingModels(contents?[.model]) }
    }
    /// The page size compression works in.
    public var pageBytes = 4096
    /// The device's compressed pool, when the device compresses (set when installed).
    public internal(set) var compressedPool: CompressedPool?
    /// Regions of this app's memory in the pool now, and the bytes the pool holds for them
    /// (part of the app's footprint: the ledger counts them too). Read by the device for
    /// every app at every step (snapshots, footprints): no dynamic exclusivity checks.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public internal(set) var compressedRegions = 0
    /// Bytes of this app's memory in the compressed pool now (their compressed size).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public internal(set) var compressedBytes = 0
    /// The device's swap file, when it has one (set when installed), and the bytes of this
    /// app's memory in it now.
    public internal(set) var swapSpace: SwapSpace?
    /// (Bytes of this app's memory in the swap file now.)
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public internal(set) var swappedBytes = 0
    /// The uncompressed size of what the pool holds for the app (XNU counts it in the
    /// app's footprint: ``Device/InstalledApp/footprintBytes``).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public internal(set) var compressedOriginalBytes = 0

    /// The device time of the work done since `before` (nil without a cost model).
    public func deviceNanoseconds(since before: WorkCounters) -> UInt64? {
        costModel?.nanoseconds(for: work - before, compressor: compressor)
    }

    /// Counts reading and decoding a view description file: its bytes (the file format's
    /// size for that many views) and its views.
    func countDescriptionRead(_ description: ViewDescription) {
        let bytes = ViewDescriptionCodec.fileBytes(viewCount: description.viewCount)
        count { work in
            work.storageReadBytes += bytes
            work.storageReads += 1
            work.viewsDecoded += description.viewCount
        }
    }

    /// Counts a change of the work counters (a no-op when counting is off).
    @inline(__always)
    func count(_ change: (inout WorkCounters) -> Void) {
        if isCountingWork { change(&work) }
    }

    /// Bytes the user typed that the app had no memory to take in (its allocation was
    /// refused as it was being killed): lost when the process ends.
    public internal(set) var lostInputBytes = 0
    /// The app life cycle the app runs (UIKit's unless a device of another release installs its
    /// own, ``OSRelease/makeAppLifeCycle()``); its trace leaves out the kinds it omits.
    public var lifeCycle: any AppLifeCycle = UIKitLifeCycle() {
        didSet { trace.omittedKinds = lifeCycle.omittedKinds }
    }
    /// What releases memory on a warning or trim: nil means each controller does what its
    /// ``OSRelease``'s default `didReceiveMemoryWarning` did.
    public var cleanupPolicy: (any CleanupPolicy)? {
        didSet { hasCleanupPolicy = cleanupPolicy != nil }
    }
    /// Whether a cleanup policy is installed (read on every warning; cheaper than the existential).
    private(set) var hasCleanupPolicy = false
    /// Marks the cleanup policy's calls (the device's marker once installed on one).
    public internal(set) var policyCalls = PolicyCallMarker()
    /// The cleanup policy's mistakes not yet collected by the device (``PolicyMistake``).
    public internal(set) var policyMistakes: [PolicyMistake] = []
    /// What cleanups released so far.
    public internal(set) var cleanupCounters = CleanupCounters()
    /// The plan of the cleanup being delivered, by controller.
    var pendingCleanup: [ControllerID: Set<ReleasableItem>] = [:]
    var pendingUnloadStyle: ViewUnloadStyle = .unloadCycle
    private var appearanceCounter: UInt64 = 0

    private var screens: [String: ScreenSpec] = [:]
    private var instanceCounters: [String: Int] = [:]

    /// Creates a runtime with its own temporary bundle (removed with the runtime).
    public convenience init(app: String = "app", generation: OSRelease = .iOS6,
                            trace: TraceRecorder = TraceRecorder(),
                            reloadStatistics: ReloadStatistics = ReloadStatistics()) throws(RuntimeError) {
        try self.init(app: app, generation: generation, bundle: ViewBundle(temporaryWithPrefix: app), trace: trace,
                      reloadStatistics: reloadStatistics)
    }

    /// Creates a runtime over an existing bundle.
    public init(app: String, generation: OSRelease, bundle: ViewBundle, trace: TraceRecorder,
                memoryLimit: Int = HostMemory.current().safeLimit(), reloadStatistics: ReloadStatistics = ReloadStatistics()) {
        self.reloadStatistics = reloadStatistics
        self.app = app
        self.generation = generation
        self.bundle = bundle
        self.trace = trace
        self.ledger = OwnerLedger()
        self.memoryLimit = memoryLimit
    }

    /// Declares a screen: checks it and writes its view description and model file.
    public func register(_ screen: ScreenSpec) throws(RuntimeError) {
        try screen.validate()
        do {
            try screen.view.checkFits(in: memoryLimit)
        } catch {
            throw .invalidScreen(screen: screen.name, reason: error.description)
        }
        try bundle.write(screen.view, for: screen.name)
        if let table = screen.table {
            try bundle.write(table.cell, for: TableSpec.cellDescriptionName(for: screen.name))
        }
        bundle.declareModel(bytes: screen.modelBytes, for: screen.name, fill: contents?[.model])
        screens[screen.name] = screen
        sortedRandomScreens = nil
    }

    /// The registered screen of that name.
    public func screen(named name: String) throws(RuntimeError) -> ScreenSpec {
        guard let screen = screens[name] else { throw .unknownScreen(name) }
        return screen
    }

    /// The registered screens, by name.
    public var registeredScreens: [String: ScreenSpec] { screens }

    /// The registered screens a random step may show, in name order: all but the containers'
    /// own (`ui-`). Kept as screens register, rather than filtered and sorted on every step.
    public var randomScreenNames: [String] {
        if let sortedRandomScreens { return sortedRandomScreens }
        let names = screens.keys.filter { !$0.hasPrefix("ui-") }.sorted()
        sortedRandomScreens = names
        return names
    }
    private var sortedRandomScreens: [String]?

    /// Makes a new controller of a registered screen (its view is not loaded): a
    /// ``TableViewController`` for a table screen, a plain ``ViewController`` otherwise.
    public func makeController(screen name: String) throws(RuntimeError) -> ViewController {
        let spec = try screen(named: name)
        return spec.table != nil ? TableViewController(screen: spec, runtime: self) : ViewController(screen: spec, runtime: self)
    }

    /// What a cleanup policy sees of these controllers.
    public func cleanupContext(for controllers: [ViewController], trigger: CleanupTrigger,
                               targetBytes: Int?) -> CleanupContext {
        CleanupContext(
            trigger: trigger,
            controllers: controllers.map { controller in
                ControllerState(controller: controller, isOnScreen: controller.appearance.isOnScreen,
                                lastAppearance: controller.lastAppearance, bytes: measuredBytes(of: controller.id))
            },
            targetBytes: targetBytes, statistics: reloadStatistics)
    }

    /// Plans a cleanup with the installed policy and makes it the pending one, delivered
    /// as controllers receive the warning. Returns the plan (empty without a policy).
    @discardableResult
    func prepareCleanup(for controllers: [ViewController], trigger: CleanupTrigger, targetBytes: Int?) -> CleanupPlan {
        guard let policy = cleanupPolicy else { return CleanupPlan() }
        let context = cleanupContext(for: controllers, trigger: trigger, targetBytes: targetBytes)
        var plan = policyCalls.marking(.plan) { policy.plan(for: context) }
        // A release of a controller the plan was not asked about is the policy's mistake.
        let asked = Set(controllers.map(\.id))
        for (id, items) in plan.releases.sorted(by: { $0.key < $1.key }) where !asked.contains(id) {
            plan.releases[id] = nil
            policyMistakes.append(PolicyMistake(
                kind: .cleanup, policy: policy.name, call: .plan,
                action: "release \(items.sorted().map(\.rawValue).joined(separator: ", ")) of \(id)",
                reason: .foreignController(id, app: app)))
        }
        pendingCleanup = plan.releases
        pendingUnloadStyle = plan.viewUnloadStyle
        return plan
    }

    /// Carries out what the pending plan still holds (controllers the warning did not reach).
    func finishCleanup(_ controllers: [ViewController]) {
        guard !pendingCleanup.isEmpty else { return }
        for controller in controllers {
            if let items = pendingCleanup.removeValue(forKey: controller.id) {
                controller.performCleanup(items, style: pendingUnloadStyle)
            }
        }
        pendingCleanup = [:]
    }

    /// The next value of the appearance counter (recency for LRU policies).
    func nextAppearance() -> UInt64 {
        appearanceCounter += 1
        return appearanceCounter
    }

    /// The next identity for a controller of `screen`.
    func nextIdentity(for screen: String) -> ControllerID {
        let instance = (instanceCounters[screen] ?? 0) + 1
        instanceCounters[screen] = instance
        return ControllerID(screen: screen, instance: instance)
    }

    /// The measured bytes a controller holds, by category.
    public func measuredBytes(of controller: ControllerID) -> [MemoryCategory: Int] {
        var bytes: [MemoryCategory: Int] = [:]
        for category in MemoryCategory.allCases {
            bytes[category] = ledger.balance(of: MemoryOwner(controller: controller, category: category))
        }
        return bytes
    }
}
