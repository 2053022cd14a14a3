/// Memory as Linux holds it, on a device with the kernel's books (``kernelBooks``;
/// docs/memory-under-load.md): free memory is MemTotal less the kernel's own, the system's
/// anonymous memory and file pages, the apps' anonymous memory (zram's pool included) and the
/// apps' file pages. Below the low watermark kswapd reclaims until free memory is above high
/// (at the end of each step); an allocation that would take free memory below min reclaims
/// first itself (direct reclaim, its stall charged to that app), and when nothing is left to
/// reclaim the allocation goes to the termination policy's emergency path, where the kernel's
/// OOM killer or lmkd picks a victim.
extension Device {
    /// The memory the apps' anonymous memory may hold: on a device with a budget, the budget;
    /// with the kernel's books, what they leave above the min watermark (the apps' file pages,
    /// the system's and the kernel's taken off).
    public var budgetBytes: Int {
        guard let books = kernelBooks else { return model.budgetBytes }
        return books.inputs.memTotalBytes - books.systemResidentBytes - appsCleanResidentCache - books.watermarks.minBytes
    }

    /// Free memory by the kernel's books, bytes (nil: a device with a budget).
    public var kernelFreeBytes: Int? {
        guard let books = kernelBooks else { return nil }
        return books.inputs.memTotalBytes - books.systemResidentBytes - appsCleanResidentCache - liveUsedBytes
    }

    /// Reads the apps' clean pages again (`mincore`).
    func refreshAppsCleanResident() {
        appsCleanResidentCache = cleanResidentBytes
    }

    /// The file LRU lists as the kernel would hold them now: active, the system's code, its
    /// working set (less what came back inactive) and the clean pages of the app in front (or
    /// `sparing`, the app whose allocation waits), which it uses; inactive, the rest.
    func fileLists(sparing: InstalledApp?) -> (active: Int, inactive: Int) {
        guard let books = kernelBooks else { return (0, 0) }
        var inUse = 0
        for installed in apps where installed === foreground || installed === sparing { inUse += installed.app.cleanResidentBytes }
        let active = books.inputs.systemExecBytes + books.systemFileResidentBytes - books.systemFileInactiveBytes + inUse
        let inactive = books.coldCacheResidentBytes + books.systemFileInactiveBytes + max(0, appsCleanResidentCache - inUse)
        return (active, inactive)
    }

    /// kswapd: woken when free memory is below the low watermark, it reclaims until free memory
    /// is above high, or until nothing more can be reclaimed (`balance_pgdat`; 4.9 `mm/vmscan.c`).
    func runKswapd() {
        guard let books = kernelBooks else { return }
        refreshAppsCleanResident()
        guard let free = kernelFreeBytes, free < books.watermarks.lowBytes else { return }
        books.counters.kswapdWakeups += 1
        kernelStalledThisStep = true
        let reclaimed = reclaimByKernel(toFree: books.watermarks.highBytes, sparing: nil)
        books.counters.kswapdReclaimedBytes += reclaimed.total
        // kswapd's own task is in a memory stall while it balances (`balance_pgdat`).
        stalled(reclaimed.work)
    }

    /// Direct reclaim for `installed`'s allocation of `bytes` that would take free memory below
    /// min (`__alloc_pages_direct_reclaim`): reclaims until it fits above min, counting a stall;
    /// what the reclaim wrote or compressed of other apps is charged to `installed` (the
    /// allocating task does that work and waits for it). Returns whether the allocation fits.
    func directReclaim(bytes: Int, for installed: InstalledApp) -> Bool {
        guard let books = kernelBooks else { return false }
        refreshAppsCleanResident()
        if let free = kernelFreeBytes, free - bytes >= books.watermarks.minBytes { return true }
        books.counters.directReclaimStalls += 1
        kernelStalledThisStep = true
        let reclaimed = reclaimByKernel(toFree: books.watermarks.minBytes + bytes, sparing: installed)
        books.counters.directReclaimedBytes += reclaimed.total
        if !reclaimed.work.isZero { installed.app.runtime.count { $0 = $0 + reclaimed.work } }
        stalled(reclaimed.work)
        return (kernelFreeBytes ?? 0) - bytes >= books.watermarks.minBytes
    }

    /// What one reclaim freed, and the work it made other apps' runtimes do (swap writes,
    /// compression), which a direct reclaim charges to the allocating app.
    struct KernelReclaim {
        var total = 0
        var work = WorkCounters()
    }

    /// Reclaims until free memory reaches `goal`: file pages in LRU order (the cold cache, the
    /// clean pages of apps not in use, least recently used first, then the system's working
    /// set), and, where swap or zram can take them, suspended apps' anonymous memory, region by
    /// region, as the scan balance weighs them (``LinuxScanBalance``). The system's code and the
    /// file pages of the app in use (and `sparing`'s) are kept: referenced executable pages stay
    /// on the active list (`page_check_references`, `shrink_active_list`).
    func reclaimByKernel(toFree goal: Int, sparing: InstalledApp?) -> KernelReclaim {
        guard let books = kernelBooks else { return KernelReclaim() }
        var outcome = KernelReclaim()
        var anonScanned = 0, fileScanned = 0
        while let free = kernelFreeBytes, free < goal {
            let need = goal - free
            let lists = fileLists(sparing: sparing)
            let anonVictim = anonReclaimCandidate(sparing: sparing)
            let balance = LinuxScanBalance.decide(swapAvailable: anonVictim != nil, inactiveFileBytes: lists.inactive,
                                                  activeFileBytes: lists.active, swappiness: books.inputs.swappiness,
                                                  freeBytes: free, highWatermarkBytes: books.watermarks.highBytes,
                                                  balancesAnonAndFile: books.inputs.balancesAnonAndFile)
            if balance.nextIsAnon(anonScannedBytes: anonScanned, fileScannedBytes: fileScanned), let victim = anonVictim {
                let freed = reclaimAnon(victim, sparing: sparing, into: &outcome)
                anonScanned += max(freed, 1)
                if freed > 0 { continue }
            }
            let freedFile = reclaimFile(need, sparing: sparing)
            if freedFile > 0 {
                fileScanned += freedFile
                outcome.total += freedFile
                continue
            }
            // No file page left to take: anonymous memory, whatever the balance, else nothing.
            guard let victim = anonVictim else { break }
            let freed = reclaimAnon(victim, sparing: sparing, into: &outcome)
            guard freed > 0 else { break }
            anonScanned += freed
        }
        return outcome
    }

    /// A suspended app whose anonymous memory can go to zram or the swap file now.
    private func anonReclaimCandidate(sparing: InstalledApp?) -> InstalledApp? {
        compressionCandidate(sparing: sparing) ?? swapCandidate(sparing: sparing)
    }

    /// Compresses (zram) or swaps out `victim`'s memory, as ``anonReclaimCandidate(sparing:)``
    /// chose it; returns the bytes freed.
    private func reclaimAnon(_ victim: InstalledApp, sparing: InstalledApp?, into outcome: inout KernelReclaim) -> Int {
        let before = liveUsedBytes, workBefore = victim.app.runtime.work
        let done = compressionCandidate(sparing: sparing) === victim ? compress(victim) : swapOut(victim)
        guard done else { return 0 }
        let freed = max(0, before - liveUsedBytes)
        outcome.total += freed
        outcome.work = outcome.work + (victim.app.runtime.work - workBefore)
        return freed
    }

    /// Evicts file pages, the oldest first: cold cache, the system's working set that came back
    /// inactive, the clean pages of apps not in use (least recently used first), then the rest of
    /// the system's working set. Returns the bytes evicted.
    private func reclaimFile(_ bytes: Int, sparing: InstalledApp?) -> Int {
        guard let books = kernelBooks else { return 0 }
        var evicted = books.evictColdCache(bytes)
        if evicted < bytes { evicted += books.evictSystemFile(min(bytes - evicted, books.systemFileInactiveBytes)) }
        if evicted < bytes {
            let idle = apps.filter { $0 !== foreground && $0 !== sparing && $0.app.cleanBytes > 0 && $0.app.cleanResidentBytes > 0 }
            if let oldest = idle.min(by: { $0.useOrder < $1.useOrder }) {
                let dropped = oldest.app.dropCleanMemory()
                metrics.cleanBytesDropped += dropped
                books.inactiveAgeBytes += dropped
                evicted += dropped
                refreshAppsCleanResident()
            }
        }
        if evicted < bytes { evicted += books.evictSystemFile(bytes - evicted) }
        books.counters.fileEvictedBytes += evicted
        return evicted
    }

    /// The system uses its working set (at every launch: system_server, SurfaceFlinger and the
    /// launcher all run for it): what reclaim evicted is read again from storage, charged to
    /// `installed`'s launch, and taking memory as any allocation does (direct reclaim first when
    /// free memory would fall below min).
    func systemTouchesItsPages(chargingTo installed: InstalledApp) {
        guard let books = kernelBooks, books.systemFileEvictedBytes > 0 else { return }
        let missing = books.systemFileEvictedBytes
        _ = directReclaim(bytes: missing, for: installed)
        let read = books.refaultSystemFile(activeFileBytes: fileLists(sparing: installed).active)
        installed.app.runtime.count { work in
            work.storageReadBytes += read
            work.storageReads += 1
        }
        stalledReading(read)
    }

    /// An app read `bytes` of its file pages (a refault, or a first touch): the pages take
    /// free memory, direct reclaim first when that would fall below min.
    func filePagesRead(_ bytes: Int, refault: Bool, by installed: InstalledApp) {
        guard let books = kernelBooks, bytes > 0 else { return }
        appsCleanResidentCache += bytes
        if refault {
            books.counters.workingsetRefaultBytes += bytes
            // Pages of a working set read back: the task waits on them (thrashing).
            stalledReading(bytes)
        }
        if let free = kernelFreeBytes, free < books.watermarks.minBytes {
            _ = directReclaim(bytes: 0, for: installed)
        }
    }
}

extension Device {
    /// Adds `work`'s device time to the step's memory stall (``PressureStall``).
    func stalled(_ work: WorkCounters) {
        guard let costs = model.costs, !work.isZero else { return }
        kernelStall.add(costs.nanoseconds(for: work, compressor: model.compressor))
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
