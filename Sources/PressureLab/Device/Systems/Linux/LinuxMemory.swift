/// Linux's books of a phone's RAM beside the apps, and what reclaim and refaults did to them
/// (docs/memory-under-load.md). The device owns one when its profile has a `kernel:` section and
/// the scenario asks for it (`device.memory_model: kernel`); the apps' anonymous memory and their
/// own file pages stay the simulation's real memory, measured, and the device adds them to these
/// books (``Device/kernelFreeBytes``).
///
/// The system's file pages are counted here in bytes: its executable mappings stay (referenced
/// code is kept active, `VM_EXEC`), its other file pages can be evicted and are read again when
/// the system next uses them (a refault), and the cache of files nobody uses goes first.
public final class LinuxMemory {
    /// The inputs (the profile's `kernel:`).
    public let inputs: LinuxMemoryInputs
    /// The watermarks they give.
    public let watermarks: LinuxWatermarks
    /// The system's non-executable working set resident now, bytes.
    public internal(set) var systemFileResidentBytes: Int
    /// Of those, the bytes that came back on the inactive list (a refault too distant to
    /// activate): the first of the working set reclaim takes again.
    public internal(set) var systemFileInactiveBytes = 0
    /// The cold cache still resident, bytes.
    public internal(set) var coldCacheResidentBytes: Int
    /// Bytes evicted from or activated on the file LRU so far: the lruvec's `inactive_age`
    /// (4.9 `mm/workingset.c`), the clock refault distances are read on.
    public internal(set) var inactiveAgeBytes = 0
    /// `inactive_age` when the system's working set last lost pages (its shadow entries' stamp).
    var systemEvictionAgeBytes = 0
    /// What reclaim and refaults did, for the results.
    public internal(set) var counters = LinuxMemoryCounters()

    /// Books with every system page resident, as after boot.
    public init(inputs: LinuxMemoryInputs) {
        self.inputs = inputs
        self.watermarks = LinuxWatermarks(inputs)
        self.systemFileResidentBytes = inputs.systemFileBytes
        self.coldCacheResidentBytes = inputs.coldCacheBytes
    }

    /// The system's bytes resident now: its fixed memory, its code and its file pages.
    public var systemResidentBytes: Int {
        inputs.fixedBytes + inputs.systemExecBytes + systemFileResidentBytes + coldCacheResidentBytes
    }

    /// The system's working set not resident now (what it will read again), bytes.
    public var systemFileEvictedBytes: Int { inputs.systemFileBytes - systemFileResidentBytes }

    /// Evicts up to `bytes` of cold cache; returns the bytes evicted (`workingset_eviction`
    /// stamps each; a cold page never refaults).
    func evictColdCache(_ bytes: Int) -> Int {
        let evicted = min(bytes, coldCacheResidentBytes)
        coldCacheResidentBytes -= evicted
        inactiveAgeBytes += evicted
        return evicted
    }

    /// Evicts up to `bytes` of the system's working set, its inactive part first; returns the
    /// bytes evicted, stamped with `inactive_age` at their eviction.
    func evictSystemFile(_ bytes: Int) -> Int {
        let evicted = min(bytes, systemFileResidentBytes)
        guard evicted > 0 else { return 0 }
        systemFileResidentBytes -= evicted
        systemFileInactiveBytes = max(0, systemFileInactiveBytes - evicted)
        inactiveAgeBytes += evicted
        systemEvictionAgeBytes = inactiveAgeBytes
        return evicted
    }

    /// The system uses its working set: what was evicted is read again (a refault). As
    /// `workingset_refault` decides (4.9), the pages come back active when their refault
    /// distance (``inactiveAgeBytes`` now less at their eviction) is at most the active file
    /// list (`activeFileBytes`), and each activation advances `inactive_age`
    /// (`workingset_activation`); otherwise they come back inactive. Returns the bytes read.
    func refaultSystemFile(activeFileBytes: Int) -> Int {
        let missing = systemFileEvictedBytes
        guard missing > 0 else { return 0 }
        let distance = inactiveAgeBytes - systemEvictionAgeBytes
        systemFileResidentBytes += missing
        counters.workingsetRefaultBytes += missing
        if distance <= activeFileBytes {
            counters.workingsetActivateBytes += missing
            inactiveAgeBytes += missing
        } else {
            systemFileInactiveBytes += missing
        }
        counters.systemRefaultBytes += missing
        return missing
    }
}

/// What the kernel's reclaim did in a run (`/proc/vmstat`'s names where it has them).
public struct LinuxMemoryCounters: Sendable, Equatable, Codable {
    /// Times kswapd woke (free memory fell below the low watermark).
    public var kswapdWakeups = 0
    /// Bytes kswapd reclaimed (`pgsteal_kswapd`), file and anonymous.
    public var kswapdReclaimedBytes = 0
    /// Allocations that reclaimed themselves, free memory below min (`allocstall`).
    public var directReclaimStalls = 0
    /// Bytes those reclaimed (`pgsteal_direct`).
    public var directReclaimedBytes = 0
    /// File bytes read again after eviction (`workingset_refault`): the system's and the apps'.
    public var workingsetRefaultBytes = 0
    /// Of those, the bytes activated at once (`workingset_activate`).
    public var workingsetActivateBytes = 0
    /// The system's own refaulted bytes (part of ``workingsetRefaultBytes``).
    public var systemRefaultBytes = 0
    /// File bytes evicted (the page cache's reclaim), the system's and the apps'.
    public var fileEvictedBytes = 0

    /// No reclaim yet.
    public init() {}
}
