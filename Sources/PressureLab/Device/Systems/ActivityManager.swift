/// Android's ActivityManager on a device: what it remembers between its updates (the previous
/// app, the memory factor, the launcher's place in the LRU list) and what it does with an app's
/// secondary processes (``ActivityManager+Processes.swift``), answering the device's events:
/// an app left the front, the launcher came to it, a process died or crashed, a trim update.
/// Kept on every device for policies of its family (`lmk`, which may run on any device:
/// ``MemorySystem``).
///
/// Sources: `ActivityManagerService` (`mPreviousProcess`, `mPreviousProcessVisibleTime`),
/// Android 10's `updateLowMemStateLocked` (`mLastMemoryLevel`, `mLastNumProcesses`,
/// `mAllowLowerMemLevel`); docs/fidelity.md, "Android".
final class ActivityManager {
    /// The previous app (the one in front before the current one).
    var previous: Device.InstalledApp?
    /// Since when it has been the previous app, simulated seconds.
    var previousSince: Double = 0
    /// The memory factor of the last update (``DeviceSnapshot/trimMemFactor``).
    var memFactor = PressureLevel.normal
    /// The process count that factor was decided at.
    var processCount = 0
    /// Whether a death ActivityManager did not cause lets the factor worsen at the next update.
    var allowLowerMemLevel = false
    /// When the launcher (Home) was last in front, as a use order.
    var launcherUseOrder: UInt64?

    // MARK: Events

    /// `app` left the front at `now` (Home, a switch): it is the previous app.
    func appLeftFront(_ app: Device.InstalledApp, at now: Double) {
        previous = app
        previousSince = now
    }

    /// `target` comes to the front: from Home (`fromHome`) the launcher was in front and is the
    /// previous process now; an app that was the previous one is no longer. Its record's
    /// background state goes: no collection due, no stored trim level, no pending UI clean.
    func appComesToFront(_ target: Device.InstalledApp, fromHome: Bool) {
        if fromHome { previous = nil }
        if previous === target { previous = nil }
        target.nextCollection = nil
        target.trimLevel = 0
        target.isUIHiddenPending = false
    }

    /// `target` is in front again at `now`: its processes killed alone started again as it
    /// came back (bound again).
    func appCameToFront(_ target: Device.InstalledApp, at now: Double) {
        for process in target.processes where process.restartAt != nil && target.app.isRunning(process: process.spec) {
            (process.restartAt, process.lastStart) = (nil, now)
        }
    }

    /// The launcher came to the front, the most recent process in the LRU list (`useOrder`).
    func launcherCameToFront(useOrder: UInt64) {
        launcherUseOrder = useOrder
    }

    /// An app crashed out of memory: not ActivityManager's doing, so the factor may worsen.
    func appCrashed() {
        allowLowerMemLevel = true
    }

    /// A process died for `reason` (Android 10's `appDiedLocked`): a death ActivityManager did
    /// not cause lets its memory factor worsen at the next update; one it caused ("cached #N")
    /// does not. A dead main process (`app`) is no longer the previous app.
    func processDied(of app: Device.InstalledApp?, reason: KillReason) {
        allowLowerMemLevel = !reason.isActivityManagers
        if let app, previous === app { previous = nil }
    }

    /// A trim update's `notification` on `device` (a memory warning is the device's): a trim
    /// level sent (`scheduleTrimMemoryLocked`; a suspended app whose memory is paged out is not
    /// trimmed, its stored level kept as sent), a level stored, the memory factor stored.
    func deliver(_ notification: AppNotification, on device: Device) {
        switch notification {
        case .trimMemory(let name, let trim):
            guard let target = device.installed(name), target.app.state.hasProcess, !target.isFrozen else { return }
            target.trimLevel = trim.rawValue
            if trim == .uiHidden { target.isUIHiddenPending = false }
            if target.isCompressed && target.app.state == .suspended { return }
            target.app.trimMemory(trim)
        case .storeTrimLevel(let name, let stored):
            guard let target = device.installed(name) else { return }
            target.trimLevel = stored
            // The pending UI clean goes where the process state passes the UI_HIDDEN test
            // (`updateLowMemStateLocked` clears `pendingUiClean` only there): a foreground service
            // (audio, location) keeps it, and gets UI_HIDDEN once the service stops.
            if stored == 0, TrimMemoryRules.passesUIHiddenTest(target.runningBackgroundMode) { target.isUIHiddenPending = false }
        case .storeMemoryFactor(let factor, let processCount):
            memFactor = factor
            self.processCount = processCount
        case .memoryWarning:
            return
        }
    }

    /// Android 14's compaction of a cached app (`CachedAppOptimizer`): its memory compressed
    /// into zram when it is not yet and fits what zram has left, and the compaction recorded
    /// (what it held then, for the next decision). False when it could not be compacted.
    func compact(_ victim: Device.InstalledApp, on device: Device) -> Bool {
        guard !victim.isCompressed, let compressor = device.compressor,
              MemoryCompressor.fits(victim, free: compressor.freeBytes(on: device)), device.compress(victim) else { return false }
        let after = device.snapshot(of: victim)
        victim.lastCompaction = CompactionRecord(time: device.now, anonBytes: after.anonResidentBytes,
                                                 fileBytes: after.cleanResidentBytes, swapBytes: after.swappedBytes)
        return true
    }

    /// What a policy reads of it (the trim walk's state, the launcher's place).
    func read(into state: inout DeviceSnapshot) {
        state.trimMemFactor = memFactor
        state.trimProcessCount = processCount
        state.allowLowerMemLevel = allowLowerMemLevel
        state.launcherUseOrder = launcherUseOrder
    }
}
