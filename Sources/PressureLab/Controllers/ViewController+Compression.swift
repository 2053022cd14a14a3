/// A controller's memory in the device's compressed pool, and its page-in when touched.
///
/// The device compresses a suspended app controller by controller (one region each, see
/// ``CompressedPool``). Nothing comes back until it is needed: a controller's memory is
/// decompressed the first time the controller is touched again, as a page fault brings
/// compressed pages back on iOS and from zram on Android. Appearing touches it (a resumed
/// app decompresses what is on screen, not the whole app), and so do the release paths of
/// a warning or a trim: freeing objects touches their pages, so a handler that frees
/// compressed memory first decompresses it (Apple, *iOS Memory Deep Dive*, WWDC 2018).
extension ViewController {
    /// Whether the controller's memory is in the compressed pool.
    public final var isCompressed: Bool { compressedMemory != nil }

    /// Compresses everything the controller holds into a new region of `pool` and frees it.
    /// Returns false when it could not (what was compressed is read back; nothing is lost).
    final func compressMemory(into pool: CompressedPool) -> Bool {
        // A region in the swap file is not in memory to compress.
        guard compressedMemory == nil, swappedMemory == nil else { return true }
        let (ok, region) = pool.compressRegion(of: runtime, pageOut: freezeMemory(to:), pageIn: thawMemory(from:))
        compressedMemory = region
        if region != nil { record(.compressed) }
        return ok
    }

    /// Decompresses the controller's memory if it is in the pool (a page fault). Counted
    /// as work (bytes decompressed), so the device time of whatever touched it includes it.
    @inline(__always)
    final func pageInIfCompressed() {
        if compressedMemory != nil { pageIn() }
        if swappedMemory != nil { swapInMemory() }
    }

    private func pageIn() {
        guard let store = compressedMemory else { return }
        // Cleared first: whatever happens, the region is read back at most once.
        compressedMemory = nil
        let ok = runtime.compressedPool?.decompressRegion(store, of: runtime, pageIn: thawMemory(from:)) ?? thawMemory(from: store)
        record(.decompressed)
        if !ok {
            // A corrupt block: the process cannot go on (it dies at the end of the step).
            runtime.memoryGate.recordLostMemory(bytes: store.originalBytes)
        }
    }

    /// Drops the controller's compressed region without reading it (its process died).
    final func discardCompressedMemory() {
        guard let store = compressedMemory else { return }
        compressedMemory = nil
        runtime.compressedPool?.discard(store, of: runtime)
    }
}
