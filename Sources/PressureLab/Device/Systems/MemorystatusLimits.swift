/// Per-process limits as XNU's memorystatus enforces them (``JetsamRules``): every system
/// applies them when a device has limits (``DeviceModel/appLimitBytes``), with its own answer to
/// which limit an app holds (``MemorySystem/holdsActiveLimit(_:)``) and when the ledger is written
/// again (``MemorySystem/rewritesLimitOnEveryMove``). The device asks at each evaluation of
/// pressure; the ledger's state is the app's memorystatus record (``MemorystatusEntry``).
extension MemorySystem {
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
    func enforceProcessLimits(on device: Device) {
        guard device.model.appLimitBytes != nil || device.model.appLimitInactiveBytes != nil else { return }
        let rewritesOnEveryMove = rewritesLimitOnEveryMove
        for installed in device.apps {
            guard installed.app.state.hasProcess else {
                // A new process starts with a new ledger.
                (installed.ledgerLimit, installed.warnedNearLimit) = (nil, false)
                continue
            }
            let active = holdsActiveLimit(installed)
            guard let limit = device.model.appLimit(active: active) else { continue }
            if let written = installed.ledgerLimit,
               written.bytes != limit || (rewritesOnEveryMove && written.active != active) {
                installed.warnedNearLimit = false
            }
            installed.ledgerLimit = (limit, active)
            let bytes = installed.footprintBytes
            if bytes > limit {
                device.metrics.limitKills += 1
                if installed === device.foreground {
                    device.recordCrash(of: installed, reason: .perProcessLimit)
                    installed.app.crash()
                    device.foreground = nil
                } else {
                    device.kill(installed, reason: .perProcessLimit)
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
}
