@testable import PressureLab
import PressureLabHeap
import Testing

/// A controller's large blocks (bitmap, cache, model, user data) just above powers of two:
/// measured within 2% of their declared sizes, and byte-identical through the freezer and the
/// pool (docs/limits.md, "Measured against declared").
@Suite("Large blocks: measured as declared, round trips kept")
struct LargeBlockTests {
    init() { _ = runtimePathsWarmedUp }

    static let backing = (4 << 20) + 40_000, cache = (1 << 20) + 1, model = Int(5.3 * 1_048_576), typed = (2 << 20) + 4096

    static var screen: ScreenSpec {
        get throws {
            ScreenSpec(name: "s", view: try .tree(depth: 1, fanout: 2, bytes: 1500, rootBacking: backing),
                       cacheBytes: cache, modelBytes: model)
        }
    }

    static func withinTwoPercent(_ measured: Int?, _ declared: Int) -> Bool {
        guard let measured else { return false }
        return measured >= declared && measured <= declared + declared / 50
    }

    @Test("a shown controller's bitmap, cache, model and user data each measure their pieces, within 2% of the declared size")
    func measuredAsDeclared() throws {
        let runtime = try makeRuntime(screens: [try Self.screen])
        let controller = try runtime.makeController(screen: "s")
        try Window().show(controller)
        controller.type(bytes: Self.typed)
        let bytes = controller.measuredBytes
        #expect(bytes[.backingStore] == RawMemory.heldBytes(for: Self.backing))
        #expect(bytes[.cache] == RawMemory.heldBytes(for: Self.cache) + HeapBlock.objectBytes)
        #expect(bytes[.model] == RawMemory.heldBytes(for: Self.model) + HeapBlock.objectBytes)
        #expect(Self.withinTwoPercent(bytes[.backingStore], Self.backing))
        #expect(Self.withinTwoPercent(bytes[.cache], Self.cache))
        #expect(Self.withinTwoPercent(bytes[.model], Self.model))
        // The block, its object and the user-data array.
        #expect(Self.withinTwoPercent(bytes[.userData], Self.typed))
    }

    @Test("frozen to the freezer's file (raw, LZ4, Zstandard) and thawed: every checksum kept", arguments: [Compressor.none, .lz4, .zstd])
    func freezerRoundTrip(codec: Compressor) throws {
        let (device, app) = try CompressedMemoryTests.device("f", screen: try Self.screen, hierarchy: .screen("s"), codec: codec,
                                                            termination: FreezePolicy())
        try device.open("f")
        app.window.topViewController!.type(bytes: Self.typed)
        try device.open("o")
        let checksums = app.controllers.map(\.memoryChecksums)
        #expect(device.freeze(device.installed("f")!))
        #expect(app.controllers.allSatisfy { $0.heldBlocks.allSatisfy(\.isFrozen) })
        try device.open("f")
        #expect(device.metrics.thaws == 1)
        #expect(app.controllers.map(\.memoryChecksums) == checksums)
        app.kill()
    }

    @Test("compressed into the pool and read back: every checksum kept", arguments: [Compressor.lz4, .zstd])
    func poolRoundTrip(codec: Compressor) throws {
        let (device, app) = try CompressedMemoryTests.device(screen: try Self.screen, appDataBytes: (8 << 20) + 4096, codec: codec)
        try CompressedMemoryTests.useThenLeave(device, app, typing: Self.typed)
        let before = app.controllers.map(\.memoryChecksums)
        #expect(device.compress(device.installed("b")!))
        #expect(app.controllers.allSatisfy(\.isCompressed) && app.isAppDataCompressed)
        try device.open("b")
        #expect(app.controllers.map(\.memoryChecksums) == before)
        #expect(app.runtime.work.bytesDecompressed == app.runtime.work.bytesCompressed)
        app.kill()
    }
}
