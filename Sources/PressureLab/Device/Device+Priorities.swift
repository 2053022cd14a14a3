/// Each app's priority as the systems keep it (jetsam's band lists, XNUMemoryStatus+Bands.swift;
/// lmkd's `oom_score_adj` slots, AndroidMemoryManagement+Adjs.swift), and the snapshots
/// termination policies see.
extension Device {
    /// Recomputes every app's priority in its system's books (``MemorySystem/updatePriorities(of:)``:
    /// XNU's bands and Android's `oom_score_adj`, both kept on every device, since a
    /// termination policy of either family may run on it).
    func refreshPriorities() {
        system.updatePriorities(of: self)
    }

    /// The installed apps, most recently used first; equal use orders keep installation
    /// order (one stable sort, done again only after an app is used or installed).
    func appsByUse() -> [InstalledApp] {
        if let sorted = appsByUseCache { return sorted }
        let sorted = apps.map { (order: $0.useOrder, app: $0) }.sorted { $0.order > $1.order }.map(\.app)
        appsByUseCache = sorted
        return sorted
    }

    /// Every installed app's snapshot, in installation order.
    func snapshots() -> [AppSnapshot] {
        apps.map(snapshot(of:))
    }

    /// `installed` as a policy sees it now (``AppSnapshot/init(of:on:)``).
    func snapshot(of installed: InstalledApp) -> AppSnapshot { AppSnapshot(of: installed, on: self) }

    /// The device as the policy sees it now.
    ///
    /// - Parameters:
    ///   - emergency: bytes an allocation waits for (0: none), and the app whose allocation
    ///     waits (treated as in front).
    func deviceSnapshot(used: Int, target: Int, emergencyBytes: Int = 0, sparing: InstalledApp? = nil,
                        warned: Bool) -> DeviceSnapshot {
        var snapshots = snapshots()
        // The app whose allocation waits is treated as in front: top band, adj 0.
        if let sparing, let index = apps.firstIndex(where: { $0 === sparing }) { snapshots[index].treatAsInFront() }
        let freezerState = freezer.snapshot(of: apps, now: now)
        var state = DeviceSnapshot(apps: snapshots, usedBytes: used, budgetBytes: budgetBytes,
                              level: emergencyBytes > 0 ? .critical : level,
                              bytesToFree: max(0, used - min(target, budgetBytes)),
                              freezeBudgetBytes: freezerBudget.remainingBytes, runningAppsWarned: warned,
                              release: model.release, memoryBytes: model.memoryBytes,
                              now: now, emergencyBytes: emergencyBytes, hasCompressor: compressedPool != nil,
                              compressorFull: compressor != nil && compressor?.candidate(sparing: sparing, on: self) == nil,
                              freezer: freezerState)
        // Swap as `/proc/meminfo` counts it: zram's and the swap file's.
        compressor?.readSwap(into: &state, on: self)
        swapFile?.readSwap(into: &state)
        state.easyAvailableBytes = max(0, budgetBytes - used) + cleanResidentBytes
        // Linux's books: lmkd's reading and the OOM killer's total.
        linuxKernel?.pressureRead(into: &state, on: self)
        activityManager.read(into: &state)
        state.eventLevel = state.level
        state.processes = activityManager.processSnapshots(sparing: sparing, on: self)
        state.lowPressureUsedBytes = Int(model.thresholds.warningRise * Double(budgetBytes))
        return state
    }

    /// The app's jetsam band.
    public func band(of installed: InstalledApp) -> JetsamBand {
        refreshPriorities()
        return installed.band
    }

    /// The app's Android `oom_score_adj`.
    public func oomScoreAdj(of installed: InstalledApp) -> Int {
        refreshPriorities()
        return installed.oomScoreAdj
    }
}
