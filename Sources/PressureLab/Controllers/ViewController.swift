import PressureLabHeap

/// A view controller with UIKit's life cycle, holding real memory.
///
/// Its view is loaded lazily (``loadViewIfNeeded()`` or ``view``: `loadView` then
/// `viewDidLoad`, once), it appears and disappears through a ``Window``, and it answers
/// memory warnings as its runtime's ``OSRelease`` did. Everything it holds is real,
/// written heap memory, measured by jemalloc and attributed to it in the runtime's ledger:
/// the view tree, backing stores, a cache (purgeable), a model (recreatable from disk),
/// outlets (strong references to subviews) and user data (not recreatable).
///
/// Subclass it to model your own controller; override the callbacks as in UIKit and call
/// `super` where UIKit expects it (the default `didReceiveMemoryWarning` does the
/// generation's unload work; the default `viewDidUnload` releases outlets).
///
/// ```swift
/// final class Compose: ViewController {
///     override func didReceiveMemoryWarning() {
///         super.didReceiveMemoryWarning()
///         releaseModel()             // this screen's model is cheap to read back
///     }
/// }
/// ```
open class ViewController {
    // A controller belongs to one runtime, used by one thread: its hot stored properties skip
    // the dynamic exclusivity check (two runtime calls and a thread-local lookup per
    // access), which was most of the cost of delivering a warning that releases nothing. Only
    // the properties where a benchmark shows the saving (Benchmarks/README.md, "Exclusivity
    // checks"); compiled out with PRESSURELAB_EXCLUSIVITY_CHECKED (docs/architecture.md).
    /// The runtime the controller lives in.
    public let runtime: RuntimeContext
    /// Where the controller is in its appearance cycle.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public internal(set) var appearance: AppearanceState = .disappeared

    /// The view, if it is loaded; asking never loads it. The controller owns its tree:
    /// when the view is released or replaced, the tree's memory goes, except the subtrees
    /// that outlets hold.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public internal(set) var viewIfLoaded: View? {
        didSet {
            if let old = oldValue, old.tree !== viewIfLoaded?.tree { old.tree.releaseRoot() }
        }
    }
    /// The subviews the controller holds strongly (each keeps its subtree).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    var outletHolds: [SubtreeHold] = []
    /// The purgeable cache, if filled.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public internal(set) var cache: HeapBlock?
    /// The controller's memory in the device's compressed pool, if compressed.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    var compressedMemory: CompressedMemoryStore?
    /// The controller's memory in the device's swap file, if swapped out.
    var swappedMemory: SwapRegion?

    /// Child controllers (a container's stack or tabs), strongly held.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public internal(set) var children: [ViewController] = []
    /// The controller this one presents modally, strongly held.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public internal(set) var presentedViewController: ViewController?
    /// The controller's identity, `screen#instance`.
    public let id: ControllerID
    /// The screen this controller shows.
    public let screen: ScreenSpec
    /// The subviews the controller holds strongly.
    public var outlets: [View] { outletHolds.map(\.view) }
    /// The model read from disk, if loaded.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public internal(set) var model: HeapBlock?
    /// What the user typed: lost if the app dies before saving it.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public internal(set) var userData: [HeapBlock] = []
    /// How many of the ``userData`` blocks the last restoration archive holds.
    public internal(set) var savedUserDataCount = 0
    /// The container this controller is a child of (not retained: no cycles).
    public internal(set) weak var parent: ViewController?
    /// The controller that presents this one (not retained: no cycles).
    public internal(set) weak var presentingViewController: ViewController?
    /// When the view last appeared (the runtime's appearance counter; 0: never).
    public internal(set) var lastAppearance: UInt64 = 0
    /// What has been built once already, so that building it again counts as a reload.
    var reloadHistory: ReloadHistory = []

    /// Makes a controller of `screen`; its view is not loaded.
    public required init(screen: ScreenSpec, runtime: RuntimeContext) {
        self.screen = screen
        self.runtime = runtime
        self.id = runtime.nextIdentity(for: screen.name)
    }

    deinit {
        record(.deinitialized)
        discardCompressedMemory()
        discardSwappedMemory()
        let ledger = runtime.ledger
        ledger.measure(owner: owner(.backingStore)) {
            viewIfLoaded?.purgeBackingStoresInTree(sparing: [])
            for view in View.outermost(outlets, outside: viewIfLoaded) { view.purgeBackingStoresInTree(sparing: []) }
        }
        ledger.measure(owner: owner(.viewTree)) {
            viewIfLoaded = nil
            SubtreeHold.releaseAll(outletHolds)
            outletHolds = []
        }
        ledger.measure(owner: owner(.model)) { model = nil }
        ledger.measure(owner: owner(.cache)) { cache = nil }
        ledger.measure(owner: owner(.userData)) { userData = [] }
        for category in MemoryCategory.allCases {
            ledger.remove(owner: owner(category))
        }
    }

    // MARK: - Loading the view

    /// Whether the view is loaded. Never loads it.
    public final var isViewLoaded: Bool { viewIfLoaded != nil }

    /// The view, loaded first if needed (`loadView`, then `viewDidLoad`).
    public final var view: View {
        get throws {
            try loadViewIfNeeded()
            return viewIfLoaded!
        }
    }

    /// Loads the view if it is not loaded: records and runs `loadView`, then `viewDidLoad`.
    ///
    /// If `loadView` fails, nothing it built stays reachable: the view stays unloaded and
    /// the outlets are as they were.
    public final func loadViewIfNeeded() throws {
        pageInIfCompressed()
        guard viewIfLoaded == nil else { return }
        record(.loadView)
        let start = MonotonicClock.now()
        let workBefore = runtime.work
        // Kept to restore on failure; released inside the measured scope on success, so the
        // old outlet subviews they may keep die there and are attributed to this controller.
        var outletsBefore: [SubtreeHold]? = outletHolds
        try runtime.ledger.measure(owner: owner(.viewTree)) {
            do {
                try loadView()
            } catch {
                viewIfLoaded = nil
                restoreOutlets(outletsBefore ?? [])
                outletsBefore = nil
                throw error
            }
            if viewIfLoaded == nil {
                restoreOutlets(outletsBefore ?? [])
            } else {
                Self.releaseHolds(outletsBefore ?? [], keeping: outletHolds)
            }
            outletsBefore = nil
        }
        guard viewIfLoaded != nil else {
            throw RuntimeError.loadViewSetNoView(controller: id.description)
        }
        record(.viewDidLoad)
        viewDidLoad()
        let elapsed = MonotonicClock.now() &- start
        let device = runtime.deviceNanoseconds(since: workBefore)
        if reloadHistory.contains(.view) {
            runtime.reloadStatistics.record(.viewReload, screen: screen.name, nanoseconds: elapsed, deviceNanoseconds: device)
        } else {
            runtime.reloadStatistics.recordFirstBuild(.viewReload, screen: screen.name, nanoseconds: elapsed,
                                                      deviceNanoseconds: device)
            reloadHistory.insert(.view)
        }
    }

    /// Builds the view. The default reads the screen's view description from the bundle,
    /// decodes it, builds the tree and connects the outlets, as loading a nib does.
    ///
    /// An override must call `setView(_:)` (or `super.loadView()`).
    open func loadView() throws {
        let description: ViewDescription
        do {
            description = try runtime.bundle.readDescription(for: screen.name)
            try description.checkFits(in: runtime.memoryLimit)
        } catch {
            throw RuntimeError.viewLoadFailed(controller: id.description, cause: error)
        }
        runtime.countDescriptionRead(description)
        setView(View.build(from: description, gate: runtime.memoryGate, fill: runtime.contents?[.view]))
        connectOutlets()
    }

    /// Called once the view is loaded.
    open func viewDidLoad() {}

    /// Sets (or clears) the view; the controller takes ownership of its tree. Clearing or
    /// replacing it releases the old tree, except subviews that outlets still hold.
    ///
    /// - Precondition: `view` is the root of a tree built by `View/build(from:)` that no
    ///   controller owns yet (a view has one owner, as a UIKit view has one controller).
    public final func setView(_ view: View?) {
        pageInIfCompressed()
        if let view, view != viewIfLoaded {
            precondition(view.index == 0 && view.tree.isRootHeld && !view.tree.isClaimed,
                         "setView takes the root of a newly built tree that no controller owns (\(id))")
            view.tree.claim()
        }
        viewIfLoaded = view
    }

    /// Puts back the outlets a failed load replaced, releasing the ones it connected.
    private func restoreOutlets(_ before: [SubtreeHold]) {
        let connected = outletHolds
        outletHolds = before
        Self.releaseHolds(connected, keeping: before)
    }

    // MARK: - Callbacks (override as in UIKit; the runtime records each before it runs)

    /// The view is about to be added to the window.
    open func viewWillAppear(_ animated: Bool) {}
    /// The view is in the window.
    open func viewDidAppear(_ animated: Bool) {}
    /// The view is about to leave the window.
    open func viewWillDisappear(_ animated: Bool) {}
    /// The view has left the window.
    open func viewDidDisappear(_ animated: Bool) {}
    /// The view's bounds are set; its subviews are about to be laid out.
    open func viewWillLayoutSubviews() {}
    /// The view's subviews are laid out.
    open func viewDidLayoutSubviews() {}

    /// The app received a memory warning. The default does what the runtime's
    /// ``OSRelease`` did for a controller whose view is not on screen (see
    /// ``performDefaultMemoryWarningResponse()``); an override should call `super`.
    open func didReceiveMemoryWarning() {
        performDefaultMemoryWarningResponse()
    }

    /// The child whose view is on screen when this controller's is (containers override:
    /// a navigation controller's top, a tab bar controller's selected tab).
    open var visibleChild: ViewController? { nil }

    /// Visits views the controller holds outside its view tree and outlets (a table's
    /// cells); the freezer pages them out too.
    open func forEachAdditionalView(_ body: (View) -> Void) {}

    /// Called after the view was released (by a warning or by hand), before
    /// `viewDidUnload`; containers and tables drop what hangs off the view. Not a UIKit callback.
    open func didReleaseView() {}

    /// iOS 5: the view is about to be released by the unload cycle.
    open func viewWillUnload() {}

    /// iPhone OS 3 to iOS 5: the view was released by the unload cycle. The default
    /// releases the outlets when the screen says it does (`releasesOutlets`).
    open func viewDidUnload() {
        if screen.releasesOutlets { releaseOutlets() }
    }

    // MARK: - Helpers for subclasses and the runtime

    /// The ledger key of one of this controller's categories.
    @inline(__always)
    public final func owner(_ category: MemoryCategory) -> MemoryOwner {
        MemoryOwner(controller: id, category: category)
    }

    /// Records an event for this controller in the runtime's trace.
    @inline(__always)
    public final func record(_ kind: TraceEventKind) {
        let trace = runtime.trace
        guard trace.isEnabled else { return }
        trace.record(app: runtime.app, controller: id, kind)
    }

    /// The measured bytes this controller holds, by category.
    public final var measuredBytes: [MemoryCategory: Int] { runtime.measuredBytes(of: id) }

    /// The measured bytes this controller holds in all.
    public final var measuredTotalBytes: Int { measuredBytes.values.reduce(0, +) }
}
