/// What Android's ActivityManager remembers between its updates, as the device keeps it for
/// policies of Android's family (`lmk`, which may run on any device: ``MemorySystem``).
///
/// Sources: `ActivityManagerService` (`mPreviousProcess`, `mPreviousProcessVisibleTime`),
/// Android 10's `updateLowMemStateLocked` (`mLastMemoryLevel`, `mLastNumProcesses`,
/// `mAllowLowerMemLevel`); docs/fidelity.md, "Android".
struct ActivityManagerState {
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
}

