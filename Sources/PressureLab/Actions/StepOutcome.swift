/// What one step did on the device: whether the action applied, and what the device did
/// meanwhile (launches, kills with their reasons, freezes, crashes), noted by the device
/// where each happened. ``Device/perform(_:)`` returns it.
public struct StepOutcome: Sendable, Equatable {
    /// False when the action did not apply in the device's state (a `pop` with nothing to
    /// pop, Home with no app in front): nothing changed, and the step counts as skipped.
    public var applied: Bool
    /// What the device did, in the order results list it (``TimelineMark``).
    public var marks: [TimelineMark]
    /// An allocation the host itself could not make (the allocator returned no memory),
    /// and the app that asked: the run cannot go on measuring.
    public var hostAllocationFailure: HostAllocationFailure?
    /// The reclaims allocations caused in the middle of the step (an allocation that did not
    /// fit made the device kill, freeze or compress other apps before it answered), in order.
    public var admissionReclaims: [AdmissionReclaim]

    /// An outcome with each field given.
    public init(applied: Bool, marks: [TimelineMark] = [], hostAllocationFailure: HostAllocationFailure? = nil,
                admissionReclaims: [AdmissionReclaim] = []) {
        self.applied = applied
        self.marks = marks
        self.hostAllocationFailure = hostAllocationFailure
        self.admissionReclaims = admissionReclaims
    }

    /// An allocation the host refused: the app and why (``MemoryGate/Refusal``).
    public struct HostAllocationFailure: Sendable, Equatable {
        /// The app whose allocation it was.
        public var app: String
        /// Why the host refused it.
        public var refusal: MemoryGate.Refusal
    }
}

/// What the device notes during a step, kind by kind, as it happens; read into a
/// ``StepOutcome`` when the step ends (``Device/perform(_:)``).
struct StepNotes {
    /// Kills and crashes, in the order they happened.
    var kills: [TimelineMark] = []
    var terminatedOnHome = false
    /// The app that launched cold, resumed or thawed (the last, if several did).
    var coldLaunch: String?, resume: String?, thaw: String?
    var backgroundLaunch: String?
    var freezes = 0
    var outOfMemoryCrashes = 0
    var interrupted = false
    var backgroundExpirations = 0
    /// Reclaims that allocations caused (``Device/admit(_:for:)``).
    var admissionReclaims: [AdmissionReclaim] = []

    /// The marks in the order results list them: kills, then life-cycle events, launches,
    /// freezes, crashes, and the warning when the step was one.
    func marks(warning: Bool) -> [TimelineMark] {
        var marks = kills
        if terminatedOnHome { marks.append(.terminatedOnHome) }
        if let coldLaunch { marks.append(.coldLaunch(coldLaunch)) }
        if let resume { marks.append(.resume(resume)) }
        if let thaw { marks.append(.thaw(thaw)) }
        marks += repeatElement(.freeze, count: freezes)
        marks += repeatElement(.outOfMemory, count: outOfMemoryCrashes)
        if interrupted { marks.append(.interrupted) }
        if let backgroundLaunch { marks.append(.backgroundLaunch(backgroundLaunch)) }
        marks += repeatElement(.backgroundTimeOver, count: backgroundExpirations)
        if warning { marks.append(.warning) }
        return marks
    }
}
