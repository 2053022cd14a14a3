/// Every `mallctl` name PressureLab uses, in one place (jemalloc 5.x, `man jemalloc`).
///
/// Nothing outside this module names a jemalloc control; reading the list here tells
/// exactly which statistics and settings the tool depends on.
enum MallctlName {
    /// Write any value to refresh the cached statistics (`stats.*`).
    static let epoch = "epoch"
    /// The allocator's version string, e.g. `5.3.0-0-g54eaed1d8b56b1aa528be3bdd1877e59c56fa90c`.
    static let version = "version"

    /// Bytes allocated by the application (size-class rounded).
    static let statsAllocated = "stats.allocated"
    /// Bytes in active pages (multiple of the page size, >= allocated).
    static let statsActive = "stats.active"
    /// Bytes in physically resident data pages mapped by the allocator.
    static let statsResident = "stats.resident"
    /// Bytes in active extents mapped by the allocator.
    static let statsMapped = "stats.mapped"
    /// Bytes in virtual memory mappings retained rather than returned to the OS.
    static let statsRetained = "stats.retained"
    /// Bytes dedicated to the allocator's own metadata.
    static let statsMetadata = "stats.metadata"

    /// Pointer to the calling thread's running total of bytes allocated.
    static let threadAllocatedPointer = "thread.allocatedp"
    /// Pointer to the calling thread's running total of bytes deallocated.
    static let threadDeallocatedPointer = "thread.deallocatedp"
    /// Flush the calling thread's cache, so freed objects return to their arena.
    static let threadTcacheFlush = "thread.tcache.flush"

    /// Purge unused dirty pages of every arena (`MALLCTL_ARENAS_ALL` is 4096).
    static let purgeAllArenas = "arena.4096.purge"
    /// Pages of every arena that are free but still dirty (resident, not yet returned).
    static let statsDirtyPagesAllArenas = "stats.arenas.4096.pdirty"
    /// Pages of every arena that are free and handed back lazily (`MADV_FREE`): resident
    /// until the kernel needs them (none with PressureLab's options, whose decay times are -1,
    /// unless `MALLOC_CONF` sets others).
    static let statsMuzzyPagesAllArenas = "stats.arenas.4096.pmuzzy"
    /// The allocator's page size.
    static let pageSize = "arenas.page"

    /// Build-time configuration that the measurements depend on.
    static let configStats = "config.stats"

    /// Run-time options reported with results, so that a comparison across allocator
    /// configurations can warn. Each entry is a name and the C type of its value.
    static let reportedOptions: [(name: String, type: MallctlValueType)] = [
        ("opt.narenas", .unsigned),
        ("opt.tcache", .bool),
        ("opt.tcache_max", .size),
        ("opt.dirty_decay_ms", .signedSize),
        ("opt.muzzy_decay_ms", .signedSize),
        ("opt.lg_extent_max_active_fit", .size),
        ("opt.oversize_threshold", .size),
        ("opt.background_thread", .bool),
        ("opt.retain", .bool),
        ("opt.percpu_arena", .string),
        ("opt.thp", .string),
        ("opt.metadata_thp", .string),
        ("opt.dss", .string),
        ("opt.junk", .string),
        ("opt.zero", .bool),
        ("config.stats", .bool),
        ("config.prof", .bool),
        ("config.debug", .bool),
    ]
}

/// The C type behind a `mallctl` value, as `man jemalloc` lists it.
enum MallctlValueType: Sendable {
    case bool, unsigned, size, signedSize, string
}
