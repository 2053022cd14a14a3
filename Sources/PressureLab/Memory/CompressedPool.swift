import PressureLabHeap

/// A device's in-RAM compressed pool (the iOS compressor, Android's zram), and its account.
///
/// Memory goes into the pool by *region*: one controller's memory (its views' storage,
/// bitmaps and blocks) or one app's app-wide data. A region is packed into pages (small
/// blocks share them) and compressed page by page with the pool's codec; its compressed bytes are real allocations in the app's ledger, so an
/// app's footprint is its resident plus its compressed bytes, as jetsam and lmkd count it.
/// A region comes back when it is touched (a page fault): the controller appears, releases
/// something on a warning, or is read. A region whose process dies is dropped without
/// being decompressed.
public final class CompressedPool {
    /// The codec pages are compressed with.
    public let codec: PageCodec
    /// The unit of compression, bytes.
    public let pageBytes: Int
    /// Regions compressed, decompressed (touched), and dropped with their process.
    public private(set) var compressions = 0
    /// (Regions decompressed.)
    public private(set) var decompressions = 0
    /// (Regions dropped with their process.)
    public private(set) var discards = 0
    /// Regions moved to the freezer's files as they were (compressed).
    public private(set) var relocations = 0
    /// Bytes compressed in all, and the bytes the pool stored for them.
    public private(set) var bytesCompressed = 0
    /// (What the pool stored for them.)
    public private(set) var bytesStored = 0
    /// Bytes the pool holds now, and at most.
    public private(set) var storedBytesNow = 0
    /// (The most it held.)
    public private(set) var storedBytesPeak = 0
    /// Segments of compressed pages the pool holds now, each one allocation (see
    /// `CompressedMemoryStore`).
    public private(set) var segmentsNow = 0
    /// Called after every change (the device copies the counters into its metrics).
    var onChange: ((CompressedPool) -> Void)?

    /// A pool compressing with `codec` at `pageBytes`.
    public init(codec: PageCodec, pageBytes: Int) {
        precondition(pageBytes > 0, "a page has bytes")
        self.codec = codec
        self.pageBytes = pageBytes
    }

    /// Compresses one region of `runtime`'s memory: `pageOut` writes it into a new store and
    /// frees it. Returns whether that worked (when not, `pageIn` has read back what was
    /// written: nothing is lost), and the region, nil when it held nothing.
    func compressRegion(of runtime: RuntimeContext, pageOut: (any PageStore) -> Bool,
                        pageIn: (any PageStore) -> Bool) -> (ok: Bool, region: CompressedMemoryStore?) {
        let store = CompressedMemoryStore(codec: codec, pageBytes: pageBytes)
        store.gate = runtime.memoryGate
        guard pageOut(store) else {
            _ = pageIn(store)
            return (false, nil)
        }
        guard store.originalBytes > 0 else { return (true, nil) }
        added(store, of: runtime)
        return (true, store)
    }

    /// Reads a region of `runtime` back with `pageIn` (counted: bytes decompressed) and frees
    /// what the pool held for it; false when a block was corrupt.
    ///
    /// The region's pages stop counting as compressed as they come back: XNU moves each page
    /// from `internal_compressed` to `internal` as its fault enters it
    /// (`pmap_enter_options_internal`: xnu-11417 credits `internal` and debits
    /// `internal_compressed` with no change to `phys_footprint`; xnu-4903 debits then credits
    /// it), so a page is never counted twice and an app under its limit is not killed by its
    /// own resume. Here the region leaves the footprint's compressed share before its blocks
    /// are allocated again, and what has come back is counted as resident.
    func decompressRegion(_ store: CompressedMemoryStore, of runtime: RuntimeContext,
                          pageIn: (any PageStore) -> Bool) -> Bool {
        runtime.compressedOriginalBytes -= store.originalBytes
        let ok = pageIn(store)
        runtime.compressedOriginalBytes += store.originalBytes
        decompressed(store, of: runtime)
        store.removeAll()
        return ok
    }

    /// A region of `runtime` went into the pool (counted: bytes compressed).
    private func added(_ store: CompressedMemoryStore, of runtime: RuntimeContext) {
        let original = store.originalBytes
        runtime.count { $0.bytesCompressed += original }
        runtime.compressedRegions += 1
        runtime.compressedBytes += store.storedBytes
        runtime.compressedOriginalBytes += original
        compressions += 1
        bytesCompressed += original
        bytesStored += store.storedBytes
        storedBytesNow += store.storedBytes
        segmentsNow += store.segmentsWritten
        storedBytesPeak = max(storedBytesPeak, storedBytesNow)
        onChange?(self)
    }

    /// A region of `runtime` came back (counted: bytes decompressed).
    private func decompressed(_ store: CompressedMemoryStore, of runtime: RuntimeContext) {
        let original = store.originalBytes
        runtime.count { $0.bytesDecompressed += original }
        decompressions += 1
        remove(store, of: runtime)
    }

    /// A region of `runtime` went to the freezer's file as it was (its blocks were moved and
    /// freed by the caller): nothing is decompressed, the pool no longer holds it.
    func relocated(_ store: CompressedMemoryStore, of runtime: RuntimeContext) {
        relocations += 1
        remove(store, of: runtime)
        store.removeAll()
    }

    /// A region of `runtime` is dropped with its process: nothing is decompressed, what the
    /// pool held for it is freed.
    func discard(_ store: CompressedMemoryStore, of runtime: RuntimeContext) {
        discards += 1
        remove(store, of: runtime)
        store.removeAll()
    }

    private func remove(_ store: CompressedMemoryStore, of runtime: RuntimeContext) {
        runtime.compressedRegions -= 1
        runtime.compressedBytes -= store.storedBytes
        runtime.compressedOriginalBytes -= store.originalBytes
        storedBytesNow -= store.storedBytes
        segmentsNow -= store.segmentsWritten
        onChange?(self)
    }
}
