/// Linux's memory management on a device with the kernel's books (docs/memory-under-load.md):
/// the books themselves (``LinuxMemory``), the apps' clean pages as last read, and the step's
/// memory stall; kswapd, direct reclaim, reclaim's walk of the LRU lists and the refaults run
/// here, asked by the device at its events (an allocation, a launch, a file read, the step's end).
///
/// Free memory is MemTotal less the kernel's own, the system's anonymous memory and file
/// pages, the apps' anonymous memory (zram's pool included) and the apps' file pages. Below
/// the low watermark kswapd reclaims until free memory is above high (at the end of each
/// step); an allocation that would take free memory below min reclaims first itself (direct
/// reclaim, its stall charged to that app), and when nothing is left to reclaim the allocation
/// goes to the termination policy's emergency path, where the kernel's OOM killer or lmkd picks
/// a victim.
///
/// The memory system makes it (``MemorySystem/linuxKernel(for:)``): Android's runs Linux's; an
/// XNU system lends it as a what-if when a profile gives an iPhone a `kernel:` section.
public final class LinuxKernel {
    // Read on every admission (the budget, free memory): like the device's hot properties,
    // these skip the dynamic exclusivity checks (Benchmarks/README.md, "Exclusivity checks").

    /// Linux's books beside the apps.
    public let books: LinuxMemory
    /// The device's costs, to turn a stall's work into device time (nil: no device time).
    let costs: CostModel?
    /// The device's compressor, as the costs price it.
    let compressor: Compressor
    /// The apps' clean pages resident, as last read (read on every admission; `mincore` is
    /// read again at each step's end and after each reclaim).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    var appsCleanResidentBytes = 0
    /// Whether memory stalled in this step (kswapd ran or an allocation reclaimed directly):
    /// lmkd's event on a device without device time (``LmkdMinfreeReading/event``).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    var stalledThisStep = false
    /// The step's memory stall in device time (``PressureStall``): lmkd's event with costs.
    var stall = PressureStall()

    /// The kernel of a device `model` with books of `inputs`, every system page resident.
    init(inputs: LinuxMemoryInputs, model: DeviceModel) {
        self.books = LinuxMemory(inputs: inputs)
        self.costs = model.costs
        self.compressor = model.compressor
    }

    /// The memory the apps' anonymous memory may hold: what the books leave above the min
    /// watermark (the apps' file pages, the system's and the kernel's taken off).
    var budgetBytes: Int {
        books.inputs.memTotalBytes - books.systemResidentBytes - appsCleanResidentBytes - books.watermarks.minBytes
    }

    /// Free memory by the books when the apps hold `usedBytes` of anonymous memory.
    func freeBytes(usedBytes: Int) -> Int {
        books.inputs.memTotalBytes - books.systemResidentBytes - appsCleanResidentBytes - usedBytes
    }

    /// Free memory by the books now, on `device`.
    func freeBytes(on device: Device) -> Int { freeBytes(usedBytes: device.liveUsedBytes) }

    /// Reads the apps' clean pages again (`mincore`).
    func readAppsCleanPages(on device: Device) {
        appsCleanResidentBytes = device.cleanResidentBytes
    }

    /// The file LRU lists as the kernel would hold them now: active, the system's code, its
    /// working set (less what came back inactive) and the clean pages of the app in front (or
    /// `sparing`, the app whose allocation waits), which it uses; inactive, the rest.
    func fileLists(sparing: Device.InstalledApp?, on device: Device) -> (active: Int, inactive: Int) {
        var inUse = 0
        for installed in device.apps where installed === device.foreground || installed === sparing {
            inUse += installed.app.cleanResidentBytes
        }
        let active = books.inputs.systemExecBytes + books.systemFileResidentBytes - books.systemFileInactiveBytes + inUse
        let inactive = books.coldCacheResidentBytes + books.systemFileInactiveBytes + max(0, appsCleanResidentBytes - inUse)
        return (active, inactive)
    }

    // MARK: Events

    /// An allocation of `size` bytes for `installed`: below min it reclaims first (direct
    /// reclaim). Returns the bytes the reclaim freed when the allocation then fits, nil when
    /// it need not reclaim or still does not fit (the device's budget decides next).
    func admit(_ size: Int, for installed: Device.InstalledApp, on device: Device) -> Int? {
        guard freeBytes(on: device) - size < books.watermarks.minBytes else { return nil }
        // Below min: the allocation reclaims first (direct reclaim), then, if nothing is
        // left to take, the termination policy's emergency path (the OOM killer, lmkd).
        let before = device.liveUsedBytes
        guard directReclaim(bytes: size, for: installed, on: device) else { return nil }
        return max(0, before - device.liveUsedBytes)
    }

    /// kswapd: woken when free memory is below the low watermark, it reclaims until free memory
    /// is above high, or until nothing more can be reclaimed (`balance_pgdat`; 4.9 `mm/vmscan.c`).
    func runKswapd(on device: Device) {
        readAppsCleanPages(on: device)
        guard freeBytes(on: device) < books.watermarks.lowBytes else { return }
        books.counters.kswapdWakeups += 1
        stalledThisStep = true
        let reclaimed = reclaim(toFree: books.watermarks.highBytes, sparing: nil, on: device)
        books.counters.kswapdReclaimedBytes += reclaimed.total
        // kswapd's own task is in a memory stall while it balances (`balance_pgdat`).
        stalled(reclaimed.work)
    }

    /// Direct reclaim for `installed`'s allocation of `bytes` that would take free memory below
    /// min (`__alloc_pages_direct_reclaim`): reclaims until it fits above min, counting a stall;
    /// what the reclaim wrote or compressed of other apps is charged to `installed` (the
    /// allocating task does that work and waits for it). Returns whether the allocation fits.
    func directReclaim(bytes: Int, for installed: Device.InstalledApp, on device: Device) -> Bool {
        readAppsCleanPages(on: device)
        if freeBytes(on: device) - bytes >= books.watermarks.minBytes { return true }
        books.counters.directReclaimStalls += 1
        stalledThisStep = true
        // What other apps lose now (swapped, compressed, killed) is theirs, not the allocating
        // app's open scope's: its ledger charges it to no owner.
        let reclaimed = installed.app.runtime.ledger.unattributed {
            reclaim(toFree: books.watermarks.minBytes + bytes, sparing: installed, on: device)
        }
        books.counters.directReclaimedBytes += reclaimed.total
        if !reclaimed.work.isZero { installed.app.runtime.count { $0 = $0 + reclaimed.work } }
        stalled(reclaimed.work)
        return freeBytes(on: device) - bytes >= books.watermarks.minBytes
    }

    /// The step ended: a new window for the stall.
    func stepEnded() {
        stalledThisStep = false
        stall.reset()
    }

    /// What lmkd reads when it decides (its minfree levels against free memory and file pages,
    /// woken by the step's stall), and the OOM killer's `totalpages`: RAM and swap
    /// (`constrained_alloc`, `mm/oom_kill.c`).
    func pressureRead(into state: inout DeviceSnapshot, on device: Device) {
        state.oomTotalBytes = books.inputs.memTotalBytes + state.swapTotalBytes
        guard !books.inputs.minfreeLevels.isEmpty else { return }
        let free = freeBytes(on: device)
        let file = books.inputs.systemExecBytes + books.systemFileResidentBytes + books.coldCacheResidentBytes
            + appsCleanResidentBytes
        state.lmkdMinfree = LmkdMinfreeReading(event: costs == nil ? stalledThisStep : stall.triggered,
                                               otherFreeBytes: free - books.watermarks.highBytes,
                                               otherFileBytes: file, levels: books.inputs.minfreeLevels)
    }

    // MARK: The stall

    /// Adds `work`'s device time to the step's memory stall (``PressureStall``).
    func stalled(_ work: WorkCounters) {
        guard let costs, !work.isZero else { return }
        stall.add(costs.nanoseconds(for: work, compressor: compressor))
    }

    /// Adds the time to read `bytes` of file pages back to the step's memory stall.
    func stalledReading(_ bytes: Int) {
        guard bytes > 0 else { return }
        var work = WorkCounters()
        work.storageReadBytes = bytes
        work.storageReads = 1
        stalled(work)
    }
}

extension WorkCounters {
    /// Whether nothing was counted.
    var isZero: Bool { self == WorkCounters() }
}
