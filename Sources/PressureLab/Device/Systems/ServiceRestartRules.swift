/// When ActivityManager starts a killed service's process again (Android 10,
/// `ActiveServices.scheduleServiceRestartLocked`, constants in `ActivityManagerConstants`):
/// the first restart waits ``restartSeconds``; a service killed again within
/// ``resetRunSeconds`` of its last restart waits ``restartFactor`` times longer than the last
/// time (1, 4, 16, 64 s ...), and restarts of different services are spaced at least
/// ``minimumSecondsBetween`` apart. docs/fidelity.md, "Processes".
///
/// Which killed services restart: `killServicesLocked` schedules a restart for a service that
/// was started (sticky) or has `BIND_AUTO_CREATE` bindings; every modelled secondary process is
/// taken as one (an estimate: an app's manifest and its binding flags are not modelled).
public enum ServiceRestartRules {
    /// `SERVICE_RESTART_DURATION`: 1 s.
    public static let restartSeconds = 1.0
    /// `SERVICE_RESET_RUN_DURATION`: 60 s.
    public static let resetRunSeconds = 60.0
    /// `SERVICE_RESTART_DURATION_FACTOR`: 4.
    public static let restartFactor = 4.0
    /// `SERVICE_MIN_RESTART_TIME_BETWEEN`: 10 s.
    public static let minimumSecondsBetween = 10.0

    /// The delay before a service killed at `now` starts again: ``restartSeconds`` the first
    /// time, or after ``resetRunSeconds`` since its last start; else the last delay times
    /// ``restartFactor``.
    public static func delay(now: Double, lastStart: Double?, lastDelay: Double) -> Double {
        guard let lastStart, lastDelay > 0, now - lastStart < resetRunSeconds else { return restartSeconds }
        return lastDelay * restartFactor
    }
}
