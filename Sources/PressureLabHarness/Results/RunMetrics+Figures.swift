import PressureLab

/// The figures a run adds at its end: bounds hit and device time.
extension RunMetrics {
    /// Lists the figures that hit a bound in ``saturatedMetrics``.
    public mutating func noteSaturatedMetrics() {
        let summaries: [(String, LatencySummary?)] = [
            ("viewReloadLatencyNs", viewReloadLatencyNs), ("coldLaunchLatencyNs", coldLaunchLatencyNs),
            ("resumeLatencyNs", resumeLatencyNs), ("backingStoreRedrawLatencyNs", backingStoreRedrawLatencyNs),
            ("cacheRefillLatencyNs", cacheRefillLatencyNs), ("modelReloadLatencyNs", modelReloadLatencyNs),
            ("thawLatencyNs", thawLatencyNs), ("coldLaunchDeviceNs", coldLaunchDeviceNs), ("resumeDeviceNs", resumeDeviceNs),
            ("thawDeviceNs", thawDeviceNs), ("viewReloadDeviceNs", viewReloadDeviceNs),
            ("backingStoreRedrawDeviceNs", backingStoreRedrawDeviceNs), ("cacheRefillDeviceNs", cacheRefillDeviceNs),
            ("modelReloadDeviceNs", modelReloadDeviceNs),
        ]
        var names = summaries.filter { $0.1?.saturated == true }.map(\.0)
        if reloadTimeNs == .max { names.append("reloadTimeNs") }
        if reloadDeviceTimeNs == .max { names.append("reloadDeviceTimeNs") }
        for (cost, nanoseconds) in (deviceTimeByCostNs ?? [:]).sorted(by: { $0.key < $1.key }) where nanoseconds == .max {
            names.append("deviceTimeByCostNs.\(cost)")
        }
        saturatedMetrics = names.isEmpty ? nil : names
    }

    /// Fills the device-time fields from a run's statistics.
    mutating func addDeviceTime(statistics: ReloadStatistics, device: Device) {
        coldLaunchDeviceNs = LatencySummary(device.metrics.launchDeviceLatency(.cold))
        resumeDeviceNs = LatencySummary(device.metrics.launchDeviceLatency(.resume))
        thawDeviceNs = LatencySummary(device.metrics.launchDeviceLatency(.thaw))
        viewReloadDeviceNs = LatencySummary(statistics.deviceSummary(.viewReload))
        backingStoreRedrawDeviceNs = LatencySummary(statistics.deviceSummary(.backingStoreRedraw))
        cacheRefillDeviceNs = LatencySummary(statistics.deviceSummary(.cacheRefill))
        modelReloadDeviceNs = LatencySummary(statistics.deviceSummary(.modelReload))
        reloadDeviceTimeNs = statistics.totalDeviceNanoseconds
        let work = device.apps.reduce(WorkCounters()) { $0 + $1.app.runtime.work }
        self.work = work
        // Every app of a run has the profile's costs and the run's compressor.
        if let runtime = device.apps.first?.app.runtime, let costs = runtime.costModel {
            deviceTimeByCostNs = Dictionary(uniqueKeysWithValues: costs.nanosecondsByCost(for: work, compressor: runtime.compressor)
                .map { ($0.key.rawValue, $0.value) })
        }
        compressedBytesPeak = device.metrics.compressedBytesPeak
        cachedAppsMax = device.metrics.cachedAppsMax
        compressions = device.metrics.compressions
        decompressions = device.metrics.decompressions
        appsCompressed = device.metrics.appsCompressed
        compressionRatio = (device.metrics.compressionRatio * 1000).rounded() / 1000
        var resumes: [String: [UInt64]] = [:]
        for launch in device.metrics.launchLog where launch.kind == .resume { resumes[launch.app, default: []].append(launch.deviceNanoseconds) }
        resumeDeviceNsByApp = resumes.isEmpty ? nil : resumes.mapValues(LatencySummary.init(samples:))
    }
}
