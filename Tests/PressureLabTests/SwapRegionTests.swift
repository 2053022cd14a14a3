import PressureLab
@testable import PressureLab
import PressureLabHeap
import Testing

@Suite("Swap by region: out least recently used first (mm/vmscan.c shrink_lruvec), back when touched (mm/memory.c do_swap_page)")
struct SwapRegionTests {
    /// A device with a swap file and app `a` (its root screen under a pushed one, and
    /// app-wide data) and app `b`.
    static func device() throws -> (Device, Application) {
        let device = Device(model: .init(budgetBytes: 1 << 30, release: .android10, swapFileBytes: 256 << 20),
                            termination: LowMemoryKillerPolicy(lmkdKills: false))
        let app = try DeviceTests.app("a", bitmap: 2 << 20)
        app.appDataBytes = 1 << 20
        device.install(app)
        device.install(try DeviceTests.app("b", bitmap: 2 << 20))
        try device.open("a")
        let navigation = try #require(app.rootViewController as? NavigationController)
        try navigation.push(try app.runtime.makeController(screen: "main"))
        try device.open("b")
        return (device, app)
    }

    @Test("one region a call: hidden controllers first, then those on screen, the app-wide data last; each its bytes in the swap file")
    func order() throws {
        let (device, app) = try Self.device()
        let installed = try #require(device.installed("a"))
        let navigation = try #require(app.rootViewController as? NavigationController)
        let (hidden, shown) = (navigation.viewControllers[0], navigation.viewControllers[1])
        let resident = installed.bytes
        // The order regions go out in: a controller by its index in the app, -1 for the app-wide data.
        var order: [Int] = []
        var outBefore = device.swappedBytes
        while device.swapOut(installed) {
            let now = app.controllers.indices.filter { app.controllers[$0].isSwappedOut && !order.contains($0) }
            #expect(now.count + (app.swappedAppData != nil && !order.contains(-1) ? 1 : 0) == 1, "one region a call")
            order.append(now.first ?? -1)
            #expect(device.swappedBytes > outBefore)
            outBefore = device.swappedBytes
        }
        let hiddenAt = try #require(order.firstIndex(of: app.controllers.firstIndex { $0 === hidden }!))
        let shownAt = try #require(order.firstIndex(of: app.controllers.firstIndex { $0 === shown }!))
        #expect(hiddenAt < shownAt)
        #expect(order.last == -1)
        #expect(installed.swappedBytes == device.swappedBytes)
        #expect(installed.bytes < resident / 10)
        #expect(device.metrics.swapOuts == order.count && device.metrics.swappedOutBytes == device.swappedBytes)
        #expect(app.runtime.work.storageWrites >= order.count)
    }

    @Test("a resume reads back the app-wide data and what it shows; the hidden controller only when it is shown; reads are counted exactly")
    func touch() throws {
        let (device, app) = try Self.device()
        let installed = try #require(device.installed("a"))
        let navigation = try #require(app.rootViewController as? NavigationController)
        let hidden = navigation.viewControllers[0]
        while device.swapOut(installed) {}
        let swapped = device.swappedBytes
        let before = app.runtime.work
        #expect(try device.open("a") == .resume)
        #expect(hidden.isSwappedOut && !navigation.viewControllers[1].isSwappedOut && app.swappedAppData == nil)
        let hiddenBytes = installed.swappedBytes
        #expect(hiddenBytes > 0 && hiddenBytes < swapped)
        #expect((app.runtime.work - before).storageReadBytes == swapped - hiddenBytes)
        try navigation.pop()
        #expect(!hidden.isSwappedOut && installed.swappedBytes == 0 && device.swappedBytes == 0)
        #expect((app.runtime.work - before).storageReadBytes == swapped)
        #expect(device.swapSpace?.regionsIn == device.metrics.swapOuts)
    }

    @Test("on the kernel's books a swap-in reads 2^page-cluster pages at a time (swapin_readahead): the Pixels' 0 reads page by page, the kernel's default 3 eight pages; without the books one read a region")
    func readsByPageCluster() throws {
        func reads(pageCluster: Int??) throws -> (reads: Int, bytes: Int, regions: Int) {
            var model = DeviceModel(budgetBytes: 1 << 30, release: .android10, swapFileBytes: 256 << 20)
            if let pageCluster {
                model.kernel = LinuxMemoryInputs(memTotalBytes: 1 << 30, kernelBytes: 1 << 20, systemAnonBytes: 1 << 20,
                                                 systemExecBytes: 0, systemFileBytes: 0, coldCacheBytes: 0, pageCluster: pageCluster)
            }
            let device = Device(model: model, termination: LowMemoryKillerPolicy(lmkdKills: false))
            let app = try DeviceTests.app("a", bitmap: 2 << 20)
            app.appDataBytes = 1 << 20
            device.install(app)
            device.install(try DeviceTests.app("b", bitmap: 2 << 20))
            try device.open("a")
            try device.open("b")
            let installed = try #require(device.installed("a"))
            let regions = device.metrics.swapOuts
            while device.swapOut(installed) {}
            #expect(device.metrics.swapOuts > regions)
            let before = app.runtime.work
            let regionsBefore = device.swapSpace?.regionsIn ?? 0
            #expect(try device.open("a") == .resume)
            #expect(installed.swappedBytes == 0)
            let work = app.runtime.work - before
            return (work.storageReads, work.storageReadBytes, (device.swapSpace?.regionsIn ?? 0) - regionsBefore)
        }
        let page = DeviceModel(budgetBytes: 1, release: .android10).pageBytes
        // A region's reads are its pages, the last one short: between bytes / page and that plus
        // one a region.
        let alone = try reads(pageCluster: .some(0))
        #expect(alone.bytes > 0 && alone.regions >= 2)
        #expect(alone.reads >= alone.bytes / page && alone.reads <= alone.bytes / page + alone.regions)
        let eight = try reads(pageCluster: .some(nil))
        #expect(eight.bytes == alone.bytes && eight.regions == alone.regions)
        #expect(eight.reads >= alone.bytes / (8 * page) && eight.reads <= alone.bytes / (8 * page) + alone.regions)
        let whole = try reads(pageCluster: nil)
        #expect(whole.bytes == alone.bytes && whole.reads == alone.regions)
    }

    @Test("a kill drops the app's regions unread, and gives their slots back")
    func kill() throws {
        let (device, app) = try Self.device()
        let installed = try #require(device.installed("a"))
        while device.swapOut(installed) {}
        #expect(device.swappedBytes > 0)
        let reads = app.runtime.work.storageReads
        device.kill(installed, reason: .policy)
        #expect(device.swappedBytes == 0 && installed.swappedBytes == 0)
        #expect(app.runtime.work.storageReads == reads)
        #expect(device.swapSpace?.regionsIn == 0)
        #expect(device.swapSpace?.slotsInUse == 0)
    }
}
