import Foundation
@testable import PressureLab
import PressureLabHeap
import Testing

/// An app's own graphics context (a game engine's GL context): held while its process lives,
/// kept in the background where the drawn views go, never compressed or swapped, freed when the
/// process dies (docs/fidelity.md, "Background footprints by mechanism").
@Suite("Graphics context: a game's own GPU memory in the background")
struct GraphicsContextTests {
    static let gpu = 6 << 20, backing = 3 << 20, data = 2 << 20

    /// A game (one screen drawn into a `backing`-byte bitmap, `gpu` bytes of its own context) and
    /// a small app to put in front of it, on an Android 10 device that discards drawn views.
    static func device(compressor: Compressor = .none, swapFileBytes: Int? = nil) throws -> (Device, Application) {
        let runtime = try RuntimeContext(app: "game")
        try runtime.register(ScreenSpec(name: "main", view: try .single(bytes: 1024, backing: backing)))
        let game = Application(name: "game", runtime: runtime, hierarchy: .screen("main"))
        game.graphicsContextBytes = gpu
        game.appDataBytes = data
        let other = try RuntimeContext(app: "other")
        try other.register(ScreenSpec(name: "main", view: try .single(bytes: 64)))
        let device = Device(model: .init(budgetBytes: 512 << 20, compressor: compressor, os: .android10,
                                         purgesBackingStoresInBackground: true, release: .android10,
                                         swapFileBytes: swapFileBytes),
                            termination: LowMemoryKillerPolicy())
        device.install(game)
        device.install(Application(name: "other", runtime: other, hierarchy: .screen("main")))
        return (device, game)
    }

    @Test("in front it holds its context and its drawn views; stopped, the views go (ViewRootImpl.destroyHardwareResources) and the context stays (CanvasContext::trimMemory reaches HWUI's only), byte for byte")
    func keptInTheBackground() throws {
        let (device, game) = try Self.device()
        try device.open("game")
        #expect(game.graphicsContextHeldBytes >= Self.gpu)
        let front = device.installed("game")!.bytes
        #expect(front >= Self.gpu + Self.backing + Self.data)
        try device.open("other")
        #expect(game.state == .suspended)
        #expect(game.graphicsContextHeldBytes >= Self.gpu)
        // What went is the drawn bitmap, not the context.
        let released = front - device.installed("game")!.bytes
        #expect(released >= Self.backing && released < Self.backing + (1 << 20))
    }

    @Test("neither the compressor nor the swap file takes it (Angry Birds 2's kgsl-3d0 pages: 0 swapped in every background pmap): the rest of the app goes, the context stays resident")
    func neverCompressedOrSwapped() throws {
        let (zram, game) = try Self.device(compressor: .lz4)
        try zram.open("game")
        try zram.open("other")
        let held = game.graphicsContextHeldBytes
        #expect(zram.compress(zram.installed("game")!))
        #expect(game.isAppDataCompressed)
        #expect(game.graphicsContextHeldBytes == held)

        let (flash, swapped) = try Self.device(swapFileBytes: 64 << 20)
        try flash.open("game")
        try flash.open("other")
        let before = swapped.graphicsContextHeldBytes
        #expect(flash.swapOut(flash.installed("game")!))
        #expect(swapped.graphicsContextHeldBytes == before)
    }

    @Test("a killed process holds none of it, and a cold launch allocates it again")
    func freedWithTheProcess() throws {
        let (device, game) = try Self.device()
        try device.open("game")
        try device.open("other")
        game.kill()
        #expect(game.graphicsContextHeldBytes == 0 && device.installed("game")!.bytes == 0)
        #expect(try device.open("game") == .cold)
        #expect(game.graphicsContextHeldBytes >= Self.gpu)
    }
}
