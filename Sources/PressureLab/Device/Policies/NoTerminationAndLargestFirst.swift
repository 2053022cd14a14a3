/// No termination: apps are warned, and crossing the budget crashes the foreground app
/// (an out-of-memory crash, its unsaved data lost). Not a real system's policy: it reclaims
/// by the scenario's pressure levels (down to the warning clear threshold).
public struct NoTermination: TerminationPolicy {
    /// `none`.
    public let name = "none"
    /// The policy.
    public init() {}
    /// Nil: nothing is ever killed.
    public func nextAction(_ device: DeviceSnapshot) -> ReclaimAction? {
        guard device.isAboveClearTarget else { return nil }
        if !device.runningAppsWarned { return .warnRunningApps }
        return device.usedBytes > device.budgetBytes ? .killForeground(.policy) : nil
    }
}

/// The largest background app first, then a warning to running apps, then the foreground
/// app. Not a real system's policy: it reclaims by the scenario's pressure levels (down to
/// the warning clear threshold).
public struct LargestFirstPolicy: TerminationPolicy {
    /// `largest-first`.
    public let name = "largest-first"
    /// The policy.
    public init() {}
    /// A kill of the largest background app while over the budget.
    public func nextAction(_ device: DeviceSnapshot) -> ReclaimAction? {
        guard device.isAboveClearTarget else { return nil }
        let victims = device.apps.filter { $0.isKillableInBackground && !$0.isFrozen }
            .sorted { ($0.bytes, -Int($0.useOrder)) > ($1.bytes, -Int($1.useOrder)) }
        if let victim = victims.first { return .kill(victim.name, .policy) }
        if !device.runningAppsWarned { return .warnRunningApps }
        return device.usedBytes > device.budgetBytes ? .killForeground(.policy) : nil
    }
}
