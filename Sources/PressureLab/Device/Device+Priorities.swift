/// Each app's priority as the systems keep it, and the snapshots termination policies see.
///
/// XNU keeps a list per jetsam band and appends a process at its tail whenever its priority
/// is updated; jetsam and the freezer take from the head (`memstat_update_priority_locked`,
/// `memorystatus_kill_top_process`). lmkd keeps a list per `oom_score_adj`, slots a process
/// at the head when its adj is set and kills from the tail (`lmkd.c`, `adjslot_insert`,
/// `proc_adj_lru`). The device stamps both orders as the priorities change.
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

    func snapshot(of installed: InstalledApp) -> AppSnapshot {
        var snapshot = AppSnapshot(name: installed.name, state: installed.app.state, isForeground: installed === foreground,
                    isFrozen: installed.isFrozen, bytes: system.policyBytes(of: installed),
                    lastUsed: installed.lastUsed,
                    useOrder: installed.useOrder, band: installed.band, oomScoreAdj: installed.oomScoreAdj,
                    isCompressed: installed.isCompressed, footprintBytes: installed.footprintBytes,
                    bandOrder: installed.bandOrder, adjOrder: installed.adjOrder, hasBeenFrozen: installed.hasBeenFrozen,
                    isRefreezeEligible: installed.isRefreezeEligible, runningBackgroundMode: installed.runningBackgroundMode,
                    isPrevious: installed === previous, trimLevel: installed.trimLevel,
                    isUIHiddenPending: installed.isUIHiddenPending, cachedSince: installed.cachedSince)
        let runtime = installed.app.runtime
        snapshot.anonResidentBytes = installed.bytes - runtime.compressedBytes
        snapshot.cleanResidentBytes = installed.app.cleanResidentBytes
        snapshot.swappedBytes = runtime.compressedOriginalBytes + runtime.swappedBytes
        snapshot.lastCompaction = installed.lastCompaction
        return snapshot
    }

    /// The device as the policy sees it now.
    ///
    /// - Parameters:
    ///   - emergency: bytes an allocation waits for (0: none), and the app whose allocation
    ///     waits (treated as in front).
    func deviceSnapshot(used: Int, target: Int, emergencyBytes: Int = 0, sparing: InstalledApp? = nil,
                        warned: Bool) -> DeviceSnapshot {
        var snapshots = snapshots()
        // The app whose allocation waits is treated as in front: top band, adj 0.
        if let sparing, let index = apps.firstIndex(where: { $0 === sparing }) {
            snapshots[index].isForeground = true
            snapshots[index].band = .foreground
            snapshots[index].oomScoreAdj = LowMemoryKillerRules.foregroundAdj
        }
        let freezerState = freezer.snapshot(of: apps, now: now)
        var state = DeviceSnapshot(apps: snapshots, usedBytes: used, budgetBytes: budgetBytes,
                              level: emergencyBytes > 0 ? .critical : level,
                              bytesToFree: max(0, used - min(target, budgetBytes)),
                              freezeBudgetBytes: freezerBudget.remainingBytes, runningAppsWarned: warned,
                              release: model.release, memoryBytes: model.memoryBytes,
                              now: now, emergencyBytes: emergencyBytes, hasCompressor: compressedPool != nil,
                              compressorFull: compressor != nil && compressor?.candidate(sparing: sparing, on: self) == nil,
                              freezer: freezerState)
        let zramTotal = compressedPool == nil ? 0 : model.zramBytes ?? 0
        let swapFile = swapSpace.map { ($0.capacityBytes, $0.usedBytes) } ?? (0, 0)
        state.swapTotalBytes = zramTotal + swapFile.0
        state.swapFreeBytes = max(0, zramTotal - (zramTotal > 0 ? compressor?.usedBytes(on: self) ?? 0 : 0)) + max(0, swapFile.0 - swapFile.1)
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
