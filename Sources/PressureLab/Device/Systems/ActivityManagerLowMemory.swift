/// ActivityManager's low-memory report: `onLowMemory` after a death leaves no cached process.
///
/// Android 10 `ActivityManagerService.appDiedLocked` and Android 14 `AppProfiler` (read as the
/// code search quoted them, docs/app-life-cycle.md): a process that died by something other
/// than ActivityManager itself (lmkd, a crash; not a "cached #N" or empty kill, `killedByAm`)
/// calls `doLowMemReportIfNeededLocked`. If no background process is left
/// (`ProcessList.haveBackgroundProcessLocked`: none at a cached process state, here
/// `oom_score_adj` 900 and up), every other process with a thread is marked `reportLowMemory`,
/// at most once per `GC_MIN_INTERVAL` (60 s, `ActivityManagerConstants.DEFAULT_GC_MIN_INTERVAL`,
/// `lastLowMemory`), and `performAppGcLocked` then calls `scheduleLowMemory`: the app's
/// `ActivityThread.handleLowMemory` calls `onLowMemory` on its `ComponentCallbacks`.
/// Simplified: the report is sent at once (ActivityManager sends it as it schedules the app's
/// GCs, `GC_TIMEOUT` 5 s after it is idle); a secondary process is not told on its own.
extension AndroidMemoryManagement {
    /// The minimum time between two low-memory reports to one process (seconds).
    public static let lowMemoryReportIntervalSeconds: Double = 60

    /// The apps told `onLowMemory` after `victim` died (the rule above), most recently used first.
    ///
    /// - Parameters:
    ///   - victim: the app whose process died.
    ///   - reason: why it died (ActivityManager's own kills send no report).
    ///   - device: the device, its priorities updated after the death.
    public func lowMemoryReport(afterDeathOf victim: Device.InstalledApp, reason: KillReason, on device: Device) -> [Device.InstalledApp] {
        guard !reason.isActivityManagers else { return [] }
        let living = device.appsByUse().filter { $0 !== victim && $0.app.state.hasProcess }
        let cached = LowMemoryKillerRules.cachedAdjRange.lowerBound
        guard !living.contains(where: { $0.oomScoreAdj >= cached }) else { return [] }
        var told: [Device.InstalledApp] = []
        for installed in living {
            if let last = installed.processRecord.lastLowMemory, last + Self.lowMemoryReportIntervalSeconds > device.now { continue }
            installed.processRecord.lastLowMemory = device.now
            told.append(installed)
        }
        return told
    }
}
