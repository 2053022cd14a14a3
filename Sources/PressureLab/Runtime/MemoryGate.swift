/// Admits or refuses each allocation of simulated memory of one app, before it is made.
///
/// Jetsam enforces a per-process limit the moment it is crossed, and a device whose free
/// memory is gone kills at once: neither waits for the end of a step. The device installs
/// its ``MemoryAdmission`` (``admission``); the runtime asks before every allocation of simulated memory
/// (a view tree, a bitmap, a cache, a model, user data, app data). A refusal is sticky:
/// the process is being killed, so every later allocation of the app is refused too, the
/// step finishes cheaply, and the device ends the process when the step is over.
///
/// An allocation the host itself cannot satisfy (the allocator returning no memory) is recorded
/// the same way, as ``Refusal/hostAllocationFailed(bytes:)``: the run fails cleanly
/// instead of trapping.
public final class MemoryGate {
    /// Why an allocation was refused.
    public enum Refusal: Sendable, Equatable, CustomStringConvertible {
        /// The app would cross its per-app limit (jetsam's per-process limit).
        case appLimit(limitBytes: Int)
        /// The device's memory is exhausted and nothing else could be reclaimed.
        case outOfMemory(budgetBytes: Int)
        /// The host's allocator returned no memory.
        case hostAllocationFailed(bytes: Int)
        /// Memory paged out to the compressed pool could not be read back (a corrupt
        /// block): the process cannot go on, as a page-in error ends it.
        case compressedMemoryLost(bytes: Int)

        public var description: String {
            switch self {
            case .appLimit(let limit): return "the per-app limit of \(limit) bytes"
            case .outOfMemory(let budget): return "the device's \(budget) bytes"
            case .hostAllocationFailed(let bytes): return "the host could not allocate \(bytes) bytes"
            case .compressedMemoryLost(let bytes): return "\(bytes) bytes of compressed memory that could not be read back"
            }
        }
    }

    /// Decides on each allocation. Installed by the device; nil admits everything.
    /// (A gate is used on its app's thread; both properties are read at every allocation and
    /// the refusal for every app at every step: no dynamic exclusivity checks; measured:
    /// Benchmarks/README.md, "Exclusivity checks".)
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public var admission: (any MemoryAdmission)?
    /// The first refusal since the last ``reset()``.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public private(set) var refusal: Refusal?

    /// A gate that admits everything until a device installs its admission.
    public init() {}

    /// Whether `bytes` more may be allocated now (always, for 0 bytes).
    @inline(__always)
    public func admit(_ bytes: Int) -> Bool {
        guard refusal == nil else { return bytes <= 0 }
        guard bytes > 0, let admission else { return true }
        if case .refused(let refused) = admission.admit(AdmissionRequest(bytes: bytes)) {
            refusal = refused
            return false
        }
        return true
    }

    /// Records that the host failed to allocate `bytes` (after the gate admitted them).
    public func recordHostFailure(bytes: Int) {
        if refusal == nil { refusal = .hostAllocationFailed(bytes: bytes) }
    }

    /// Records that compressed memory could not be read back (the process dies at the end
    /// of the step; a refusal already recorded stays).
    public func recordLostMemory(bytes: Int) {
        if refusal == nil { refusal = .compressedMemoryLost(bytes: bytes) }
    }

    /// Clears the refusal (the device has ended the process).
    public func reset() { refusal = nil }
}
