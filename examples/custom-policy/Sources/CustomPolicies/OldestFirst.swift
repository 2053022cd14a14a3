import PressureLab

/// A termination policy of our own: while memory is above the scenario's warning clear
/// threshold, kill the least recently used background app, whatever its size or band;
/// warn the running apps once when none is left, and crash the foreground app only over
/// the budget.
public struct OldestFirst: TerminationPolicy, Sendable {
    public let name = "oldest-first"
    public init() {}

    public func nextAction(_ device: DeviceSnapshot) -> ReclaimAction? {
        guard device.isAboveClearTarget else { return nil }
        if let oldest = device.apps.filter(\.isKillableInBackground).min(by: { $0.useOrder < $1.useOrder }) {
            return .kill(oldest.name, .policy)
        }
        if !device.runningAppsWarned { return .warnRunningApps }
        return device.usedBytes > device.budgetBytes ? .killForeground(.policy) : nil
    }
}
