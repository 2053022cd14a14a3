import Foundation
@testable import PressureLab
import PressureLabHeap
import Testing

/// Clean file-backed memory (apps' code and resources): mapped from real files, measured with
/// `mincore`, dropped under pressure before anyone is killed, read back on the next touch.
@Suite("Clean memory: mapped code and resources")
struct CleanMemoryTests {
    /// An app with one small screen (no bitmap, no cache) and `clean` bytes of code.
    static func app(_ name: String, clean: Int, bitmap: Int = 0, trace: TraceRecorder? = nil) throws -> Application {
        let runtime = try RuntimeContext(app: name, generation: .iOS6, trace: trace ?? TraceRecorder())
        try runtime.register(ScreenSpec(name: "main", view: try .tree(depth: 1, fanout: 2, bytes: 1024, rootBacking: bitmap)))
        let app = Application(name: name, runtime: runtime, hierarchy: .nav("main"))
        app.cleanBytes = clean
        return app
    }

    static func roundedToPages(_ bytes: Int) -> Int {
        (bytes + CleanMapping.pageBytes - 1) / CleanMapping.pageBytes * CleanMapping.pageBytes
    }

    @Test("a cold launch maps and touches the app's code: mincore finds the declared bytes resident, within a page")
    func residentAfterLaunch() throws {
        let declared = 3 << 20 + 123
        let app = try Self.app("code", clean: declared)
        let device = Device(model: .init(budgetBytes: 256 << 20), termination: JetsamPolicy())
        device.install(app)
        try device.open("code")
        #expect(app.cleanResidentBytes == Self.roundedToPages(declared))
        #expect(device.cleanResidentBytes == app.cleanResidentBytes)
        // Dirty memory (jemalloc) does not count them: the app's measured bytes stay small.
        #expect(device.installed("code")!.bytes < 1 << 20)
    }

    @Test("a refault is charged as storage read: the bytes read back x the profile's read cost, exactly")
    func refaultCharged() throws {
        let declared = 2 << 20
        let app = try Self.app("code", clean: declared)
        let costs = CostModel(processStartNanoseconds: 1_000_000, appInitNanoseconds: 1_000_000, firstFrameNanoseconds: 50_000_000,
                              storageRead: .init(bytesPerSecond: 100_000_000, latencyNanoseconds: 100_000),
                              storageWrite: .init(bytesPerSecond: 100_000_000), viewDecodeNanoseconds: 10_000,
                              viewLayoutNanoseconds: 10_000, bitmapDrawBytesPerSecond: 1 << 30, cacheFillBytesPerSecond: 1 << 30,
                              archiveDecodeBytesPerSecond: 1 << 30)
        let other = try Self.app("other", clean: 0)
        let device = Device(model: .init(budgetBytes: 256 << 20, costs: costs), termination: JetsamPolicy())
        device.install(app)
        device.install(other)
        try device.open("code")
        try device.open("other")
        app.dropCleanMemory()
        #expect(app.cleanResidentBytes == 0)
        let before = app.runtime.work
        #expect(try device.open("code") == .resume)
        let work = app.runtime.work - before
        #expect(work.storageReadBytes == declared)
        #expect(work.storageReads == 1)
        // A resume of this app draws nothing: its device time is the first frame plus the read.
        let expected: UInt64 = 50_000_000 + 100_000 + UInt64(declared) * 1_000_000_000 / 100_000_000
        #expect(app.runtime.deviceNanoseconds(since: before) == expected)
    }

    @Test("under pressure clean pages go before anyone is killed, the least recently used app's first")
    func droppedBeforeKills() throws {
        let trace = TraceRecorder()
        let apps = try (0..<6).map { try Self.app("app\($0)", clean: 3 << 20, bitmap: 6 << 20, trace: trace) }
        let device = Device(model: .init(budgetBytes: 40 << 20), termination: JetsamPolicy())
        for app in apps { device.install(app) }
        for app in apps { try device.open(app.name) }
        #expect(device.metrics.kills > 0)
        let events = trace.events
        let firstKill = try #require(events.firstIndex { $0.kind.rawValue.hasPrefix("killed:") })
        let killed = events[firstKill].app
        // Every app not in front at the first kill had its clean pages dropped before it.
        let launchedBefore = Set(events[..<firstKill].filter { $0.kind == .didFinishLaunching }.map(\.app))
        let dropped = Set(events[..<firstKill].filter { $0.kind == .cleanPagesDropped }.map(\.app))
        let front = events[..<firstKill].last { $0.kind == .didBecomeActive }!.app
        #expect(launchedBefore.subtracting([front]).isSubset(of: dropped), "killed \(killed); dropped \(dropped)")
        #expect(device.metrics.cleanBytesDropped > 0)
        // Dirty and clean memory together stay within the budget after every step.
        #expect(device.usedBytes + device.cleanResidentBytes <= 40 << 20)
    }

    @Test("clean pages fill what dirty memory leaves: only the excess over the budget is dropped, least recently used first")
    func pageCacheTrim() throws {
        let apps = try (0..<3).map { try Self.app("app\($0)", clean: 8 << 20) }
        let device = Device(model: .init(budgetBytes: 20 << 20), termination: JetsamPolicy())
        for app in apps { device.install(app) }
        for app in apps { try device.open(app.name) }
        // 24 MiB of code for 20 MiB: the oldest app's pages go, the others stay.
        #expect(apps[0].cleanResidentBytes == 0)
        #expect(apps[1].cleanResidentBytes == 8 << 20 && apps[2].cleanResidentBytes == 8 << 20)
        #expect(device.metrics.kills == 0)
    }
}

/// What an app gives back as it leaves the foreground, by mechanism. The drawn views: iOS
/// discards every layer's backing store (iOS App Programming Guide, "Memory Usage for
/// Background Apps"); Android destroys a stopped activity's hardware resources
/// (`ActivityThread.handleStopActivity`, `ViewRootImpl.performTraversals`,
/// `destroyHardwareResources()`): docs/fidelity.md.
@Suite("Background footprints by mechanism")
struct BackgroundFootprintTests {
    @Test("a background app's footprint shrinks by exactly what its declared releases hold: caches and models (didEnterBackground, Android's UI_HIDDEN twin) and its drawn views (discarded by the system)")
    func shrinksByDeclaredReleases() throws {
        let runtime = try RuntimeContext(app: "feed", generation: .iOS6)
        try runtime.register(ScreenSpec(name: "main", view: try .tree(depth: 1, fanout: 3, bytes: 1024, rootBacking: 2 << 20),
                                        cacheBytes: 3 << 20, modelBytes: 1 << 20))
        let app = Application(name: "feed", runtime: runtime, hierarchy: .nav("main"))
        app.releasesOnBackground = [.cache, .model]
        let other = try CleanMemoryTests.app("other", clean: 0)
        let device = Device(model: .init(budgetBytes: 256 << 20, purgesBackingStoresInBackground: true),
                            termination: LowMemoryKillerPolicy())
        device.install(app)
        device.install(other)
        try device.open("feed")
        let ledger = app.runtime.ledger
        func held(_ category: MemoryCategory) -> Int {
            ledger.allBalances.filter { $0.key.category == category }.map(\.value).reduce(0, +)
        }
        let before = device.installed("feed")!.bytes
        let released = held(.cache) + held(.model) + held(.backingStore)
        #expect(released >= (6 << 20))
        try device.open("other")
        #expect(held(.cache) == 0 && held(.model) == 0 && held(.backingStore) == 0)
        #expect(device.installed("feed")!.bytes == before - released)
    }
}
