import PressureLabHeap

/// Which policy call a device is in now, readable from another thread: what a watchdog
/// names when a step does not finish (`--step-timeout`, docs/limits.md, "Time").
///
/// The device marks ``TerminationPolicy/nextAction(_:)`` and each app's runtime
/// ``CleanupPolicy/plan(for:)`` (a runtime installed on a device shares its marker).
public final class PolicyCallMarker: Sendable {
    private let current = Locked<PolicyMistake.Call?>(nil)

    /// A marker with no call in progress.
    public init() {}

    /// The call in progress, or nil between calls.
    public var call: PolicyMistake.Call? { current.withLock { $0 } }

    /// Runs `body` marked as `call`.
    @inline(__always)
    func marking<Result>(_ call: PolicyMistake.Call, _ body: () -> Result) -> Result {
        current.withLock { $0 = call }
        defer { current.withLock { $0 = nil } }
        return body()
    }
}
