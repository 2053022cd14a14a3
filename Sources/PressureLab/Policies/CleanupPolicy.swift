/// Decides what an app's controllers release under pressure.
///
/// Requirements:
/// - ``plan(for:)`` is a pure decision: it reads the context and returns a plan; the
///   runtime carries the plan out while it delivers the warning (each controller's
///   `didReceiveMemoryWarning` releases its part) or the trim level.
/// - A plan must not release the view or the bitmaps of a controller that is on screen
///   (``ControllerState/isOnScreen``); the runtime refuses such releases and counts them
///   in ``CleanupCounters/refusedOnScreen``.
/// - Given the same context (and the same measured costs), a policy decides the same plan.
///
/// Write your own in Swift:
///
/// ```swift
/// struct DropModelsFirst: CleanupPolicy {
///     let name = "drop-models-first"
///     func plan(for context: CleanupContext) -> CleanupPlan {
///         var plan = CleanupPlan()
///         for state in context.controllers where state.holds(.model) {
///             plan.release(.model, of: state.id)
///         }
///         return plan
///     }
/// }
/// runtime.cleanupPolicy = DropModelsFirst()
/// ```
public protocol CleanupPolicy {
    /// The policy's name in reports (`[a-z0-9-]+`).
    var name: String { get }
    /// The UIKit generation whose memory-warning behaviour the policy models, when it models
    /// one (iPhone OS 2.2's or iOS 3's unload cycle); nil: today's (iOS 6 and later).
    var generation: OSRelease? { get }
    /// Decides what to release.
    func plan(for context: CleanupContext) -> CleanupPlan
}

extension CleanupPolicy {
    /// Most policies model no generation of their own.
    public var generation: OSRelease? { nil }
}

/// What cleanups released, counted.
public struct CleanupCounters: Sendable, Equatable, Codable {
    /// Warnings handled.
    public var warnings = 0
    /// Views released.
    public var viewUnloads = 0
    /// Backing stores released.
    public var backingStorePurges = 0
    /// Caches released.
    public var cachePurges = 0
    /// Models released.
    public var modelReleases = 0
    /// Releases of on-screen views or bitmaps that a plan asked for and the runtime refused.
    public var refusedOnScreen = 0
}
