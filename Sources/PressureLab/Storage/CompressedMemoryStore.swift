import PressureLabHeap

/// One region of the in-RAM compressed pool (a controller's memory, or an app's app-wide
/// data; see ``CompressedPool``): its paged-out memory, packed into pages group by group
/// (what one owner writes in one measured scope, ``PageStore/endGroup()``) and compressed
/// page by page by a real codec (LZ4 or Zstandard), as the iOS compressor and zram compress
/// the pages small objects share (docs/fidelity.md, "Compressed pages are shared by small
/// blocks"). The compressed pages are real allocations made inside the owners' measured
/// scopes, so they are attributed to the app and count against the budget, as XNU and
/// Android count an app's compressed footprint.
///
/// The pages are held in segments (``CompressedPageChain``), each one allocation made while
/// its group is written (inside the owner's scope) and freed when its last page is read
/// back or moved (inside the same owner's scope): no shared container grows in one owner's
/// scope and shrinks in another's.
final class CompressedMemoryStore: PageStore {
    let codec: PageCodec
    let pageBytes: Int
    var gate: MemoryGate?
    // A region is used by one thread at a time, so dynamic exclusivity checks on these (a
    // runtime call per access, several a block) buy nothing (measured: Benchmarks/README.md,
    // "Exclusivity checks"; compiled out with PRESSURELAB_EXCLUSIVITY_CHECKED).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    private var pages = CompressedPageChain()
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    private var writer: PageStreamWriter
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    private var reader: PageStreamReader
    /// Bytes of the first page already moved to a freezer file (``moveBlock(count:to:)``).
    private var movedOfFirst = 0
    /// Bytes compressed.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    private(set) var originalBytes = 0
    /// Bytes the pool holds for them: its segments' allocations, as asked of the allocator.
    var storedBytes: Int { pages.storedBytes }
    /// Segments written (each one allocation while it is held), and those still held.
    var segmentsWritten: Int { pages.segmentsWritten }
    var segmentsHeld: Int { pages.segmentCount }

    init(codec: PageCodec, pageBytes: Int) {
        self.codec = codec
        self.pageBytes = pageBytes
        writer = PageStreamWriter(codec: codec, pageBytes: pageBytes)
        reader = PageStreamReader(codec: codec, pageBytes: pageBytes)
    }

    func write(_ memory: RawMemory, count: Int) -> Bool {
        // A closure, not the method `keep` itself: a method reference retains and releases
        // the store on every call, one pair a block (Benchmarks/README.md, "Compression
        // against its floor").
        guard writer.append(memory, count: count, emit: { self.keep($0) }) else { return false }
        originalBytes += count
        return true
    }

    /// Compresses the group's last page and allocates its last segment (inside the scope
    /// that wrote the group).
    func endGroup() -> Bool {
        writer.finish(emit: { self.keep($0) }) && pages.seal()
    }

    func read(into memory: RawMemory, count: Int) -> Bool {
        // Bytes a failed write left staged are read after the last page.
        reader.adoptStaged(writer.takeStaged())
        return reader.read(into: memory, count: count, next: { pages.first }, done: { pages.removeFirst() })
    }

    /// Keeps one encoded page at the end of the chain.
    private func keep(_ encoded: UnsafeRawBufferPointer) -> Bool {
        pages.append(encoded)
    }

    /// Moves the next `count` bytes held, as they are (compressed), to the freezer's `file`:
    /// each page is written when its first byte is moved and freed here when its last is.
    /// XNU's freezer relocates pages already in the compressor into its own segments and
    /// swaps those out, without decompressing them (`osfmk/vm/vm_compressor.c`,
    /// `vm_compressor_relocate`, called through `vm_compressor_pager_relocate` from
    /// `vm_object_compressed_freezer_pageout`; docs/fidelity.md). Call it for each block in
    /// the order the blocks were written, inside the scope of the owner that wrote it. False
    /// when less is held or the write failed.
    func moveBlock(count: Int, to file: CompressingPageStore) -> Bool {
        guard file.pageBytes == pageBytes, file.codec == codec, writer.stagedBytes == 0 else { return false }
        var left = count
        while left > 0 {
            guard let encoded = pages.first else { return false }
            let page = PackedPage(header: encoded)
            guard page.originalCount > movedOfFirst else { return false }
            if movedOfFirst == 0 { guard file.writeEncodedPage(encoded) else { return false } }
            let take = min(left, page.originalCount - movedOfFirst)
            movedOfFirst += take
            left -= take
            if movedOfFirst == page.originalCount {
                pages.removeFirst()
                movedOfFirst = 0
            }
        }
        file.noteRelocated(count)
        return true
    }

    /// Corrupts every page held (see ``CompressedPageChain/corruptForTesting()``).
    package func corruptForTesting() {
        pages.corruptForTesting()
    }

    /// Frees what is left, page by page.
    func removeAll() {
        pages.removeAll()
        movedOfFirst = 0
    }
}
