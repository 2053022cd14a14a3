/// What an app's runtime asks the device before it allocates simulated memory, and what it may
/// be told.
///
/// The runtime holds no reference to the device: its ``MemoryGate`` asks the admission the
/// device installed for the app (``Device/install(_:)``). An admission may reclaim memory from
/// other apps before it answers (kill, freeze or compress them, as XNU and lmkd do the moment
/// memory runs out); the step's outcome lists every such reclaim
/// (``StepOutcome/admissionReclaims``). docs/architecture.md draws the path of one step.
public protocol MemoryAdmission: AnyObject {
    /// Decides on `request`.
    ///
    /// - Complexity: called before every allocation of simulated memory: O(1) when the memory
    ///   fits; a reclaim walks the installed apps.
    func admit(_ request: AdmissionRequest) -> AdmissionDecision

    /// The app read `bytes` of its file pages from storage into the page cache (its code and
    /// resources: a first touch, or a `refault` of pages reclaim had evicted). A device that
    /// keeps the kernel's books counts them and reclaims for them (docs/memory-under-load.md).
    func filePagesRead(_ bytes: Int, refault: Bool)
}

extension MemoryAdmission {
    /// Nothing to count (a device without the kernel's books).
    public func filePagesRead(_ bytes: Int, refault: Bool) {}
}

/// One allocation an app's runtime wants to make.
public struct AdmissionRequest: Sendable, Equatable {
    /// Bytes it asks for (more than 0).
    public var bytes: Int

    /// A request for `bytes`.
    public init(bytes: Int) { self.bytes = bytes }
}

/// What the device answers an ``AdmissionRequest``.
public enum AdmissionDecision: Sendable, Equatable {
    /// The memory fits: allocate it.
    case granted
    /// The memory fits after other apps were killed, frozen or compressed for it (`freedBytes`
    /// came back): allocate it.
    case grantedAfterReclaim(freedBytes: Int)
    /// No: the app's limit, or the device's memory even after a reclaim. The app dies at the
    /// end of the step.
    case refused(MemoryGate.Refusal)

    /// Whether the allocation may go ahead.
    public var isGranted: Bool {
        switch self {
        case .granted, .grantedAfterReclaim: return true
        case .refused: return false
        }
    }
}

/// A reclaim an allocation caused in the middle of a step: whose allocation, how big, what came
/// back, and whether the allocation was granted after it.
public struct AdmissionReclaim: Sendable, Equatable {
    /// The app whose allocation waited.
    public var app: String
    /// The bytes it asked for.
    public var requestedBytes: Int
    /// The bytes other apps gave back.
    public var freedBytes: Int
    /// Whether the allocation was then granted.
    public var granted: Bool

    /// A reclaim for `app`'s allocation of `requestedBytes`.
    public init(app: String, requestedBytes: Int, freedBytes: Int, granted: Bool) {
        self.app = app
        self.requestedBytes = requestedBytes
        self.freedBytes = freedBytes
        self.granted = granted
    }
}
