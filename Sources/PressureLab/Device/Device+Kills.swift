/// Per-app limits, out-of-memory crashes and kills: how apps die on the device.
extension Device {
    /// Per-process limits (XNU): the active limit while the app holds it, the inactive one
    /// otherwise (``InstalledApp/holdsActiveLimit(release:)``, `memstat_update_memlimit_locked`),
    /// both on its `phys_footprint` (compressed memory at its uncompressed size). Crossing a
    /// fatal limit kills at once (`memorystatus_on_ledger_footprint_exceeded`, cause
    /// `PERPROCESSLIMIT`).
    ///
    /// The warning: above 80% of the limit (`balance > warn level`, `osfmk/kern/ledger.c`
    /// `warn_level_exceeded`) a running app is warned once (`LF_WARNED`) when it next
    /// allocates; the ledger re-arms when the footprint falls back below, and when the limit is
    /// written again (`ledger_set_limit` clears `LF_WARNED`): on iOS 12 at every move across
    /// the foreground band (`memorystatus_update_priority_locked` calls
    /// `task_set_phys_footprint_limit_internal`, whose active flag changes even when both limits
    /// are equal), on iOS 18 only when the limit's value changes (`memstat_update_memlimit_locked`
    /// returns false for an unchanged limit, and the ledger is left alone). A suspended app runs
    /// no code and allocates nothing: its warning waits.
    func enforceAppLimits() {
        guard model.appLimitBytes != nil || model.appLimitInactiveBytes != nil else { return }
        let rewritesOnEveryMove = system.rewritesLimitOnEveryMove
        for installed in apps {
            guard installed.app.state.hasProcess else {
                // A new process starts with a new ledger.
                (installed.ledgerLimit, installed.warnedNearLimit) = (nil, false)
                continue
            }
            let active = system.holdsActiveLimit(installed)
            guard let limit = model.appLimit(active: active) else { continue }
            if let written = installed.ledgerLimit,
               written.bytes != limit || (rewritesOnEveryMove && written.active != active) {
                installed.warnedNearLimit = false
            }
            installed.ledgerLimit = (limit, active)
            let bytes = installed.footprintBytes
            if bytes > limit {
                metrics.limitKills += 1
                if installed === foreground {
                    recordCrash(of: installed, reason: .perProcessLimit)
                    installed.app.crash()
                    foreground = nil
                } else {
                    kill(installed, reason: .perProcessLimit)
                }
                continue
            }
            guard installed.app.state.isRunning else { continue }
            if bytes.multipliedSaturating(by: 100) > limit.multipliedSaturating(by: JetsamRules.limitWarningPercent) {
                if !installed.warnedNearLimit {
                    installed.warnedNearLimit = true
                    installed.app.receiveMemoryWarning(level: .warning, targetBytes: bytes - limit / 100 * JetsamRules.limitWarningPercent)
                }
            } else {
                installed.warnedNearLimit = false
            }
        }
    }

    /// Counts an out-of-memory crash of `installed` (the caller crashes it), with the
    /// limit or level it answered.
    func recordCrash(of installed: InstalledApp, reason: KillReason) {
        activityManager.allowLowerMemLevel = true
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
        // Android 10's `appDiedLocked`: a death ActivityManager did not cause lets its memory
        // factor worsen at the next update; one it caused ("cached #N") does not.
        activityManager.allowLowerMemLevel = !reason.isActivityManagers
        installed.app.runtime.trace.record(app: installed.name, controller: nil, TraceEventKind.killed(reason))
        installed.app.kill()
        installed.isFullyCompressed = false
        // A refusal dies with the process (a host failure is kept for the run to report).
        if case .hostAllocationFailed = installed.app.runtime.memoryGate.refusal {} else {
            installed.app.runtime.memoryGate.reset()
        }
        freezer.processDied(installed)
        // Each kernel's record forgets what belonged to the dead process (Systems/).
        installed.memorystatus.processDied()
        installed.processRecord.processDied()
        // Its processes died with it: nothing to restart until the app launches again.
        for process in installed.processes { (process.restartAt, process.restartDelay, process.lastStart) = (nil, 0, nil) }
        if previous === installed { activityManager.previous = nil }
        refreshPriorities()
        // Android: no cached process left after this death, the others hear memory is low.
        for told in system.lowMemoryReport(afterDeathOf: installed, reason: reason, on: self) { told.app.receiveLowMemory() }
    }
}

extension TraceEventKind {
    /// The system killed the app, and why (``KillReason``): `killed:idle-exit`.
    public static func killed(_ reason: KillReason) -> TraceEventKind { TraceEventKind("killed:\(reason.rawValue)") }
}
