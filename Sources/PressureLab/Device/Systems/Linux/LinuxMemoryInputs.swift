/// What Linux holds in a phone's RAM besides the apps, as a profile's `kernel:` section gives it
/// (docs/memory-under-load.md): the inputs of ``LinuxMemory``, each from a print of the phone or
/// marked an estimate in the profile.
///
/// The kernel's books (`/proc/meminfo`) split MemTotal into memory on no LRU list (the kernel's
/// own: unreclaimable slab, stacks, page tables, GPU and ION buffers), anonymous memory (the
/// system's processes' and the apps'), the page cache (file pages: code and resources, each
/// process's and the files read once) and free pages. The apps' anonymous memory and their own
/// file pages are the simulation's real memory; the rest is counted here, page for page.
public struct LinuxMemoryInputs: Sendable, Equatable {
    /// MemTotal: the RAM the kernel manages, bytes.
    public var memTotalBytes: Int
    /// Memory on no LRU list, which reclaim never frees: unreclaimable slab, kernel stacks,
    /// page tables, vmalloc and the GPU's and ION's buffers, bytes.
    public var kernelBytes: Int
    /// The system's processes' anonymous memory and shared memory (system_server, SurfaceFlinger,
    /// the launcher, SystemUI, persistent services, native daemons), bytes: freed only by swap,
    /// which the model does not take from the system (an estimate: the system's pages are kept).
    public var systemAnonBytes: Int
    /// The system's file pages mapped executable (`.so`, `.oat` code): referenced while the system
    /// runs, which is always, so reclaim keeps them on the active list (`VM_EXEC`,
    /// `shrink_active_list`, `page_check_references`), bytes.
    public var systemExecBytes: Int
    /// The rest of the system's file working set (resources, `.jar`/`.apk`/`.vdex` mappings, fonts,
    /// databases): used by the running system, but not executable, so reclaim deactivates and
    /// evicts it like any file page, and the system reads it again (a refault), bytes.
    public var systemFileBytes: Int
    /// Page cache no process uses at the workload's start (files read once since boot): the
    /// inactive list's oldest pages, the first to go, bytes.
    public var coldCacheBytes: Int
    /// `vm.min_free_kbytes` when the phone sets it; nil: the kernel's own from the RAM it manages
    /// (``LinuxWatermarks/defaultMinFreeKbytes(memTotalBytes:)``).
    public var minFreeKbytes: Int?
    /// `vm.watermark_scale_factor` (the kernel's default 10: 0.1% of memory).
    public var watermarkScaleFactor: Int
    /// Android's `vm.extra_free_kbytes` (what ActivityManager's `ProcessList.updateOomLevels`
    /// writes), added to the low and high watermarks.
    public var extraFreeKbytes: Int
    /// `vm.swappiness`: the weight of anonymous pages against file pages when both can be
    /// reclaimed (``LinuxScanBalance``).
    public var swappiness: Int
    /// Whether the kernel was built with `CONFIG_BALANCE_ANON_FILE_RECLAIM` (both Pixels'
    /// defconfigs): reclaim weighs anonymous and file pages even while the inactive file list is
    /// large (``LinuxScanBalance``).
    public var balancesAnonAndFile: Bool
    /// lmkd's minfree table when lmkd reads it (`ro.lmk.use_minfree_levels`): each level's
    /// free-and-file threshold and the lowest `oom_score_adj` it kills (``LinuxMinfreeLevel``);
    /// empty: lmkd follows pressure levels instead.
    public var minfreeLevels: [LinuxMinfreeLevel]
    /// `vm.page-cluster`: a swapped page faulted back reads 2^page_cluster pages around it from
    /// a swap device that is not fast (`swapin_readahead`, `swapin_nr_pages` in
    /// `mm/swap_state.c`); 0 reads the faulting page alone. Nil: the kernel's own, 3
    /// (`swap_setup`, `mm/swap.c`, above 16 MiB of RAM).
    public var pageCluster: Int?

    /// Inputs with each figure given; see the properties.
    public init(memTotalBytes: Int, kernelBytes: Int, systemAnonBytes: Int, systemExecBytes: Int, systemFileBytes: Int,
                coldCacheBytes: Int, minFreeKbytes: Int? = nil, watermarkScaleFactor: Int = 10, extraFreeKbytes: Int = 0,
                swappiness: Int = 60, balancesAnonAndFile: Bool = false, minfreeLevels: [LinuxMinfreeLevel] = [],
                pageCluster: Int? = nil) {
        self.balancesAnonAndFile = balancesAnonAndFile
        self.pageCluster = pageCluster
        self.minfreeLevels = minfreeLevels
        self.memTotalBytes = memTotalBytes
        self.kernelBytes = kernelBytes
        self.systemAnonBytes = systemAnonBytes
        self.systemExecBytes = systemExecBytes
        self.systemFileBytes = systemFileBytes
        self.coldCacheBytes = coldCacheBytes
        self.minFreeKbytes = minFreeKbytes
        self.watermarkScaleFactor = watermarkScaleFactor
        self.extraFreeKbytes = extraFreeKbytes
        self.swappiness = swappiness
    }

    /// Pages one swap-in reads from a swap file (2^`vm.page-cluster`, ``pageCluster``; the
    /// kernel's default 3 gives 8).
    public var swapReadPages: Int { 1 << min(max(pageCluster ?? 3, 0), 16) }

    /// Memory the system holds whatever happens (the kernel's own and the system's anonymous
    /// memory), bytes.
    public var fixedBytes: Int { kernelBytes + systemAnonBytes }
}

/// One row of lmkd's minfree table (`lowmem_minfree`, `lowmem_adj`; android-10.0.0_r1
/// `lmkd/lmkd.c` `mp_event_common`): when free memory less the reserve and the page cache less
/// shared memory are both under `minfreeBytes`, lmkd kills from `oom_score_adj` `minimumAdj` up.
public struct LinuxMinfreeLevel: Sendable, Equatable {
    /// The threshold, bytes.
    public var minfreeBytes: Int
    /// The lowest `oom_score_adj` killed at this level.
    public var minimumAdj: Int

    /// A row of the table.
    public init(minfreeBytes: Int, minimumAdj: Int) {
        self.minfreeBytes = minfreeBytes
        self.minimumAdj = minimumAdj
    }
}
