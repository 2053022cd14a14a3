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
    /// previous process now; an app that was the previous one is no longer.
    func appComesToFront(_ target: Device.InstalledApp, fromHome: Bool) {
        if fromHome { previous = nil }
        if previous === target { previous = nil }
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

    /// A trim update stored its memory factor, decided at `processCount` processes.
    func storeMemoryFactor(_ factor: PressureLevel, processCount: Int) {
        memFactor = factor
        self.processCount = processCount
    }

    /// What a policy reads of it (the trim walk's state, the launcher's place).
    func read(into state: inout DeviceSnapshot) {
        state.trimMemFactor = memFactor
        state.trimProcessCount = processCount
        state.allowLowerMemLevel = allowLowerMemLevel
        state.launcherUseOrder = launcherUseOrder
    }
}
