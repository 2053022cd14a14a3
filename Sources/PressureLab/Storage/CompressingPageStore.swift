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
    private var pageBuffer: UnsafeMutableRawPointer?
    private var pageBufferBytes = 0

    package init(file: FreezerFile, codec: PageCodec, pageBytes: Int) {
        self.file = file
        self.codec = codec
        self.pageBytes = pageBytes
        writer = PageStreamWriter(codec: codec, pageBytes: pageBytes)
        reader = PageStreamReader(codec: codec, pageBytes: pageBytes)
    }

    deinit {
        if let pageBuffer { PageBuffers.give(pageBuffer, bytes: pageBufferBytes) }
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
        guard reader.read(into: memory, count: count, next: readPage) else { return false }
        originalBytes += count
        return true
    }

    /// Reads the next page's header and stored bytes from the file; nil at the end of the
    /// file, or when the header cannot be a page of this store (a corrupt length must not
    /// become a huge read).
    private func readPage() -> UnsafeRawBufferPointer? {
        if pageBuffer == nil {
            var bytes = PackedPage.maxEncodedBytes(pageBytes: pageBytes, codec: codec)
            pageBuffer = PageBuffers.take(&bytes)
            pageBufferBytes = bytes
        }
        guard let buffer = pageBuffer else { return nil }
        let header = UnsafeMutableRawBufferPointer(start: buffer, count: PackedPage.headerBytes)
        guard file.read(into: header) else { return nil }
        let page = PackedPage(header: UnsafeRawBufferPointer(header))
        guard page.isPlausible(pageBytes: pageBytes) else { return nil }
        let stored = UnsafeMutableRawBufferPointer(start: buffer + PackedPage.headerBytes, count: page.storedCount)
        guard file.read(into: stored) else { return nil }
        return UnsafeRawBufferPointer(start: buffer, count: PackedPage.headerBytes + page.storedCount)
    }
}
