import PressureLab

/// A run's figures, read from the device, the apps and the timeline.
extension Simulation {
    /// The run's figures now (``finish(repeatIndex:)`` reads them once).
    func metrics() -> RunMetrics {
        let bytes = timeline.map(\.retainedBytes)
        let counters = apps.values.map(\.runtime.cleanupCounters)
        func sum(_ key: KeyPath<CleanupCounters, Int>) -> Int { counters.reduce(0) { $0 + $1[keyPath: key] } }
        let deviceMetrics = device.metrics
        var metrics = RunMetrics(
            peakRetainedBytes: bytes.max() ?? 0, finalRetainedBytes: bytes.last ?? 0,
            meanRetainedBytes: bytes.isEmpty ? 0 : bytes.reduce(0, +) / bytes.count,
            warnings: sum(\.warnings), viewUnloads: sum(\.viewUnloads), viewReloads: statistics.count(.viewReload),
            backingStorePurges: sum(\.backingStorePurges), cachePurges: sum(\.cachePurges),
            kills: deviceMetrics.kills, freezes: deviceMetrics.freezes, coldLaunches: deviceMetrics.coldLaunches,
            resumes: deviceMetrics.resumes, outOfMemoryCrashes: deviceMetrics.outOfMemoryCrashes,
            dataLossBytes: apps.values.reduce(0) { $0 + $1.dataLossBytes }, cachedAppsMean: deviceMetrics.cachedAppsMean,
            viewReloadLatencyNs: LatencySummary(statistics.summary(.viewReload)),
            coldLaunchLatencyNs: LatencySummary(deviceMetrics.launchLatency(.cold)),
            resumeLatencyNs: LatencySummary(deviceMetrics.launchLatency(.resume)),
            thaws: deviceMetrics.thaws, modelReleases: sum(\.modelReleases),
            backingStoreRedrawLatencyNs: LatencySummary(statistics.summary(.backingStoreRedraw)),
            cacheRefillLatencyNs: LatencySummary(statistics.summary(.cacheRefill)),
            modelReloadLatencyNs: LatencySummary(statistics.summary(.modelReload)),
            thawLatencyNs: LatencySummary(deviceMetrics.launchLatency(.thaw)),
            reloadTimeNs: statistics.totalNanoseconds, skippedSteps: skipped, steps: step)
        func nonZero(_ count: Int) -> Int? { count == 0 ? nil : count }
        metrics.interruptions = nonZero(deviceMetrics.interruptions)
        metrics.backgroundLaunches = nonZero(deviceMetrics.backgroundLaunches)
        metrics.homeTerminations = nonZero(deviceMetrics.homeTerminations)
        metrics.backgroundExpirations = nonZero(deviceMetrics.backgroundExpirations)
        metrics.cleanResidentBytesPeak = cleanPeak
        metrics.cleanResidentBytesMean = timeline.isEmpty ? 0 : cleanSum / timeline.count
        metrics.cleanBytesDropped = deviceMetrics.cleanBytesDropped
        metrics.platformFootprintBytesPeak = platformFootprintPeak
        metrics.limitKills = nonZero(deviceMetrics.systemLimitKills)
        metrics.policyMistakes = nonZero(policyMistakes.count)
        metrics.firstPolicyMistake = policyMistakes.first?.description
        return metrics
    }
}
