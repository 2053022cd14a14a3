/// A process's death as the memory systems answer it (the event ``Device`` reports when it
/// kills an app: a policy's kill, a limit, a lost page-in).
extension MemorySystem {
    /// `installed`'s process died for `reason` on `device`: each kernel's books forget what
    /// belonged to it (the freezer's file, XNU's `proc` fields, ActivityManager's
    /// `ProcessRecord` and its `appDiedLocked`, its secondary processes' restarts), the
    /// priorities are updated, and the apps the system then tells memory is low are returned
    /// (Android: no cached process left, ``lowMemoryReport(afterDeathOf:reason:on:)``).
    func processDied(_ installed: Device.InstalledApp, reason: KillReason, on device: Device) -> [Device.InstalledApp] {
        device.freezer.processDied(installed)
        installed.memorystatus.processDied()
        installed.processRecord.processDied()
        // Its processes died with it: nothing to restart until the app launches again.
        for process in installed.processes { (process.restartAt, process.restartDelay, process.lastStart) = (nil, 0, nil) }
        device.activityManager.processDied(of: installed, reason: reason)
        device.refreshPriorities()
        return lowMemoryReport(afterDeathOf: installed, reason: reason, on: device)
    }
}
