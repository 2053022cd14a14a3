import PressureLabHeap

/// One region of the in-RAM compressed pool (a controller's memory, or an app's app-wide
/// data; see ``CompressedPool``): its paged-out memory, block after block,
/// each compressed page by page by a real codec (LZ4 or Zstandard). The compressed bytes
/// are real allocations made inside the owners' measured scopes, so they are attributed to
/// the app and count against the budget, as XNU and Android count an app's compressed
/// footprint.
///
/// Blocks are kept in a chain of nodes, each allocated with its block (inside the owner's
/// scope when it is written) and freed with it (inside the owner's scope when it is read
/// back): no shared container grows in one owner's scope and shrinks in another's.
final class CompressedMemoryStore: PageStore {
    private final class Node {
        let pages: CompressedPages
        var next: Node?
        init(_ pages: CompressedPages) { self.pages = pages }
    }

    let codec: PageCodec
    let pageBytes: Int
    var gate: MemoryGate?
    private var head: Node?
    private var tail: Node?
    /// Bytes compressed, and bytes the pool holds for them.
    private(set) var originalBytes = 0
    private(set) var storedBytes = 0

    init(codec: PageCodec, pageBytes: Int) {
        self.codec = codec
        self.pageBytes = pageBytes
    }

    deinit { removeAll() }

    func write(_ memory: RawMemory, count: Int) -> Bool {
        guard let compressed = CompressedPages(compressing: memory, count: count, pageBytes: pageBytes, codec: codec)
        else { return false }
        let node = Node(compressed)
        if let tail { tail.next = node } else { head = node }
        tail = node
        originalBytes += count
        storedBytes += compressed.storedCount
        return true
    }

    func read(into memory: RawMemory, count: Int) -> Bool {
        guard let node = head else { return false }
        guard node.pages.originalCount == count,
              node.pages.decompress(into: memory, count: count) else { return false }
        head = node.next
        if head == nil { tail = nil }
        node.next = nil
        return true
    }

    /// Moves the first block still held, as it is (compressed), to the freezer's `file`,
    /// and frees it here: XNU's freezer relocates pages already in the compressor into its
    /// own segments and swaps those out, without decompressing them
    /// (`osfmk/vm/vm_compressor.c`, `vm_compressor_relocate`, called through
    /// `vm_compressor_pager_relocate` from `vm_object_compressed_freezer_pageout`;
    /// docs/fidelity.md). Call it in the order the blocks were written, inside the scope of
    /// the owner that wrote the block. False when nothing is held or the write failed (the
    /// block stays here).
    func moveFirstBlock(to file: CompressingPageStore) -> Bool {
        guard let node = head, node.pages.pageBytes == file.pageBytes, node.pages.codec == file.codec,
              file.writeCompressed(node.pages) else { return false }
        head = node.next
        if head == nil { tail = nil }
        node.next = nil
        return true
    }

    /// Corrupts every block held (see ``CompressedPages/corruptForTesting()``).
    package func corruptForTesting() {
        var node = head
        while let current = node {
            current.pages.corruptForTesting()
            node = current.next
        }
    }

    /// Frees what is left, node by node (no recursion through a long chain).
    func removeAll() {
        tail = nil
        while let node = head {
            head = node.next
            node.next = nil
        }
    }
}
