import PressureLabHeap
/// What a controller holds besides its view: backing stores, cache, model, user data,
/// outlets. Every change is measured and attributed to the controller.
extension ViewController {
    /// Draws every backing store of the view tree that needs it (first show, or after a purge).
    ///
    /// - Returns: the number of layers drawn.
    @discardableResult
    public final func drawBackingStores() -> Int {
        pageInIfCompressed()
        guard let root = viewIfLoaded else { return 0 }
        var drawn = 0
        var drawnBytes = 0
        let start = MonotonicClock.now()
        let workBefore = runtime.work
        runtime.ledger.measure(owner: owner(.backingStore)) {
            let gate = runtime.memoryGate
            let fill = runtime.contents?[.backing]
            root.forEachInTree { view in
                let layer = view.layer
                if layer.displayIfNeeded(gate: gate, fill: fill) {
                    drawn += 1
                    drawnBytes += layer.backingBytes
                }
            }
        }
        guard drawn > 0 else { return 0 }
        runtime.count { $0.bitmapBytesDrawn += drawnBytes }
        noteBuilt(.backingStores, as: .backingStoreRedraw, since: start, workBefore: workBefore)
        record(.backingStoresDrawn)
        return drawn
    }

    /// Frees the backing stores of the view tree and of outlet subviews; they are redrawn
    /// when shown. Never touches a view that is on screen, unless `evenOnScreen` (the system
    /// discarding an app's drawn views as it enters the background).
    ///
    /// - Returns: the number of backing stores freed.
    @discardableResult
    public final func purgeBackingStores(evenOnScreen: Bool = false) -> Int {
        pageInIfCompressed()
        guard evenOnScreen || !appearance.isOnScreen, viewIfLoaded != nil || !outletHolds.isEmpty else { return 0 }
        var purged = 0
        runtime.ledger.measure(owner: owner(.backingStore)) {
            viewIfLoaded?.forEachInTree { view in
                if view.layer.purgeBackingStore() { purged += 1 }
            }
            for outlet in View.outermost(outlets, outside: viewIfLoaded) {
                outlet.forEachInTree { view in
                    if view.layer.purgeBackingStore() { purged += 1 }
                }
            }
        }
        if purged > 0 { record(.backingStoresPurged) }
        return purged
    }

    /// Whether any layer of the loaded view holds a backing store.
    public final var hasBackingStores: Bool {
        var found = false
        viewIfLoaded?.forEachInTree { view in found = found || view.layer.hasBackingStore }
        return found
    }

    /// Fills the cache if the screen declares one and it is empty.
    public final func fillCacheIfNeeded() {
        pageInIfCompressed()
        guard cache == nil, screen.cacheBytes > 0 else { return }
        let start = MonotonicClock.now()
        let workBefore = runtime.work
        runtime.ledger.measure(owner: owner(.cache)) {
            cache = HeapBlock(count: screen.cacheBytes, pattern: 0xCA, gate: runtime.memoryGate, fill: runtime.contents?[.cache])
        }
        guard let filled = cache else { return }
        runtime.count { $0.cacheBytesFilled += filled.count }
        noteBuilt(.cache, as: .cacheRefill, since: start, workBefore: workBefore)
        record(.cacheFilled)
    }

    /// Releases the cache; it is refilled the next time the view appears.
    @discardableResult
    public final func purgeCache() -> Bool {
        pageInIfCompressed()
        guard cache != nil else { return false }
        runtime.ledger.measure(owner: owner(.cache)) { cache = nil }
        record(.cachePurged)
        return true
    }

    /// Reads the model from the bundle if the screen declares one and it is not loaded.
    public final func loadModelIfNeeded() throws {
        pageInIfCompressed()
        guard model == nil, screen.modelBytes > 0 else { return }
        let bundle = runtime.bundle
        let name = screen.name
        try bundle.writePendingModel(for: name)
        let start = MonotonicClock.now()
        let workBefore = runtime.work
        let gate = runtime.memoryGate
        try runtime.ledger.measure(owner: owner(.model)) {
            model = try bundle.readModel(for: name, gate: gate)
        }
        let readBytes = model?.count ?? 0
        runtime.count { work in
            work.storageReadBytes += readBytes
            work.storageReads += 1
        }
        noteBuilt(.model, as: .modelReload, since: start, workBefore: workBefore)
        record(.modelLoaded)
    }

    /// Releases the model; it is read back from disk when the view next appears.
    @discardableResult
    public final func releaseModel() -> Bool {
        pageInIfCompressed()
        guard model != nil else { return false }
        runtime.ledger.measure(owner: owner(.model)) { model = nil }
        record(.modelReleased)
        return true
    }

    /// Records a rebuild's latency (host time since `start`, device time of the work since
    /// `workBefore`) when the thing was built before (a reload); a first build otherwise.
    private func noteBuilt(_ item: ReloadHistory, as kind: ReloadKind, since start: UInt64, workBefore: WorkCounters) {
        let elapsed = MonotonicClock.now() &- start
        let device = runtime.deviceNanoseconds(since: workBefore)
        if reloadHistory.contains(item) {
            runtime.reloadStatistics.record(kind, screen: screen.name, nanoseconds: elapsed, deviceNanoseconds: device)
        } else {
            runtime.reloadStatistics.recordFirstBuild(kind, screen: screen.name, nanoseconds: elapsed, deviceNanoseconds: device)
            reloadHistory.insert(item)
        }
    }

    /// Releases the outlets (what `viewDidUnload` should do). Outlet subviews that are no
    /// longer part of a loaded view die here, bitmaps first (attributed to backing stores).
    public final func releaseOutlets() {
        pageInIfCompressed()
        guard !outletHolds.isEmpty else { return }
        if viewIfLoaded == nil {
            runtime.ledger.measure(owner: owner(.backingStore)) {
                for view in View.outermost(outlets) { view.purgeBackingStoresInTree(sparing: []) }
            }
        }
        runtime.ledger.measure(owner: owner(.viewTree)) {
            SubtreeHold.releaseAll(outletHolds)
            outletHolds = []
        }
        record(.outletsReleased)
    }

    /// Releases the view. Its bitmaps are freed first (attributed to backing stores),
    /// except those of outlet subviews, which live on while the outlets hold them.
    public final func releaseView() {
        pageInIfCompressed()
        guard isViewLoaded else { return }
        // No local reference to the root: the tree must die inside the measured scope.
        runtime.ledger.measure(owner: owner(.backingStore)) {
            viewIfLoaded?.purgeBackingStoresInTree(sparing: outlets)
        }
        runtime.ledger.measure(owner: owner(.viewTree)) {
            viewIfLoaded = nil
            didReleaseView()
        }
        record(.viewReleased)
    }

    /// The user types `bytes` bytes of data into this controller (not recreatable).
    ///
    /// Nothing is typed when the app's memory gate refuses the bytes (the app is being killed).
    public final func type(bytes: Int) {
        pageInIfCompressed()
        precondition(bytes >= 0, "typed bytes must be 0 or more (\(bytes))")
        guard bytes > 0 else { return }
        var typed = false
        runtime.ledger.measure(owner: owner(.userData)) {
            if let block = HeapBlock(count: bytes, pattern: 0x75, gate: runtime.memoryGate, fill: runtime.contents?[.userData]) {
                userData.append(block)
                typed = true
            }
        }
        if typed {
            record(.userDataTyped)
        } else {
            // The user typed it; the process died taking it in: lost when the app ends.
            runtime.lostInputBytes += bytes
        }
    }

    /// The bytes of user data held (declared sizes).
    public final var userDataBytes: Int { userData.reduce(0) { $0 + $1.count } }

    /// The bytes of user data typed since the last save: lost if the process dies now.
    public final var unsavedUserDataBytes: Int {
        userData[min(savedUserDataCount, userData.count)...].reduce(0) { $0 + $1.count }
    }

    /// Puts back user data read from a restoration archive (it counts as saved).
    final func restoreUserData(_ blocks: [HeapBlock]) {
        pageInIfCompressed()
        runtime.ledger.measure(owner: owner(.userData)) { userData = blocks }
        savedUserDataCount = blocks.count
    }
}
