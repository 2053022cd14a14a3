/// Per-app limits, out-of-memory crashes and kills: how apps die on the device.
extension Device {
    /// Counts an out-of-memory crash of `installed` (the caller crashes it), with the
    /// limit or level it answered.
    func recordCrash(of installed: InstalledApp, reason: KillReason) {
        activityManager.appCrashed()
        metrics.outOfMemoryCrashes += 1
        metrics.recordKill(of: installed.name, reason: reason)
        notes.kills.append(.kill(app: installed.name, reason: reason))
        notes.outOfMemoryCrashes += 1
    }

    /// Kills a background app (for extensions of the device).
    func terminateKilled(_ installed: InstalledApp, reason: KillReason) { kill(installed, reason: reason) }

    func kill(_ installed: InstalledApp, reason: KillReason) {
        metrics.kills += 1
        if reason == .perProcessLimit || reason.isActivityManagers { metrics.systemLimitKills += 1 }
        metrics.recordKill(of: installed.name, reason: reason)
        notes.kills.append(.kill(app: installed.name, reason: reason))
        installed.app.runtime.trace.record(app: installed.name, controller: nil, TraceEventKind.killed(reason))
        installed.app.kill()
        installed.isFullyCompressed = false
        // A refusal dies with the process (a host failure is kept for the run to report).
        if case .hostAllocationFailed = installed.app.runtime.memoryGate.refusal {} else {
            installed.app.runtime.memoryGate.reset()
        }
        // The kernels' books forget it; the apps the system then tells memory is low hear it.
        for told in system.processDied(installed, reason: reason, on: self) { told.app.receiveLowMemory() }
    }
}

extension TraceEventKind {
    /// The system killed the app, and why (``KillReason``): `killed:idle-exit`.
    public static func killed(_ reason: KillReason) -> TraceEventKind { TraceEventKind("killed:\(reason.rawValue)") }
}
