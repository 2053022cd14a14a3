import Foundation
@testable import PressureLab
import PressureLabHeap
import Testing

/// A resume under pressure pays for what pressure took: the regions that went to the swap file
/// are read back, and the clean pages that were dropped are read again, each at the profile's
/// storage cost (docs/fidelity.md, "Hot launches by app").
@Suite("Resumes under pressure: swap-ins and refaults charged at the profile's costs")
struct ResumeUnderPressureTests {
    /// Costs with nothing but a first frame and storage reads (1 ms a read, 100 MB/s).
    static let costs = CostModel(processStartNanoseconds: 1_000_000, appInitNanoseconds: 1_000_000, firstFrameNanoseconds: 50_000_000,
                                 storageRead: .init(bytesPerSecond: 100_000_000, latencyNanoseconds: 1_000_000),
                                 storageWrite: .init(bytesPerSecond: 100_000_000), viewDecodeNanoseconds: 10_000,
                                 viewLayoutNanoseconds: 10_000, bitmapDrawBytesPerSecond: 1 << 30, cacheFillBytesPerSecond: 1 << 30,
                                 archiveDecodeBytesPerSecond: 1 << 30)

    @Test("a resume after its memory went to swap and its code was dropped: the first frame, every region read back, the code read again")
    func paysForSwapAndRefaults() throws {
        func app(_ name: String, data: Int, clean: Int) throws -> Application {
            let runtime = try RuntimeContext(app: name)
            try runtime.register(ScreenSpec(name: "main", view: try .single(bytes: 4096)))
            let app = Application(name: name, runtime: runtime, hierarchy: .screen("main"))
            (app.appDataBytes, app.cleanBytes) = (data, clean)
            return app
        }
        let a = try app("a", data: 3 << 20, clean: 2 << 20)
        let device = Device(model: .init(budgetBytes: 256 << 20, os: .android10, release: .android10, swapFileBytes: 64 << 20,
                                         costs: Self.costs),
                            termination: LowMemoryKillerPolicy(lmkdKills: false))
        device.install(a)
        device.install(try app("b", data: 0, clean: 0))
        try device.open("a")
        try device.open("b")
        // What pressure would have taken: every region of a to the swap file, its code dropped.
        while device.swapOut(device.installed("a")!) {}
        #expect(a.isAppDataSwapped && a.controllers.allSatisfy(\.isSwappedOut))
        _ = a.dropCleanMemory()
        #expect(a.cleanResidentBytes == 0)
        let swapped = a.runtime.swappedBytes
        #expect(swapped >= 3 << 20)
        let before = a.runtime.work
        #expect(try device.open("a") == .resume)
        let work = a.runtime.work - before
        // Read back: every swapped region (the app-wide data and the controller on screen), and the code.
        #expect(work.storageReadBytes == swapped + 2 << 20)
        #expect(work.storageReads == a.controllers.count + 2)
        #expect(work.processStarts == 0 && work.firstFrames == 1)
        // Device time: the first frame, plus each read's latency and its bytes at 100 MB/s, exactly.
        let expected: UInt64 = 50_000_000 + UInt64(work.storageReads) * 1_000_000
            + UInt64(work.storageReadBytes) * 1_000_000_000 / 100_000_000
        #expect(a.runtime.deviceNanoseconds(since: before) == expected)
    }
}
