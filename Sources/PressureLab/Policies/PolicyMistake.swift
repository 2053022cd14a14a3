/// A policy's mistake, located: which policy, in which call, at which step, what it asked
/// for and why the device or the runtime could not do it.
///
/// A termination policy's action is checked where the device applies it
/// (``Device/perform(_:)``); a cleanup plan where the runtime takes it. A mistake is fatal
/// to the step's action (the device does nothing more for the policy in that step) and, by
/// default, to the run (``Device/lenientPolicies``). docs/extending.md, "A policy's
/// mistakes", lists every reason.
public struct PolicyMistake: Error, Sendable, Equatable, CustomStringConvertible {
    /// The policy call the mistake came from.
    public enum Call: String, Sendable {
        /// ``CleanupPolicy/plan(for:)``.
        case plan = "plan(for:)"
        /// ``TerminationPolicy/nextAction(_:)``.
        case nextAction = "nextAction(_:)"
    }

    /// Why the action or plan is invalid.
    public enum Reason: Sendable, Equatable, CustomStringConvertible {
        /// No app of that name is installed.
        case notInstalled(app: String)
        /// The app has no process (it was never launched, or it ended before this step).
        case notAlive(app: String)
        /// The app was killed earlier in this same step.
        case killedInThisStep(app: String)
        /// A kill named the app in front (an out-of-memory crash is ``ReclaimAction/killForeground(_:)``).
        case inFront(app: String)
        /// A freeze or a compaction of an app that is not suspended.
        case notSuspended(app: String)
        /// A freeze or a compaction of an app that is frozen already.
        case alreadyFrozen(app: String)
        /// A compaction on a device whose memory system compresses nothing.
        case noCompressor
        /// An out-of-memory crash with no app in front.
        case nothingInFront
        /// A cleanup plan named a controller that is not one of the app's it was asked
        /// about (another app's, or none).
        case foreignController(ControllerID, app: String)
        /// The policy still returned actions after ``Device/actionsPerReclaimBound(apps:)``
        /// of them in one reclaim: it never returns nil.
        case neverDone(bound: Int)

        public var description: String {
            switch self {
            case .notInstalled(let app): return "no app named '\(app)' is installed"
            case .notAlive(let app): return "'\(app)' has no process (not launched, or ended before this step)"
            case .killedInThisStep(let app): return "'\(app)' was killed earlier in this step"
            case .inFront(let app): return "'\(app)' is in front: .kill is for apps in the background (use .killForeground)"
            case .notSuspended(let app): return "'\(app)' is not suspended"
            case .alreadyFrozen(let app): return "'\(app)' is frozen already"
            case .noCompressor: return "this device's memory system compresses nothing"
            case .nothingInFront: return "no app is in front"
            case .foreignController(let id, let app):
                return "controller \(id) is not one of '\(app)''s controllers the plan was asked about"
            case .neverDone(let bound):
                return "the policy still returned actions after \(bound) in one reclaim (it must return nil when it has nothing more to do)"
            }
        }
    }

    /// Whether a cleanup or a termination policy made it.
    public var kind: PolicyError.Kind
    /// The policy's name.
    public var policy: String
    /// The call that returned the invalid action or plan.
    public var call: Call
    /// The action (or the plan's release) as asked for.
    public var action: String
    /// Why the device could not carry it out.
    public var reason: Reason
    /// The run's step (1 for the first), when the run knows it (`Simulation` sets it).
    public var step: Int?
    /// The step as the script writes it (`launch photos`), when the run knows it.
    public var stepText: String?

    /// A mistake as the device or the runtime found it; the run adds its step.
    public init(kind: PolicyError.Kind, policy: String, call: Call, action: String, reason: Reason,
                step: Int? = nil, stepText: String? = nil) {
        self.kind = kind
        self.policy = policy
        self.call = call
        self.action = action
        self.reason = reason
        self.step = step
        self.stepText = stepText
    }

    /// `the termination policy 'x', step 3 (launch mail): nextAction(_:) returned kill ghost (policy): no app named ...`
    public var description: String {
        var text = "the \(kind.rawValue) policy '\(policy)'"
        if let step { text += ", step \(step)" + (stepText.map { " (\($0))" } ?? "") }
        return text + ": \(call.rawValue) returned \(action): \(reason)"
    }
}

extension ReclaimAction {
    /// The action as a mistake names it: `kill ghost (policy)`, `freeze mail`.
    public var label: String {
        switch self {
        case .kill(let app, let reason): return "kill \(app) (\(reason))"
        case .freeze(let app): return "freeze \(app)"
        case .freezerRan: return "freezer-ran"
        case .warnRunningApps: return "warn-running-apps"
        case .killForeground(let reason): return "kill-foreground (\(reason))"
        case .compact(let app): return "compact \(app)"
        }
    }
}
