import Foundation
@testable import PressureLab
import PressureLabHeap
import Testing

/// ART's collections in the background (``BackgroundCollection``, ``ARTCollectionRules``): the
/// collector transition 5 s after an app leaves the front, the collections of an app that
/// allocates there, and what they read back from swap; Fleet's runtime reading none of it.
@Suite("Background collections: ART's reads of a heap in the background, and Fleet's")
struct BackgroundCollectionTests {
    /// App `a` (4 MiB of app-wide data: the region that holds its heap) and app `b`, on an
    /// Android 10 device with a swap file, under `termination`.
    static func device(_ termination: any TerminationPolicy = LowMemoryKillerPolicy(lmkdKills: false),
                       release: OSRelease = .android10, everySeconds: Double? = nil) throws -> (Device, Application) {
        func app(_ name: String, data: Int) throws -> Application {
            let runtime = try RuntimeContext(app: name)
            try runtime.register(ScreenSpec(name: "main", view: try .single(bytes: 1024)))
            let app = Application(name: name, runtime: runtime, hierarchy: .screen("main"))
            app.appDataBytes = data
            return app
        }
        let a = try app("a", data: 4 << 20)
        a.backgroundCollectionSeconds = everySeconds
        let device = Device(model: .init(budgetBytes: 512 << 20, os: release, release: release, swapFileBytes: 64 << 20),
                            termination: termination)
        device.install(a)
        device.install(try app("b", data: 0))
        return (device, a)
    }

    /// Opens `a`, then `b` (a leaves the front at the second open), then swaps a's app-wide data out.
    static func leaveAndSwap(_ device: Device, _ a: Application) throws {
        try device.open("a")
        try device.open("b")
        #expect(device.installed("a")!.nextCollection == device.now + ARTCollectionRules.collectorTransitionWaitSeconds)
        try swapAppData(device, a)
    }

    /// Swaps a's regions out until its app-wide data (the last in the order) is in the swap file.
    static func swapAppData(_ device: Device, _ a: Application) throws {
        while !a.isAppDataSwapped, device.swapOut(device.installed("a")!) {}
        #expect(a.isAppDataSwapped)
    }

    @Test("the collector transition 5 s after the app left the front (Heap::UpdateProcessState, kCollectorTransitionWait; DoPendingCollectorTransition evacuates every live object) reads its heap: the swapped region comes back, counted")
    func transitionReadsTheHeap() throws {
        let (device, a) = try Self.device()
        try Self.leaveAndSwap(device, a)
        let readBefore = a.runtime.work.storageReadBytes
        device.idle(seconds: 4.5)
        #expect(device.metrics.backgroundCollections == 0 && a.isAppDataSwapped)
        device.idle(seconds: 0.5)
        #expect(device.metrics.backgroundCollections == 1)
        #expect(!a.isAppDataSwapped && a.appDataHeldBytes >= 4 << 20)
        #expect(device.metrics.collectionPageIns == 1 && device.metrics.collectionPageInBytes == a.appDataHeldBytes)
        // The page-in is the app's own work: a storage read of the region.
        #expect(a.runtime.work.storageReadBytes - readBefore >= 4 << 20)
        #expect(a.runtime.trace.events.contains { $0.kind == .collectedInBackground })
        // Without allocation in the background, no other collection follows.
        #expect(device.installed("a")!.nextCollection == nil)
        device.idle(seconds: 120)
        #expect(device.metrics.backgroundCollections == 1)
    }

    @Test("an app that allocates in the background collects again at its own pace (no periodic collection: HeapTaskDaemon runs queued tasks), each collection reading what went to swap since")
    func periodicCollections() throws {
        let (device, a) = try Self.device(everySeconds: 20)
        try Self.leaveAndSwap(device, a)
        device.idle(seconds: 5)
        #expect(device.metrics.backgroundCollections == 1 && !a.isAppDataSwapped)
        try Self.swapAppData(device, a)
        device.idle(seconds: 19)
        #expect(device.metrics.backgroundCollections == 1 && a.isAppDataSwapped)
        device.idle(seconds: 1)
        #expect(device.metrics.backgroundCollections == 2 && !a.isAppDataSwapped)
        #expect(device.metrics.collectionPageIns == 2)
    }

    @Test("Fleet's runtime (jiacheng_global.h ENABLE_BGC: background objects only) collects without reading what went to swap: the region stays in the swap file")
    func fleetLeavesSwapAlone() throws {
        let fleet = LowMemoryKillerPolicy(lmkdKills: false, backgroundCollection: .hotObjectsOnly)
        #expect(fleet.name == "fleet" && Termination.fleet.name == "fleet")
        let (device, a) = try Self.device(fleet)
        try Self.leaveAndSwap(device, a)
        device.idle(seconds: 5)
        #expect(device.metrics.backgroundCollections == 1)
        #expect(a.isAppDataSwapped && device.metrics.collectionPageIns == 0)
    }

    @Test("coming back to the front within 5 s cancels the transition; a dead process collects nothing; XNU has no ART")
    func cancelledOrAbsent() throws {
        let (device, a) = try Self.device()
        try device.open("a")
        try device.open("b")
        try device.open("a")
        #expect(device.installed("a")!.nextCollection == nil)
        device.idle(seconds: 10)
        // Only b, which left the front last, collected.
        #expect(!a.runtime.trace.events.contains { $0.kind == .collectedInBackground })
        #expect(device.metrics.backgroundCollections == 1)

        let (killed, k) = try Self.device()
        try killed.open("a")
        try killed.open("b")
        k.kill()
        killed.idle(seconds: 10)
        #expect(killed.metrics.backgroundCollections == 0 && killed.installed("a")!.nextCollection == nil)

        let (ios, i) = try Self.device(JetsamPolicy(), release: .iOS18)
        try ios.open("a")
        try ios.open("b")
        #expect(ios.installed("a")!.nextCollection == nil)
        ios.idle(seconds: 10)
        #expect(ios.metrics.backgroundCollections == 0 && i.state == .suspended)
    }

    @Test("a foreground service keeps the process perceptible to ART (ActivityThread's VM state is perceptible up to PROCESS_STATE_IMPORTANT_FOREGROUND; a foreground service is above it): audio playing 120 s after leaving the front, no transition at 5 s, one 5 s after the music stops; a task's app transitions at 5 s; endless audio never")
    func foregroundServiceDefersTheTransition() throws {
        let wait = ARTCollectionRules.collectorTransitionWaitSeconds
        // Audio for 120 s: the transition comes at the stop + 5 s, reading the swapped heap then.
        let (device, a) = try Self.device()
        a.backgroundMode = .audio(seconds: 120)
        try device.open("a")
        try device.open("b")
        let left = device.now
        #expect(device.installed("a")!.runningBackgroundMode == .audio(seconds: 120))
        #expect(device.installed("a")!.nextCollection == left + 120 + wait)
        device.idle(seconds: 10)
        #expect(device.metrics.backgroundCollections == 0)
        // The music stops at 120 s: the app is suspended, and its heap can go to swap.
        device.idle(seconds: 110)
        #expect(a.state == .suspended && device.metrics.backgroundCollections == 0)
        try Self.swapAppData(device, a)
        device.idle(seconds: wait - 0.5)
        #expect(device.metrics.backgroundCollections == 0 && a.isAppDataSwapped)
        device.idle(seconds: 0.5)
        #expect(device.metrics.backgroundCollections == 1 && !a.isAppDataSwapped)
        // A task keeps the app running but not perceptible: the transition at 5 s.
        let (taskDevice, t) = try Self.device()
        t.backgroundMode = .task(seconds: 20)
        try taskDevice.open("a")
        try taskDevice.open("b")
        #expect(taskDevice.installed("a")!.nextCollection == taskDevice.now + wait)
        // Audio with no end: no transition while the app is away.
        let (endless, e) = try Self.device()
        e.backgroundMode = .audio(seconds: nil)
        try endless.open("a")
        try endless.open("b")
        #expect(endless.installed("a")!.nextCollection == nil)
        endless.idle(seconds: 600)
        #expect(endless.metrics.backgroundCollections == 0)
    }
}
