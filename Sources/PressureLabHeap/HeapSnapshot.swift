/// The process heap as jemalloc reports it at one moment, after advancing `epoch`.
///
/// All figures are bytes. `allocated` is what the application holds (rounded to size
/// classes); the others describe the pages behind it.
public struct HeapSnapshot: Sendable, Equatable, CustomStringConvertible {
    /// Bytes allocated by the application (`stats.allocated`).
    public var allocated: Int
    /// Bytes in active pages (`stats.active`).
    public var active: Int
    /// Bytes in physically resident pages (`stats.resident`).
    public var resident: Int
    /// Bytes in active extents mapped by the allocator (`stats.mapped`).
    public var mapped: Int
    /// Bytes of virtual memory retained for reuse, not returned to the OS (`stats.retained`).
    public var retained: Int
    /// Bytes of the allocator's own metadata (`stats.metadata`).
    public var metadata: Int

    public init(allocated: Int, active: Int, resident: Int, mapped: Int, retained: Int, metadata: Int) {
        self.allocated = allocated
        self.active = active
        self.resident = resident
        self.mapped = mapped
        self.retained = retained
        self.metadata = metadata
    }

    public var description: String {
        "allocated \(allocated) B, active \(active) B, resident \(resident) B, "
            + "mapped \(mapped) B, retained \(retained) B, metadata \(metadata) B"
    }
}
