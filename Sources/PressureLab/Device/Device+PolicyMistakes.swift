/// Checking a termination policy's actions before the device carries them out, and
/// collecting the policies' mistakes (``PolicyMistake``) of a step.
extension Device {
    /// The most actions a termination policy may return in one reclaim (one enforcement of
    /// the budget, or one allocation's emergency): three per installed app (a compression, a
    /// swap-out and a kill each) and four more. A policy still acting at the bound never
    /// returns nil: ``PolicyMistake/Reason/neverDone(bound:)``.
    public static func actionsPerReclaimBound(apps: Int) -> Int { apps * 3 + 4 }

    /// Why the device cannot carry out `action` now, or nil when it can try. What the
    /// device declines by its own rules (the allocating app in an emergency, a warning in
    /// the middle of an allocation, an app already compressed) is no mistake.
    func mistake(in action: ReclaimAction, emergency: Bool) -> PolicyMistake.Reason? {
        switch action {
        case .kill(let name, _):
            if activityManager.secondaryProcess(named: name, on: self) != nil { return nil }
            guard let victim = installed(name) else { return .notInstalled(app: name) }
            guard victim.app.state.hasProcess else {
                let killedNow = notes.kills.contains { if case .kill(app: name, reason: _) = $0 { true } else { false } }
                return killedNow ? .killedInThisStep(app: name) : .notAlive(app: name)
            }
            return victim === foreground ? .inFront(app: name) : nil
        case .freeze(let name), .compact(let name):
            guard let victim = installed(name) else { return .notInstalled(app: name) }
            if case .compact = action, compressedPool == nil { return .noCompressor }
            guard victim.app.state.hasProcess else { return .notAlive(app: name) }
            if victim.isFrozen { return .alreadyFrozen(app: name) }
            return victim.app.state == .suspended ? nil : .notSuspended(app: name)
        case .killForeground:
            return emergency || foreground != nil ? nil : .nothingInFront
        case .freezerRan, .warnRunningApps:
            return nil
        }
    }

    /// Notes a termination policy's mistake (``perform(_:)`` throws it at the step's end
    /// unless ``lenientPolicies``).
    func recordMistake(_ action: ReclaimAction, _ reason: PolicyMistake.Reason) {
        policyMistakes.append(PolicyMistake(kind: .termination, policy: termination.name, call: .nextAction,
                                            action: action.label, reason: reason))
    }

    /// Moves the cleanup policies' mistakes of the step (each app's runtime notes its own)
    /// into ``policyMistakes``.
    func collectCleanupMistakes() {
        for installed in apps where !installed.app.runtime.policyMistakes.isEmpty {
            policyMistakes += installed.app.runtime.policyMistakes
            installed.app.runtime.policyMistakes = []
        }
    }
}
