import PressureLabHeap

/// The freezer's file with compression: each block is compressed page by page (a real
/// codec) and written as its stored size (8 bytes, little-endian) then its stored bytes; a
/// thaw reads and decompresses them in the same order. The file holds compressed pages, so
/// a freeze writes, and a thaw reads, only the compressed bytes.
final class CompressingPageStore: PageStore {
    let file: FreezerFile
    let codec: PageCodec
    let pageBytes: Int
    var gate: MemoryGate? {
        get { file.gate }
        set { file.gate = newValue }
    }
    /// Bytes before compression, written or read so far.
    private(set) var originalBytes = 0
    /// Of ``originalBytes`` written, those that arrived already compressed (moved from the
    /// in-RAM pool, ``writeCompressed(_:)``): the freezer did not compress them again.
    private(set) var relocatedBytes = 0

    init(file: FreezerFile, codec: PageCodec, pageBytes: Int) {
        self.file = file
        self.codec = codec
        self.pageBytes = pageBytes
    }

    func write(_ memory: RawMemory, count: Int) -> Bool {
        guard let compressed = CompressedPages(compressing: memory, count: count, pageBytes: pageBytes, codec: codec)
        else { return false }
        var length = UInt64(compressed.storedCount).littleEndian
        guard withUnsafeBytes(of: &length, { file.write($0) }) else { return false }
        guard compressed.withStoredBytes({ file.write($0) }) else { return false }
        originalBytes += count
        return true
    }

    /// Writes a block that is compressed already, with this store's codec and page size, in
    /// the same layout as ``write(_:count:)``: a thaw reads it back like any other block.
    func writeCompressed(_ pages: CompressedPages) -> Bool {
        var length = UInt64(pages.storedCount).littleEndian
        guard withUnsafeBytes(of: &length, { file.write($0) }) else { return false }
        guard pages.withStoredBytes({ file.write($0) }) else { return false }
        originalBytes += pages.originalCount
        relocatedBytes += pages.originalCount
        return true
    }

    func read(into memory: RawMemory, count: Int) -> Bool {
        var length: UInt64 = 0
        guard withUnsafeMutableBytes(of: &length, { file.read(into: $0) }) else { return false }
        // A corrupt length must not trap or become a huge allocation: a block never stores
        // more than its pages raw plus their headers.
        let pages = CompressedPages.pageCount(of: memory, count: count, pageBytes: pageBytes)
        let declared = UInt64(littleEndian: length)
        guard declared <= UInt64(count + pages * 4) else { return false }
        let stored = Int(declared)
        // The compressed block, read into a buffer of the one door for raw memory (one
        // allocation: it is decompressed as one stream).
        guard let buffer = RawMemory.allocateContiguous(max(stored, 1)) else { return false }
        defer { buffer.release() }
        guard stored == 0 || buffer.withMutableBytes(count: stored, { file.read(into: $0) }) else { return false }
        guard buffer.withBytes(count: stored, { compressedBytes in
            CompressedPages.decompress(stored: compressedBytes, pageBytes: pageBytes, codec: codec, into: memory, count: count)
        }) else { return false }
        originalBytes += count
        return true
    }
}
