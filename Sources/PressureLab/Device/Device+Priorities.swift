/// Each app's priority as the systems keep it, and the snapshots termination policies see.
///
/// XNU keeps a list per jetsam band and appends a process at its tail whenever its priority
/// is updated; jetsam and the freezer take from the head (`memstat_update_priority_locked`,
/// `memorystatus_kill_top_process`). lmkd keeps a list per `oom_score_adj`, slots a process
/// at the head when its adj is set and kills from the tail (`lmkd.c`, `adjslot_insert`,
/// `proc_adj_lru`). The device stamps both orders as the priorities change.
extension Device {
    /// Recomputes every app's band (with aging) and `oom_score_adj`, stamping the order of
    /// each change. Apps whose priority changes together keep their relative order.
    func refreshPriorities() {
        let rules = system.jetsam
        // Bands.
        var moved: [(InstalledApp, JetsamBand)] = []
        for installed in apps {
            let state = installed.app.state
            let isFront = installed === foreground
            if !state.hasProcess {
                installed.agingUntil = nil
            } else if installed.band > .idle, !isFront, !installed.hasBeenFrozen, state == .suspended,
                      installed.agingUntil == nil, installed.band != rules.appAging?.band, let aging = rules.appAging {
                // An idle request from a higher band ages first (memstat_update_priority_locked).
                installed.agingUntil = now + aging.seconds
            }
            if isFront || state.isRunning { installed.agingUntil = nil }
            let aging = installed.agingUntil.map { now < $0 } ?? false
            let band = state.hasProcess
                ? rules.band(isForeground: isFront, state: state, frozen: installed.hasBeenFrozen, aging: aging) : .idle
            if band != installed.band || !state.hasProcess && installed.bandOrder != 0 { moved.append((installed, band)) }
        }
        for (installed, band) in moved.sorted(by: { $0.0.bandOrder < $1.0.bandOrder }) {
            installed.band = band
            if installed.app.state.hasProcess {
                priorityCounter += 1
                installed.bandOrder = priorityCounter
            } else {
                installed.bandOrder = 0
            }
        }
        // oom_score_adj, in OomAdjuster's walk: most recently used first (one stable sort,
        // kept until an app is used or installed); the cached apps, taken from it in order,
        // are ranked as they come.
        let expiredPrevious = system.previousAppHasExpired(since: activityManager.previousSince, now: now)
        let byUse = appsByUse()
        var cachedCount = 0
        for installed in byUse where isCachedApp(installed) { cachedCount += 1 }
        let cachedAdjs = LowMemoryKillerRules.cachedAdjs(count: cachedCount)
        // Nothing below changes whether an app is cached: the ranks are counted again as the
        // walk goes.
        var cachedRank = 0
        for installed in byUse {
            let adj: Int
            if isCachedApp(installed) {
                adj = cachedAdjs[cachedRank]
                cachedRank += 1
            } else if expiredPrevious, installed === previous, installed.app.state.hasProcess {
                // Android 14's expired previous app: `PROCESS_STATE_LAST_ACTIVITY`, adj
                // `CACHED_APP_MIN_ADJ` exactly ("previous-expired", `computeOomAdjLSP`); it takes
                // no cached slot and does not count against the cached limit.
                adj = LowMemoryKillerRules.cachedAdjRange.lowerBound
            } else {
                adj = LowMemoryKillerPolicy.oomScoreAdj(isForeground: installed === foreground,
                                                        runningInBackground: installed.runningBackgroundMode, cachedRank: nil,
                                                        isPrevious: installed === previous && !expiredPrevious)
            }
            let wasCached = installed.oomScoreAdj >= LowMemoryKillerRules.cachedAdjRange.lowerBound
                && installed.oomScoreAdj < LowMemoryKillerRules.notRunningAdj
            let isCached = adj >= LowMemoryKillerRules.cachedAdjRange.lowerBound && adj < LowMemoryKillerRules.notRunningAdj
            if isCached, !wasCached { installed.cachedSince = now }
            if !isCached { installed.cachedSince = nil }
            if adj != installed.oomScoreAdj {
                installed.oomScoreAdj = adj
                priorityCounter += 1
                installed.adjOrder = priorityCounter
            }
        }
        if system.seesSecondaryProcesses { refreshProcessPriorities(byUse: byUse) }
    }

    /// Every secondary process's `oom_score_adj`, after its app's (the same update's walk: a
    /// process whose adj changes with its client's is slotted after it). Started services by
    /// ``LowMemoryKillerRules/serviceAdjs(count:)`` while within `MAX_SERVICE_INACTIVITY` of
    /// their app's last use; bound and isolated processes (and services past it) follow their
    /// client, ``LowMemoryKillerRules/boundProcessAdj(clientAdj:)``.
    private func refreshProcessPriorities(byUse: [InstalledApp]) {
        var services: [SecondaryProcess] = []
        for installed in byUse where installed.app.state.hasProcess {
            for process in installed.processes where process.spec.kind == .service && installed.app.isRunning(process: process.spec)
                && now < installed.lastUsed + LowMemoryKillerRules.maxServiceInactivitySeconds {
                services.append(process)
            }
        }
        let serviceAdjs = LowMemoryKillerRules.serviceAdjs(count: services.count)
        var serviceAdj: [ObjectIdentifier: Int] = [:]
        for (process, adj) in zip(services, serviceAdjs) { serviceAdj[ObjectIdentifier(process)] = adj }
        for installed in byUse {
            for process in installed.processes {
                let adj: Int
                if !installed.app.state.hasProcess || !installed.app.isRunning(process: process.spec) {
                    adj = LowMemoryKillerRules.notRunningAdj
                } else if let service = serviceAdj[ObjectIdentifier(process)] {
                    adj = service
                } else {
                    adj = LowMemoryKillerRules.boundProcessAdj(clientAdj: installed.oomScoreAdj)
                }
                if adj != process.oomScoreAdj {
                    process.oomScoreAdj = adj
                    priorityCounter += 1
                    process.adjOrder = priorityCounter
                }
            }
        }
    }

    /// The secondary processes that run, as a policy sees them. The processes of the app whose
    /// allocation waits (`sparing`) are left out: its memory is being counted (they go only
    /// after the step, when memory is read again).
    func processSnapshots(sparing: InstalledApp?) -> [ProcessSnapshot] {
        guard system.seesSecondaryProcesses else { return [] }
        var out: [ProcessSnapshot] = []
        for installed in apps where installed.app.state.hasProcess && installed !== sparing {
            let clientAdj = installed.oomScoreAdj
            for process in installed.processes where installed.app.isRunning(process: process.spec) {
                // A bound or isolated process follows its client; a started service does not.
                let isBound = process.spec.kind != .service
                let adj = process.oomScoreAdj
                // A started service's process state stays a service's, counted with neither
                // the cached nor the empty processes (`updateOomAdjLocked`'s default case).
                out.append(ProcessSnapshot(name: process.name, app: installed.name, kind: process.spec.kind,
                                           bytes: installed.app.bytes(of: process.spec), oomScoreAdj: adj,
                                           adjOrder: process.adjOrder, useOrder: installed.useOrder,
                                           isEmpty: isBound && LowMemoryKillerRules.cachedAdjRange.contains(clientAdj)))
            }
        }
        return out
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
        var frozenCount = 0
        var refreezeEligibleCount = 0
        for installed in apps where installed.hasBeenFrozen && installed.app.state.hasProcess {
            frozenCount += 1
            if installed.isRefreezeEligible { refreezeEligibleCount += 1 }
        }
        freezerState.budget.advance(to: now)
        let freezerState = FreezerSnapshot(budgetBytes: freezerBudget.remainingBytes, frozenCount: frozenCount,
                                           refreezeEligibleCount: refreezeEligibleCount,
                                           mayRunNow: now >= freezerState.nextRun)
        var state = DeviceSnapshot(apps: snapshots, usedBytes: used, budgetBytes: model.budgetBytes,
                              level: emergencyBytes > 0 ? .critical : level,
                              bytesToFree: max(0, used - min(target, model.budgetBytes)),
                              freezeBudgetBytes: freezerBudget.remainingBytes, runningAppsWarned: warned,
                              release: model.release, memoryBytes: model.memoryBytes,
                              now: now, emergencyBytes: emergencyBytes, hasCompressor: compressedPool != nil,
                              compressorFull: compressedPool != nil && compressionCandidate(sparing: sparing) == nil,
                              freezer: freezerState)
        let zramTotal = compressedPool == nil ? 0 : model.zramBytes ?? 0
        let swapFile = swapSpace.map { ($0.capacityBytes, $0.usedBytes) } ?? (0, 0)
        state.swapTotalBytes = zramTotal + swapFile.0
        state.swapFreeBytes = max(0, zramTotal - (zramTotal > 0 ? zramUsedBytes : 0)) + max(0, swapFile.0 - swapFile.1)
        state.easyAvailableBytes = max(0, model.budgetBytes - used) + cleanResidentBytes
        state.trimMemFactor = activityManager.memFactor
        state.trimProcessCount = activityManager.processCount
        state.allowLowerMemLevel = activityManager.allowLowerMemLevel
        state.launcherUseOrder = activityManager.launcherUseOrder
        state.eventLevel = state.level
        state.processes = processSnapshots(sparing: sparing)
        state.lowPressureUsedBytes = Int(model.thresholds.warningRise * Double(model.budgetBytes))
        return state
    }

    /// Whether the app is one of Android's cached apps holding activities
    /// (`PROCESS_STATE_CACHED_ACTIVITY`): it has a process and is neither in front, nor the
    /// previous app (expired or not: an expired one is `PROCESS_STATE_LAST_ACTIVITY` on
    /// Android 14), nor running in the background.
    private func isCachedApp(_ installed: InstalledApp) -> Bool {
        installed !== foreground && installed.app.state.hasProcess && installed.runningBackgroundMode == nil
            && installed !== previous
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
