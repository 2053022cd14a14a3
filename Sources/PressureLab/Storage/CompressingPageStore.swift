import PressureLabHeap

/// The freezer's file with compression: each group of blocks (what one owner writes in one
/// measured scope) is packed into pages and compressed page by page (a real codec), as the
/// in-RAM pool does (``CompressedMemoryStore``); each page is written as its ``PackedPage``
/// header then its stored bytes, and a thaw reads and decompresses them in the same order.
/// The file holds compressed pages, so a freeze writes, and a thaw reads, only the
/// compressed bytes. Pages moved from the pool (``writeEncodedPage(_:)``) are written as
/// they were held.
package final class CompressingPageStore: PageStore {
    let file: FreezerFile
    let codec: PageCodec
    let pageBytes: Int
    package var gate: MemoryGate? {
        get { file.gate }
        set { file.gate = newValue }
    }
    /// Bytes before compression, written or read so far.
    private(set) var originalBytes = 0
    /// Of ``originalBytes`` written, those that arrived already compressed (moved from the
    /// in-RAM pool, ``writeEncodedPage(_:)``): the freezer did not compress them again.
    private(set) var relocatedBytes = 0
    private var writer: PageStreamWriter
    private var reader: PageStreamReader
    /// The buffer one encoded page is read into (outside the measured heap; a thaw's pages
    /// are read one at a time).
    private var pageBuffer = StoredPageBuffer()

    package init(file: FreezerFile, codec: PageCodec, pageBytes: Int) {
        self.file = file
        self.codec = codec
        self.pageBytes = pageBytes
        writer = PageStreamWriter(codec: codec, pageBytes: pageBytes)
        reader = PageStreamReader(codec: codec, pageBytes: pageBytes)
    }

    package func write(_ memory: RawMemory, count: Int) -> Bool {
        guard writer.append(memory, count: count, emit: { file.write($0) }) else { return false }
        originalBytes += count
        return true
    }

    /// Compresses and writes the group's last page.
    package func endGroup() -> Bool {
        writer.finish { file.write($0) }
    }

    /// Writes one page that is compressed already (moved from the pool), with this store's
    /// codec and page size; a thaw reads it back like any other. False when the write failed
    /// or a group written here is not finished.
    func writeEncodedPage(_ encoded: UnsafeRawBufferPointer) -> Bool {
        writer.stagedBytes == 0 && file.write(encoded)
    }

    /// Counts `bytes` of a block moved from the pool (its pages were written with
    /// ``writeEncodedPage(_:)``).
    func noteRelocated(_ bytes: Int) {
        originalBytes += bytes
        relocatedBytes += bytes
    }

    /// Reads after a failed freeze: what `writer` had staged, not yet in the file, is read
    /// after the file's last page, so that everything it took comes back.
    func adoptUnwritten(of writer: CompressingPageStore) {
        reader.adoptStaged(writer.writer.takeStaged())
    }

    package func read(into memory: RawMemory, count: Int) -> Bool {
        guard reader.read(into: memory, count: count, stored: &pageBuffer, reading: { file.read(into: $0) }) else { return false }
        originalBytes += count
        return true
    }
}
