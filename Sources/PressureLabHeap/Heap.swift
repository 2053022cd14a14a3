#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process heap, measured through jemalloc.
///
/// Call ``verify()`` once at start: it fails with a clear message when the process does
/// not allocate through jemalloc, so that no figure is ever a silent zero.
public enum Heap {
    /// Checks that jemalloc is the process allocator and was built with statistics.
    ///
    /// The check allocates a probe block with the C library's `malloc` symbol and sees
    /// whether jemalloc's per-thread counter moved by at least its size.
    public static func verify() throws(HeapError) {
        try verification.get()
    }

    private static let verification: Result<Void, HeapError> = {
        let statsEnabled: Bool
        do {
            statsEnabled = try Mallctl.read(MallctlName.configStats)
        } catch {
            return .failure(.notRunningOnJemalloc(detail: "mallctl(\"config.stats\") failed: \(error)"))
        }
        guard statsEnabled else { return .failure(.statisticsDisabled) }
        let probeSize = 96 * 1024
        guard let moved = probeAllocation(size: probeSize) else {
            return .failure(.notRunningOnJemalloc(detail: "malloc(\(probeSize)) returned NULL"))
        }
        guard moved >= UInt64(probeSize) else {
            return .failure(.notRunningOnJemalloc(
                detail: "a malloc of \(probeSize) bytes moved jemalloc's thread.allocated by \(moved) bytes"))
        }
        return .success(())
    }()

    /// Allocates, writes and frees `size` bytes with the C library's `malloc` symbol and
    /// returns how far jemalloc's thread counter moved. Never optimized: the optimizer
    /// would otherwise remove an allocation nobody reads.
    @_optimize(none)
    private static func probeAllocation(size: Int) -> UInt64? {
        let counters = ThreadAllocationCounters.current
        let before = counters.allocated
        guard let probe = malloc(size) else { return nil }
        memset(probe, 0x5A, size)
        let moved = counters.allocated &- before
        free(probe)
        return moved
    }

    /// Verifies the allocator, as ``verify()`` does: an executable calls it first thing, and
    /// decides what to do when it throws (PressureLab's command line prints the error's
    /// description and exits with status 1). The library never ends the process itself.
    ///
    /// ```swift
    /// do {
    ///     try Heap.requireJemalloc()
    /// } catch {
    ///     print(error.description)   // what to install, and why
    /// }
    /// ```
    ///
    /// - Throws: ``HeapError/notRunningOnJemalloc(detail:)`` when the process does not
    ///   allocate through jemalloc, ``HeapError/statisticsDisabled`` when jemalloc counts
    ///   nothing.
    public static func requireJemalloc() throws(HeapError) {
        try verify()
    }

    /// Takes a snapshot of the heap after advancing jemalloc's statistics epoch.
    ///
    /// - Parameter flushThreadCache: flush the calling thread's cache first, so that
    ///   objects it holds for reuse count as free; the default gives figures that return
    ///   exactly to a baseline after the same memory is freed.
    public static func snapshot(flushThreadCache: Bool = true) throws(HeapError) -> HeapSnapshot {
        try verify()
        if flushThreadCache {
            try Mallctl.invoke(MallctlName.threadTcacheFlush)
        }
        try Mallctl.write(MallctlName.epoch, UInt64(1))
        return HeapSnapshot(
            allocated: try Mallctl.read(MallctlName.statsAllocated, as: Int.self),
            active: try Mallctl.read(MallctlName.statsActive, as: Int.self),
            resident: try Mallctl.read(MallctlName.statsResident, as: Int.self),
            mapped: try Mallctl.read(MallctlName.statsMapped, as: Int.self),
            retained: try Mallctl.read(MallctlName.statsRetained, as: Int.self),
            metadata: try Mallctl.read(MallctlName.statsMetadata, as: Int.self))
    }

    /// Returns the dirty pages of every arena to the operating system.
    public static func purge() throws(HeapError) {
        try verify()
        try Mallctl.invoke(MallctlName.threadTcacheFlush)
        try Mallctl.invoke(MallctlName.purgeAllArenas)
    }

    /// Bytes of free pages jemalloc keeps resident for reuse (dirty, and muzzy: handed back
    /// lazily with `MADV_FREE`, resident until the kernel needs them; with PressureLab's options,
    /// docs/limits.md, both decay times are -1 and pages stay dirty until a purge), as of a
    /// fresh epoch.
    /// Free memory, never measured as anyone's: what the process holds beyond what it uses.
    public static func spareResidentBytes() throws(HeapError) -> Int {
        try verify()
        try Mallctl.write(MallctlName.epoch, UInt64(1))
        let pages = try Mallctl.read(MallctlName.statsDirtyPagesAllArenas, as: Int.self)
            + Mallctl.read(MallctlName.statsMuzzyPagesAllArenas, as: Int.self)
        return pages * (try Mallctl.read(MallctlName.pageSize, as: Int.self))
    }

    /// Returns the spare pages to the operating system when there are more than `limit`
    /// bytes of them (``spareResidentBytes()``), so that what the process holds stays within
    /// what it uses plus `limit`. Changes no measured figure: only free pages go.
    /// - Returns: whether it purged.
    @discardableResult
    public static func purge(ifSpareAbove limit: Int) throws(HeapError) -> Bool {
        guard try spareResidentBytes() > limit else { return false }
        try purge()
        return true
    }

    /// Runs `body` and reports what it allocated and freed on this thread, unattributed.
    ///
    /// - Complexity: four loads beyond `body`; no allocation.
    @inline(__always)
    public static func measure<Result>(_ body: () throws -> Result) rethrows -> Measured<Result> {
        let counters = ThreadAllocationCounters.current
        let startAllocated = counters.allocated
        let startDeallocated = counters.deallocated
        let value = try body()
        let delta = AllocationDelta(allocated: Int(counters.allocated &- startAllocated),
                                    deallocated: Int(counters.deallocated &- startDeallocated))
        return Measured(value: value, delta: delta)
    }

    /// The bytes jemalloc actually reserves for a request of `size` bytes (its size class).
    ///
    /// Measured figures are in these units: a 1,000-byte request holds 1,024 bytes.
    public static func sizeClass(for size: Int) -> Int {
        Mallctl.sizeClass(for: size)
    }

    /// The allocator's version and the options that affect measurements.
    public static func allocatorInfo() throws(HeapError) -> AllocatorInfo {
        try verify()
        return AllocatorInfo.read()
    }
}
