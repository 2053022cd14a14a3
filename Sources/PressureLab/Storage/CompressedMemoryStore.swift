import PressureLabHeap

/// The in-RAM compressed pool's share of one app: its paged-out memory, block after block,
/// each compressed page by page by a real codec (LZ4 or Zstandard). The compressed bytes
/// are real allocations made inside the owners' measured scopes, so they are attributed to
/// the app and count against the budget, as XNU and Android count an app's compressed
/// footprint.
final class CompressedMemoryStore: PageStore {
    let codec: PageCodec
    let pageBytes: Int
    var gate: MemoryGate?
    /// Compressed blocks in write order; each is dropped as it is read back, inside the
    /// owner's measured scope, so its bytes leave the owner's balance there.
    private var blocks: [CompressedPages?] = []
    private var nextRead = 0
    /// Bytes compressed, and bytes the pool holds for them.
    private(set) var originalBytes = 0
    private(set) var storedBytes = 0

    init(codec: PageCodec, pageBytes: Int) {
        self.codec = codec
        self.pageBytes = pageBytes
    }

    func write(_ pointer: UnsafeRawPointer, count: Int) -> Bool {
        guard let compressed = CompressedPages(compressing: UnsafeRawBufferPointer(start: pointer, count: count),
                                               pageBytes: pageBytes, codec: codec) else { return false }
        blocks.append(compressed)
        originalBytes += count
        storedBytes += compressed.storedCount
        return true
    }

    func read(into pointer: UnsafeMutableRawPointer, count: Int) -> Bool {
        guard nextRead < blocks.count, let block = blocks[nextRead] else { return false }
        guard block.originalCount == count,
              block.decompress(into: UnsafeMutableRawBufferPointer(start: pointer, count: count)) else { return false }
        blocks[nextRead] = nil
        nextRead += 1
        return true
    }

    /// Frees the compressed blocks (once everything was read back).
    func removeAll() {
        blocks = []
        nextRead = 0
    }
}
