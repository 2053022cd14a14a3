@testable import PressureLab
import PressureLabHeap
import Testing

/// Memory as Linux holds it (docs/memory-under-load.md): each rule in a situation its source
/// decides, with figures worked by hand. Sources: the Pixel 3's msm-4.9 (4.9.210) in
/// jiachengh/Fleet @ 32f22f7a `src/Fleet-Kernel/msm-google` (`mm/page_alloc.c`, `mm/vmscan.c`,
/// `mm/workingset.c`, `mm/oom_kill.c`) and AOSP `system/core` at android-10.0.0_r1 (`lmkd/lmkd.c`).
@Suite("Linux's books: watermarks, kswapd, direct reclaim, refaults, the OOM killer, minfree")
struct LinuxMemoryTests {
    static let mib = 1 << 20

    /// Costs worked by hand in the tests: a 50 ms first frame, storage at 100 MB/s with 100 us a read.
    static let costs = CostModel(processStartNanoseconds: 1_000_000, appInitNanoseconds: 1_000_000, firstFrameNanoseconds: 50_000_000,
                                 storageRead: .init(bytesPerSecond: 100_000_000, latencyNanoseconds: 100_000),
                                 storageWrite: .init(bytesPerSecond: 100_000_000), viewDecodeNanoseconds: 10_000,
                                 viewLayoutNanoseconds: 10_000, bitmapDrawBytesPerSecond: 1 << 30, cacheFillBytesPerSecond: 1 << 30,
                                 archiveDecodeBytesPerSecond: 1 << 30)

    /// A device of `inputs` with a bare model (no costs), lmkd's kill path off as on Fleet's phone.
    static func device(_ inputs: LinuxMemoryInputs) -> Device {
        var model = DeviceModel(budgetBytes: inputs.memTotalBytes, release: .android10)
        model.kernel = inputs
        return Device(model: model, termination: LowMemoryKillerPolicy(lmkdKills: false))
    }

    @Test("watermarks (__setup_per_zone_wmarks, init_per_zone_wmark_min): the Pixel 3's and the Pixel 4's, by hand")
    func watermarks() {
        // Pixel 3: MemTotal 3,851,878 KiB, watermark_scale_factor 0, extra_free_kbytes 27,337.
        // min_free_kbytes = isqrt(3,851,878 x 16 = 61,630,048) = 7,850 (7,850² = 61,622,500).
        let pixel3 = LinuxWatermarks(LinuxMemoryInputs(memTotalBytes: 3_851_878 * 1024, kernelBytes: 0, systemAnonBytes: 0,
                                                       systemExecBytes: 0, systemFileBytes: 0, coldCacheBytes: 0,
                                                       watermarkScaleFactor: 0, extraFreeKbytes: 27_337))
        #expect(LinuxWatermarks.defaultMinFreeKbytes(memTotalBytes: 3_851_878 * 1024) == 7_850)
        // min 8,038,400 B; the step min / 4 = 2,009,600; extra 27,993,088.
        #expect(pixel3 == LinuxWatermarks(minBytes: 8_038_400, lowBytes: 8_038_400 + 2_009_600 + 27_993_088,
                                          highBytes: 8_038_400 + 2 * 2_009_600 + 27_993_088))
        // Pixel 4: 5,578,140 KiB, factor 10, extra 28,856. isqrt(89,250,240) = 9,447; the step is
        // 5,712,015,360 / 10,000 x 10 = 5,712,010 B, more than min / 4 (2,418,432).
        let pixel4 = LinuxWatermarks(LinuxMemoryInputs(memTotalBytes: 5_578_140 * 1024, kernelBytes: 0, systemAnonBytes: 0,
                                                       systemExecBytes: 0, systemFileBytes: 0, coldCacheBytes: 0,
                                                       watermarkScaleFactor: 10, extraFreeKbytes: 28_856))
        #expect(pixel4 == LinuxWatermarks(minBytes: 9_673_728, lowBytes: 9_673_728 + 5_712_010 + 29_548_544,
                                          highBytes: 9_673_728 + 2 * 5_712_010 + 29_548_544))
        // The clamps: at least 128, at most 65,536.
        #expect(LinuxWatermarks.defaultMinFreeKbytes(memTotalBytes: 1 << 20) == 128)
        #expect(LinuxWatermarks.defaultMinFreeKbytes(memTotalBytes: 1 << 42) == 65_536)
    }

    @Test("scan balance (get_scan_count, inactive_list_is_low): file only without swap, anon only with the cache gone, weighted by swappiness")
    func scanBalance() {
        let mib = Self.mib
        #expect(LinuxScanBalance.decide(swapAvailable: false, inactiveFileBytes: 500 * mib, activeFileBytes: 100 * mib,
                                        swappiness: 100) == .file)
        // Enough inactive file pages: file only, unless the kernel balances anon and file (both Pixels).
        #expect(LinuxScanBalance.decide(swapAvailable: true, inactiveFileBytes: 500 * mib, activeFileBytes: 100 * mib,
                                        swappiness: 60) == .file)
        #expect(LinuxScanBalance.decide(swapAvailable: true, inactiveFileBytes: 500 * mib, activeFileBytes: 100 * mib,
                                        swappiness: 100, balancesAnonAndFile: true) == .fraction(anonWeight: 100, fileWeight: 100))
        // File pages and free memory at most the high watermarks: anonymous pages only.
        #expect(LinuxScanBalance.decide(swapAvailable: true, inactiveFileBytes: 10 * mib, activeFileBytes: 20 * mib,
                                        swappiness: 100, freeBytes: 5 * mib, highWatermarkBytes: 40 * mib) == .anon)
        // inactive_list_is_low: 1 GiB in all gives a ratio of isqrt(10) = 3.
        #expect(!LinuxScanBalance.inactiveListIsLow(inactiveBytes: 300 * mib, activeBytes: 800 * mib)) // 900 >= 800
        #expect(LinuxScanBalance.inactiveListIsLow(inactiveBytes: 200 * mib, activeBytes: 900 * mib))  // 600 < 900
        // Under 1 GiB the ratio is 1.
        #expect(LinuxScanBalance.inactiveListIsLow(inactiveBytes: 100 * mib, activeBytes: 101 * mib))
        // The weights: with equal weights the list that has had less goes next.
        let equal = LinuxScanBalance.fraction(anonWeight: 100, fileWeight: 100)
        #expect(equal.nextIsAnon(anonScannedBytes: 0, fileScannedBytes: 0))
        #expect(!equal.nextIsAnon(anonScannedBytes: 2 * mib, fileScannedBytes: 1 * mib))
        let fileHeavy = LinuxScanBalance.fraction(anonWeight: 60, fileWeight: 140)
        #expect(!fileHeavy.nextIsAnon(anonScannedBytes: 1 * mib, fileScannedBytes: 2 * mib))   // 140 > 120
        #expect(fileHeavy.nextIsAnon(anonScannedBytes: 1 * mib, fileScannedBytes: 3 * mib))    // 140 <= 180
    }

    @Test("workingset (workingset_refault): a page evicted and read again is activated when its refault distance is at most the active file list")
    func refaultActivation() {
        let mib = Self.mib
        let inputs = LinuxMemoryInputs(memTotalBytes: 1 << 30, kernelBytes: 0, systemAnonBytes: 0, systemExecBytes: 0,
                                       systemFileBytes: 100 * mib, coldCacheBytes: 300 * mib)
        // Evicted, then read again with nothing evicted in between: distance 0, activated.
        let near = LinuxMemory(inputs: inputs)
        #expect(near.evictSystemFile(40 * mib) == 40 * mib)
        #expect(near.inactiveAgeBytes == 40 * mib)
        #expect(near.refaultSystemFile(activeFileBytes: 100 * mib) == 40 * mib)
        #expect(near.counters.workingsetRefaultBytes == 40 * mib)
        #expect(near.counters.workingsetActivateBytes == 40 * mib)
        #expect(near.inactiveAgeBytes == 80 * mib)           // workingset_activation ages the clock too
        #expect(near.systemFileInactiveBytes == 0)
        // Evicted, then 200 MiB of cold cache evicted after it: distance 200 MiB > 100 MiB active,
        // so the pages come back inactive, the first of the working set reclaim takes again.
        let far = LinuxMemory(inputs: inputs)
        _ = far.evictSystemFile(40 * mib)
        #expect(far.evictColdCache(200 * mib) == 200 * mib)
        #expect(far.refaultSystemFile(activeFileBytes: 100 * mib) == 40 * mib)
        #expect(far.counters.workingsetRefaultBytes == 40 * mib)
        #expect(far.counters.workingsetActivateBytes == 0)
        #expect(far.systemFileInactiveBytes == 40 * mib)
        #expect(far.systemFileResidentBytes == 100 * mib)
    }

    @Test("kswapd (wakeup_kswapd, balance_pgdat): woken below low, it reclaims to high and stops; above low it sleeps")
    func kswapdStopsAtHigh() {
        let mib = Self.mib
        // min 1 MiB (min_free_kbytes 1024), step min / 4 = 256 KiB: low 1.25 MiB, high 1.5 MiB.
        // 1 MiB free at the start, under low.
        let inputs = LinuxMemoryInputs(memTotalBytes: 20 * mib, kernelBytes: 4 * mib, systemAnonBytes: 4 * mib,
                                       systemExecBytes: 1 * mib, systemFileBytes: 2 * mib, coldCacheBytes: 8 * mib,
                                       minFreeKbytes: 1024, watermarkScaleFactor: 0)
        let device = Self.device(inputs)
        let books = device.kernelBooks!
        #expect(books.watermarks == LinuxWatermarks(minBytes: 1 * mib, lowBytes: 1 * mib + 256 << 10, highBytes: 1 * mib + 512 << 10))
        #expect(device.kernelFreeBytes == 1 * mib)
        device.idle(seconds: 1)
        // It took exactly what reaches high, the oldest first: the cold cache.
        #expect(books.counters.kswapdWakeups == 1)
        #expect(books.counters.kswapdReclaimedBytes == 512 << 10)
        #expect(books.coldCacheResidentBytes == 8 * mib - 512 << 10)
        #expect(books.systemFileResidentBytes == 2 * mib)
        #expect(device.kernelFreeBytes == inputs.memTotalBytes - 4 * mib - 4 * mib - 1 * mib - 2 * mib - (8 * mib - 512 << 10))
        #expect(device.kernelFreeBytes == books.watermarks.highBytes)
        // At high, above low: not woken again.
        device.idle(seconds: 1)
        #expect(books.counters.kswapdWakeups == 1)
        // The budget the apps see is what the books leave above min.
        #expect(device.budgetBytes == books.watermarks.highBytes - books.watermarks.minBytes)
    }

    @Test("direct reclaim (__alloc_pages_direct_reclaim): an allocation below min reclaims first, a stall counted, and fits above min")
    func directReclaim() throws {
        let mib = Self.mib
        let inputs = LinuxMemoryInputs(memTotalBytes: 40 * mib, kernelBytes: 4 * mib, systemAnonBytes: 4 * mib,
                                       systemExecBytes: 1 * mib, systemFileBytes: 2 * mib, coldCacheBytes: 24 * mib,
                                       minFreeKbytes: 1024, watermarkScaleFactor: 0)
        let device = Self.device(inputs)
        let books = device.kernelBooks!
        // 5 MiB free; the app's 8 MiB bitmap cannot fit above min without reclaim.
        device.install(try CleanMemoryTests.app("big", clean: 0, bitmap: 8 * mib))
        try device.open("big")
        #expect(books.counters.directReclaimStalls >= 1)
        #expect(books.counters.directReclaimedBytes >= 3 * mib)
        // Only the cold cache went (the oldest file pages): the books balance to the byte.
        let evicted = 24 * mib - books.coldCacheResidentBytes
        #expect(evicted == books.counters.directReclaimedBytes + books.counters.kswapdReclaimedBytes)
        #expect(books.systemFileResidentBytes == 2 * mib)
        #expect(device.kernelFreeBytes! >= books.watermarks.minBytes)
        #expect(device.installed("big")!.app.state == .active)
    }

    @Test("direct reclaim inside an allocation: what it swaps out of another app is that app's loss, not the allocating app's (its ledger as in a roomy device; neither goes negative)")
    func directReclaimChargesNoOneElse() throws {
        let mib = Self.mib
        func launch(_ memTotal: Int) throws -> (big: Int, old: Int, swapped: Int, stalls: Int) {
            let inputs = LinuxMemoryInputs(memTotalBytes: memTotal, kernelBytes: 4 * mib, systemAnonBytes: 4 * mib,
                                           systemExecBytes: 1 * mib, systemFileBytes: 0, coldCacheBytes: 0, minFreeKbytes: 1024,
                                           watermarkScaleFactor: 0)
            var model = DeviceModel(budgetBytes: inputs.memTotalBytes, release: .android10, swapFileBytes: 64 * mib)
            model.kernel = inputs
            let device = Device(model: model, termination: LowMemoryKillerPolicy(lmkdKills: false))
            device.install(try CleanMemoryTests.app("old", clean: 0, bitmap: 8 * mib))
            device.install(try CleanMemoryTests.app("big", clean: 0, bitmap: 8 * mib))
            try device.open("old")
            try device.open("big")
            return (device.installed("big")!.bytes, device.installed("old")!.bytes, device.metrics.swappedOutBytes,
                    device.kernelBooks!.counters.directReclaimStalls)
        }
        let roomy = try launch(256 * mib)
        let tight = try launch(9 * mib + 21 * mib / 2)
        #expect(roomy.swapped == 0 && roomy.stalls == 0)
        // big's bitmap reclaimed old's 8 MiB into the swap file while big's scope was open.
        #expect(tight.stalls >= 1 && tight.swapped >= 8 * mib)
        #expect(tight.big == roomy.big)
        #expect(tight.old >= 0 && tight.old <= roomy.old - 8 * mib)
    }

    @Test("a resume under pressure pays for what it meets (issue 54, item 6): its own file pages read again and the swap-out its direct reclaim did, at the profile's costs")
    func resumePaysItsRefaultsAndStall() throws {
        let mib = Self.mib
        let costs = Self.costs
        // 9 MiB the system's; min 1 MiB; a swap file.
        let inputs = LinuxMemoryInputs(memTotalBytes: 9 * mib + 21 * mib / 2, kernelBytes: 4 * mib, systemAnonBytes: 4 * mib,
                                       systemExecBytes: 1 * mib, systemFileBytes: 0, coldCacheBytes: 0, minFreeKbytes: 1024,
                                       watermarkScaleFactor: 0)
        var model = DeviceModel(budgetBytes: inputs.memTotalBytes, release: .android10, swapFileBytes: 64 * mib, costs: costs)
        model.kernel = inputs
        let device = Device(model: model, termination: LowMemoryKillerPolicy(lmkdKills: false))
        let code = try CleanMemoryTests.app("code", clean: 2 * mib)
        device.install(code)
        device.install(try CleanMemoryTests.app("other", clean: 0, bitmap: 8 * mib))
        try device.open("code")
        // other's 8 MiB take the idle app's file pages first (the oldest on the inactive list).
        try device.open("other")
        #expect(code.cleanResidentBytes == 0)
        #expect(device.installed("code")!.app.state.hasProcess)
        let before = code.runtime.work
        let swappedBefore = device.metrics.swappedOutBytes
        #expect(try device.open("code") == .resume)
        // The resume read its 2 MiB of code again; that took free memory under min, and its
        // direct reclaim swapped other (suspended now) out: the write is the resume's too.
        let work = code.runtime.work - before
        let swapped = device.metrics.swappedOutBytes - swappedBefore
        #expect(swapped >= 8 * mib)
        #expect(work.storageReadBytes == 2 * mib)
        #expect(work.storageWriteBytes == swapped)
        #expect(device.kernelBooks!.counters.directReclaimStalls >= 2)
        // First frame + the read (2 MiB at 100 MB/s + one latency) + the write (at 100 MB/s).
        let expected: UInt64 = 50_000_000 + 100_000 + UInt64(2 * mib) * 10 + UInt64(swapped) * 10
        #expect(code.runtime.deviceNanoseconds(since: before) == expected)
    }

    @Test("PSI as lmkd reads it (psi_memstall_enter around direct reclaim, kswapd and working-set refaults; lmkd's low trigger, some 70 ms in 1 s): the step's stall in device time, the event only at 70 ms")
    func pressureStallEvent() {
        let mib = Self.mib
        let costs = Self.costs
        let levels = [LinuxMinfreeLevel(minfreeBytes: 400 * mib, minimumAdj: 900)]
        let inputs = LinuxMemoryInputs(memTotalBytes: 64 * mib, kernelBytes: 4 * mib, systemAnonBytes: 4 * mib, systemExecBytes: mib,
                                       systemFileBytes: 0, coldCacheBytes: 0, minFreeKbytes: 1024, watermarkScaleFactor: 0,
                                       minfreeLevels: levels)
        var model = DeviceModel(budgetBytes: inputs.memTotalBytes, release: .android10, costs: costs)
        model.kernel = inputs
        let device = Device(model: model, termination: LowMemoryKillerPolicy())
        func event() -> Bool? { device.deviceSnapshot(used: 0, target: 0, warned: false).lmkdMinfree?.event }
        #expect(event() == false)
        // 2 MiB of a working set read back: 100 us + 2 MiB at 100 MB/s = 21,071,520 ns, under 70 ms.
        device.linuxKernel!.stalledReading(2 * mib)
        #expect(device.linuxKernel!.stall.someNanoseconds == 21_071_520)
        #expect(event() == false)
        // A reclaim that wrote 5 MiB to swap: 52,428,800 ns more, 73,500,320 in all: the low trigger fires.
        var work = WorkCounters()
        work.storageWriteBytes = 5 * mib
        device.linuxKernel!.stalled(work)
        #expect(device.linuxKernel!.stall.someNanoseconds == 73_500_320)
        #expect(event() == true)
        // A new step, a new window.
        device.linuxKernel!.stall.reset()
        #expect(event() == false)
        #expect(PressureStall.lowSomeNanoseconds == 70_000_000 && PressureStall.windowNanoseconds == 1_000_000_000)
    }

    @Test("the OOM killer (oom_badness): with nothing left to reclaim, the process with the most points dies: a cached app at 900 before the previous app at 700")
    func oomVictimByBadness() throws {
        let mib = Self.mib
        // No file page at all: nothing to reclaim but processes.
        let inputs = LinuxMemoryInputs(memTotalBytes: 40 * mib, kernelBytes: 8 * mib, systemAnonBytes: 8 * mib,
                                       systemExecBytes: 0, systemFileBytes: 0, coldCacheBytes: 0, minFreeKbytes: 1024,
                                       watermarkScaleFactor: 0)
        let device = Self.device(inputs)
        for name in ["a", "b", "c"] { device.install(try CleanMemoryTests.app(name, clean: 0, bitmap: 8 * mib)) }
        try device.open("a")
        try device.open("b")
        #expect(device.installed("a")!.app.state.hasProcess)
        // c needs 8 MiB: 23 MiB free less a and b leave about 7; a (cached, 900) has 8 MiB +
        // 900 x 40 MiB / 1000 points, b (previous, 700) 8 MiB + 700 x ...: a dies.
        try device.open("c")
        #expect(!device.installed("a")!.app.state.hasProcess)
        #expect(device.installed("b")!.app.state.hasProcess)
        #expect(device.installed("c")!.app.state == .active)
        #expect(device.metrics.kills == 1)
        // The victim by the snapshot's own figures: totalpages is RAM (no swap here).
        var snapshot = DeviceSnapshot(apps: [], usedBytes: 0, budgetBytes: 1, level: .critical, bytesToFree: 0, freezeBudgetBytes: 0,
                                      runningAppsWarned: false, emergencyBytes: 1)
        snapshot.oomTotalBytes = 4 << 30
        snapshot.apps = [AppSnapshot.fixture("small-cached", adj: 900, bytes: 10 * mib),
                         AppSnapshot.fixture("big-previous", adj: 700, bytes: 300 * mib)]
        // 10 MiB + 900 x 4 GiB / 1000 > 300 MiB + 700 x 4 GiB / 1000 (a difference of 859 MiB in adj).
        #expect(LowMemoryKillerPolicy.kernelOOMVictim(snapshot) == .kill("small-cached", .kernelOOM))
    }

    @Test("lmkd's minfree levels (mp_event_common): the first row both free memory and the page cache are under gives min_score_adj")
    func minfreeLevels() {
        let mib = Self.mib
        // The Pixels' table (ProcessList.updateOomLevels at scale 1, 64-bit).
        let levels = zip([72, 90, 108, 126, 216, 315], [0, 100, 200, 300, 900, 999]).map {
            LinuxMinfreeLevel(minfreeBytes: $0 * mib, minimumAdj: $1)
        }
        func adj(free: Int, file: Int) -> Int? {
            LmkdMinfreeReading(event: true, otherFreeBytes: free * mib, otherFileBytes: file * mib, levels: levels).minimumAdj
        }
        #expect(adj(free: 200, file: 200) == 900)       // both under 216
        #expect(adj(free: 300, file: 310) == 999)       // both under 315 only
        #expect(adj(free: 50, file: 100) == 200)        // 72 and 90 fail on file; 108 holds both
        #expect(adj(free: 200, file: 400) == nil)       // the page cache is large: no kill
        #expect(adj(free: 400, file: 10) == nil)        // free memory is large: no kill
        // Without an event lmkd does not look.
        let quiet = LmkdMinfreeReading(event: false, otherFreeBytes: 0, otherFileBytes: 0, levels: levels)
        var snapshot = DeviceSnapshot(apps: [AppSnapshot.fixture("cached", adj: 950, bytes: mib)], usedBytes: 0, budgetBytes: 1,
                                      level: .normal, bytesToFree: 0, freezeBudgetBytes: 0, runningAppsWarned: false)
        #expect(LowMemoryKillerPolicy.minfreeVictim(snapshot, quiet) == nil)
        // With one: the heaviest at the highest adj at or above the row's.
        snapshot.apps += [AppSnapshot.fixture("heavy", adj: 950, bytes: 9 * mib), AppSnapshot.fixture("front", adj: 0, bytes: 90 * mib)]
        let short = LmkdMinfreeReading(event: true, otherFreeBytes: 100 * mib, otherFileBytes: 100 * mib, levels: levels)
        #expect(LowMemoryKillerPolicy.minfreeVictim(snapshot, short) == .kill("heavy", .lmkdMinfree))
    }
}

extension AppSnapshot {
    /// A cached app's snapshot with its adj and bytes (policy tests).
    static func fixture(_ name: String, adj: Int, bytes: Int) -> AppSnapshot {
        AppSnapshot(name: name, state: .suspended, isForeground: adj == 0, isFrozen: false, bytes: bytes, lastUsed: 0, useOrder: 0,
                    band: .idle, oomScoreAdj: adj)
    }
}
