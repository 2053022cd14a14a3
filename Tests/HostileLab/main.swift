// `pressurelab-hostile`: PressureLab's command line with the policies users get wrong
// registered, for the tests of time limits and policy mistakes (docs/limits.md, "Time";
// docs/extending.md, "A policy's mistakes"). A program of one's own, as a user writes it.
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import PressureLab
import PressureLabCommandLine

/// A cleanup policy whose `plan(for:)` never returns (yielding, not spinning, on a busy host).
struct LoopsInPlan: CleanupPolicy, Sendable {
    let name = "loops-in-plan"
    func plan(for context: CleanupContext) -> CleanupPlan {
        while true { sched_yield() }
    }
}

/// A termination policy whose `nextAction(_:)` never returns once an app is in the background.
struct LoopsInNextAction: TerminationPolicy, Sendable {
    let name = "loops-in-next-action"
    func nextAction(_ device: DeviceSnapshot) -> ReclaimAction? {
        guard device.apps.contains(where: \.isKillableInBackground) else { return nil }
        while true { sched_yield() }
    }
}

/// A termination policy that kills an app that is not installed, at every step.
struct KillsAGhost: TerminationPolicy, Sendable {
    let name = "kills-a-ghost"
    func nextAction(_ device: DeviceSnapshot) -> ReclaimAction? { .kill("no-such-app", .policy) }
}

PressureLabCommandLine.main(cleanup: [Cleanup(LoopsInPlan())],
                            termination: [Termination(LoopsInNextAction()), Termination(KillsAGhost())])
