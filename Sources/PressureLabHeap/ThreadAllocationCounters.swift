#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The calling thread's running totals of bytes allocated and deallocated.
///
/// jemalloc keeps these per thread (`thread.allocatedp`, `thread.deallocatedp`); the
/// pointers are looked up once per thread and cached, so a read is two loads.
/// A value is only valid on the thread that obtained it; do not pass it across threads.
///
/// - Complexity: O(1), no allocation, after the first use on a thread.
public struct ThreadAllocationCounters {
    private let allocatedPointer: UnsafeMutablePointer<UInt64>
    private let deallocatedPointer: UnsafeMutablePointer<UInt64>

    /// Total bytes this thread has allocated since it started (size-class rounded).
    @inline(__always) public var allocated: UInt64 { allocatedPointer.pointee }
    /// Total bytes this thread has freed since it started.
    @inline(__always) public var deallocated: UInt64 { deallocatedPointer.pointee }

    /// The counters of the calling thread (they never move where jemalloc counts nothing:
    /// call ``Heap/verify()`` first).
    public static var current: ThreadAllocationCounters {
        if let cached = pthread_getspecific(threadCounterKey) {
            return cached.assumingMemoryBound(to: ThreadAllocationCounters.self).pointee
        }
        let counters = ThreadAllocationCounters.lookUp()
        let slot = UnsafeMutablePointer<ThreadAllocationCounters>.allocate(capacity: 1)
        slot.initialize(to: counters)
        pthread_setspecific(threadCounterKey, slot)
        return counters
    }

    /// The thread's counters. Where jemalloc counts nothing (built without statistics, which
    /// ``Heap/verify()`` reports as ``HeapError/statisticsDisabled``: every executable checks
    /// it first and stops there), counters that never move, so that the library does not end
    /// the process itself (16 bytes a thread, never freed, in that case only).
    private static func lookUp() -> ThreadAllocationCounters {
        if let allocated: UnsafeMutablePointer<UInt64> = try? Mallctl.read(MallctlName.threadAllocatedPointer),
           let deallocated: UnsafeMutablePointer<UInt64> = try? Mallctl.read(MallctlName.threadDeallocatedPointer) {
            return ThreadAllocationCounters(allocatedPointer: allocated, deallocatedPointer: deallocated)
        }
        let unmoving = UnsafeMutablePointer<UInt64>.allocate(capacity: 2)
        unmoving.initialize(repeating: 0, count: 2)
        return ThreadAllocationCounters(allocatedPointer: unmoving, deallocatedPointer: unmoving + 1)
    }
}

/// One key for the per-thread cache of counter pointers; its destructor frees the slot.
private let threadCounterKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { slot in
        slot?.deallocate()
    }
    precondition(status == 0, "pthread_key_create failed: \(status)")
    return key
}()

/// What a measured scope allocated and freed on its thread.
public struct AllocationDelta: Sendable, Equatable, CustomStringConvertible {
    /// Bytes allocated inside the scope.
    public var allocated: Int
    /// Bytes freed inside the scope.
    public var deallocated: Int
    /// Net change: positive when the scope left more memory held than it found.
    public var net: Int { allocated - deallocated }

    public init(allocated: Int, deallocated: Int) {
        self.allocated = allocated
        self.deallocated = deallocated
    }

    public static let zero = AllocationDelta(allocated: 0, deallocated: 0)

    public var description: String { "+\(allocated) B -\(deallocated) B (net \(net) B)" }
}
