import PressureLab
import PressureLabHeap
import Testing

@Suite("Backing stores: drawn when shown, purged, redrawn")
struct BackingStoreTests {
    /// One-time allocations happen before anything is measured (see ``runtimePathsWarmedUp``).
    init() { _ = runtimePathsWarmedUp }

    @Test("a bitmap is drawn on first show, not at load; purged off screen; redrawn identical when shown again")
    func purgeAndRedraw() throws {
        let bitmap = 750 * 1334 * 4  // a full-screen layer of a 750x1334 phone screen
        let runtime = try makeRuntime(.iOS6, screens: [
            ScreenSpec(name: "photo", view: try .tree(depth: 1, fanout: 2, bytes: 512, rootBacking: bitmap)),
            ScreenSpec(name: "other", view: try .single(bytes: 512)),
        ])
        let photo = try runtime.makeController(screen: "photo")
        let other = try runtime.makeController(screen: "other")
        try photo.loadViewIfNeeded()
        #expect(!photo.hasBackingStores)
        #expect(photo.measuredBytes[.backingStore] == 0)

        let window = Window()
        try window.show(photo)
        #expect(photo.measuredBytes[.backingStore] == RawMemory.heldBytes(for: bitmap))
        let checksum = try #require(try photo.view.layer.backingStoreChecksum())

        try window.transition(from: photo, to: other)
        #expect(photo.purgeBackingStores() == 1)
        #expect(!photo.hasBackingStores)
        #expect(abs(photo.measuredBytes[.backingStore]!) <= 64)

        runtime.trace.removeAll()
        try window.transition(from: other, to: photo)
        #expect(runtime.trace.summary.contains("backingStoresDrawn(photo#1)"))
        #expect(try photo.view.layer.backingStoreChecksum() == checksum)
        #expect(photo.measuredBytes[.backingStore] == RawMemory.heldBytes(for: bitmap))
    }

    @Test("an on-screen controller's bitmaps are never purged")
    func onScreenIsKept() throws {
        let runtime = try makeRuntime(screens: [ScreenSpec(name: "s", view: try .single(bytes: 64, backing: 1 << 20))])
        let controller = try runtime.makeController(screen: "s")
        try Window().show(controller)
        #expect(controller.purgeBackingStores() == 0)
        #expect(controller.hasBackingStores)
    }

    @Test("the not-on-jemalloc error says what to install")
    func notOnJemallocMessage() {
        let error = HeapError.notRunningOnJemalloc(detail: "a malloc of 98304 bytes moved jemalloc's thread.allocated by 0 bytes")
        #expect(error.description.contains("apt-get install -y libjemalloc-dev"))
        #expect(error.description.contains("moved jemalloc's thread.allocated by 0 bytes"))
    }
}
