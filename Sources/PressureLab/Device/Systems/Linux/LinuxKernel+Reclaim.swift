/// Reclaim's walk of the LRU lists, and the file pages read back (refaults), on Linux's books
/// (``LinuxKernel``; 4.9 `mm/vmscan.c`, `mm/workingset.c`).
extension LinuxKernel {
    /// What one reclaim freed, and the work it made other apps' runtimes do (swap writes,
    /// compression), which a direct reclaim charges to the allocating app.
    struct Reclaimed {
        var total = 0
        var work = WorkCounters()
    }

    /// Reclaims until free memory reaches `goal`: file pages in LRU order (the cold cache, the
    /// clean pages of apps not in use, least recently used first, then the system's working
    /// set), and, where swap or zram can take them, suspended apps' anonymous memory, region by
    /// region, as the scan balance weighs them (``LinuxScanBalance``). The system's code and the
    /// file pages of the app in use (and `sparing`'s) are kept: referenced executable pages stay
    /// on the active list (`page_check_references`, `shrink_active_list`).
    func reclaim(toFree goal: Int, sparing: Device.InstalledApp?, on device: Device) -> Reclaimed {
        var outcome = Reclaimed()
        var anonScanned = 0, fileScanned = 0
        while true {
            let free = freeBytes(on: device)
            guard free < goal else { break }
            let need = goal - free
            let lists = fileLists(sparing: sparing, on: device)
            let anonVictim = anonReclaimCandidate(sparing: sparing, on: device)
            let balance = LinuxScanBalance.decide(swapAvailable: anonVictim != nil, inactiveFileBytes: lists.inactive,
                                                  activeFileBytes: lists.active, swappiness: books.inputs.swappiness,
                                                  freeBytes: free, highWatermarkBytes: books.watermarks.highBytes,
                                                  balancesAnonAndFile: books.inputs.balancesAnonAndFile)
            if balance.nextIsAnon(anonScannedBytes: anonScanned, fileScannedBytes: fileScanned), let victim = anonVictim {
                let freed = reclaimAnon(victim, sparing: sparing, into: &outcome, on: device)
                anonScanned += max(freed, 1)
                if freed > 0 { continue }
            }
            let freedFile = reclaimFile(need, sparing: sparing, on: device)
            if freedFile > 0 {
                fileScanned += freedFile
                outcome.total += freedFile
                continue
            }
            // No file page left to take: anonymous memory, whatever the balance, else nothing.
            guard let victim = anonVictim else { break }
            let freed = reclaimAnon(victim, sparing: sparing, into: &outcome, on: device)
            guard freed > 0 else { break }
            anonScanned += freed
        }
        return outcome
    }

    /// A suspended app whose anonymous memory can go to zram or the swap file now.
    private func anonReclaimCandidate(sparing: Device.InstalledApp?, on device: Device) -> Device.InstalledApp? {
        device.compressor?.candidate(sparing: sparing, on: device) ?? device.swapFile?.candidate(sparing: sparing, on: device)
    }

    /// Compresses (zram) or swaps out `victim`'s memory, as ``anonReclaimCandidate(sparing:on:)``
    /// chose it; returns the bytes freed.
    private func reclaimAnon(_ victim: Device.InstalledApp, sparing: Device.InstalledApp?, into outcome: inout Reclaimed,
                             on device: Device) -> Int {
        let before = device.liveUsedBytes, workBefore = victim.app.runtime.work
        let done = device.compressor?.candidate(sparing: sparing, on: device) === victim ? device.compress(victim) : device.swapOut(victim)
        guard done else { return 0 }
        let freed = max(0, before - device.liveUsedBytes)
        outcome.total += freed
        outcome.work = outcome.work + (victim.app.runtime.work - workBefore)
        return freed
    }

    /// Evicts file pages, the oldest first: cold cache, the system's working set that came back
    /// inactive, the clean pages of apps not in use (least recently used first), then the rest of
    /// the system's working set. Returns the bytes evicted.
    private func reclaimFile(_ bytes: Int, sparing: Device.InstalledApp?, on device: Device) -> Int {
        var evicted = books.evictColdCache(bytes)
        if evicted < bytes { evicted += books.evictSystemFile(min(bytes - evicted, books.systemFileInactiveBytes)) }
        if evicted < bytes {
            let idle = device.apps.filter {
                $0 !== device.foreground && $0 !== sparing && $0.app.cleanBytes > 0 && $0.app.cleanResidentBytes > 0
            }
            if let oldest = idle.min(by: { $0.useOrder < $1.useOrder }) {
                let dropped = oldest.app.dropCleanMemory()
                device.metrics.cleanBytesDropped += dropped
                books.inactiveAgeBytes += dropped
                evicted += dropped
                readAppsCleanPages(on: device)
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
    func systemTouchesItsPages(chargingTo installed: Device.InstalledApp, on device: Device) {
        guard books.systemFileEvictedBytes > 0 else { return }
        let missing = books.systemFileEvictedBytes
        _ = directReclaim(bytes: missing, for: installed, on: device)
        let read = books.refaultSystemFile(activeFileBytes: fileLists(sparing: installed, on: device).active)
        installed.app.runtime.count { work in
            work.storageReadBytes += read
            work.storageReads += 1
        }
        stalledReading(read)
    }

    /// An app read `bytes` of its file pages (a refault, or a first touch): the pages take
    /// free memory, direct reclaim first when that would fall below min.
    func filePagesRead(_ bytes: Int, refault: Bool, by installed: Device.InstalledApp, on device: Device) {
        guard bytes > 0 else { return }
        appsCleanResidentBytes += bytes
        if refault {
            books.counters.workingsetRefaultBytes += bytes
            // Pages of a working set read back: the task waits on them (thrashing).
            stalledReading(bytes)
        }
        if freeBytes(on: device) < books.watermarks.minBytes {
            _ = directReclaim(bytes: 0, for: installed, on: device)
        }
    }
}
