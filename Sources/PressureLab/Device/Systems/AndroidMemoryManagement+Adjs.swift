/// `oom_score_adj` as ActivityManager's `OomAdjuster` sets it and lmkd keeps it: a list per
/// adj, a process slotted at the head when its adj is set, kills from the tail (`lmkd.c`,
/// `adjslot_insert`, `proc_adj_lru`). docs/fidelity.md, "Android".
extension AndroidMemoryManagement {
    /// Every app's `oom_score_adj`, in OomAdjuster's walk: most recently used first (`byUse`);
    /// the cached apps, taken from it in order, are ranked as they come. Each change is stamped
    /// from `order`.
    ///
    /// - Parameter previousExpired: whether the previous app has expired (Android 14,
    ///   ``MemorySystem/previousAppHasExpired(since:now:)``).
    static func updateAdjs(of byUse: [Device.InstalledApp], foreground: Device.InstalledApp?,
                           previous: Device.InstalledApp?, previousExpired: Bool, now: Double, order: inout UInt64) {
        // Whether the app is one of Android's cached apps holding activities
        // (`PROCESS_STATE_CACHED_ACTIVITY`): it has a process and is neither in front, nor the
        // previous app (expired or not: an expired one is `PROCESS_STATE_LAST_ACTIVITY` on
        // Android 14), nor running in the background.
        func isCachedApp(_ installed: Device.InstalledApp) -> Bool {
            installed !== foreground && installed.app.state.hasProcess && installed.runningBackgroundMode == nil
                && installed !== previous
        }
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
            } else if previousExpired, installed === previous, installed.app.state.hasProcess {
                // Android 14's expired previous app: `PROCESS_STATE_LAST_ACTIVITY`, adj
                // `CACHED_APP_MIN_ADJ` exactly ("previous-expired", `computeOomAdjLSP`); it takes
                // no cached slot and does not count against the cached limit.
                adj = LowMemoryKillerRules.cachedAdjRange.lowerBound
            } else {
                // "fg-service-act": `lastTopTime` + `TOP_TO_FGS_GRACE_DURATION` > now.
                let recentlyInFront = installed.processRecord.lastTopTime
                    .map { $0 + LowMemoryKillerRules.topToForegroundServiceGraceSeconds > now } ?? false
                adj = LowMemoryKillerRules.oomScoreAdj(isForeground: installed === foreground,
                                                       runningInBackground: installed.runningBackgroundMode, cachedRank: nil,
                                                       isPrevious: installed === previous && !previousExpired,
                                                       recentlyInFront: recentlyInFront)
            }
            let wasCached = installed.oomScoreAdj >= LowMemoryKillerRules.cachedAdjRange.lowerBound
                && installed.oomScoreAdj < LowMemoryKillerRules.notRunningAdj
            let isCached = adj >= LowMemoryKillerRules.cachedAdjRange.lowerBound && adj < LowMemoryKillerRules.notRunningAdj
            if isCached, !wasCached { installed.cachedSince = now }
            if !isCached { installed.cachedSince = nil }
            if adj != installed.oomScoreAdj {
                installed.oomScoreAdj = adj
                order += 1
                installed.adjOrder = order
            }
        }
    }

    /// Every secondary process's `oom_score_adj`, after its app's (the same update's walk: a
    /// process whose adj changes with its client's is slotted after it). Started services by
    /// ``LowMemoryKillerRules/serviceAdjs(count:)`` while within `MAX_SERVICE_INACTIVITY` of
    /// their app's last use, and past it an empty slot, ``LowMemoryKillerRules/emptySlotAdjs(count:)``
    /// (their app's use order taken as their place in the LRU list: an estimate); bound and
    /// isolated processes follow their client, ``LowMemoryKillerRules/boundProcessAdj(clientAdj:)``.
    static func updateProcessAdjs(of byUse: [Device.InstalledApp], now: Double, order: inout UInt64) {
        var services: [SecondaryProcess] = [], inactive: [SecondaryProcess] = []
        for installed in byUse where installed.app.state.hasProcess {
            for process in installed.processes where process.spec.kind == .service && installed.app.isRunning(process: process.spec) {
                if now < installed.lastUsed + LowMemoryKillerRules.maxServiceInactivitySeconds {
                    services.append(process)
                } else {
                    inactive.append(process)
                }
            }
        }
        var serviceAdj: [ObjectIdentifier: Int] = [:]
        for (process, adj) in zip(services, LowMemoryKillerRules.serviceAdjs(count: services.count)) {
            serviceAdj[ObjectIdentifier(process)] = adj
        }
        for (process, adj) in zip(inactive, LowMemoryKillerRules.emptySlotAdjs(count: inactive.count)) {
            serviceAdj[ObjectIdentifier(process)] = adj
        }
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
                    order += 1
                    process.adjOrder = order
                }
            }
        }
    }
}
