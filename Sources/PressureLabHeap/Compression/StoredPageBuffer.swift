/// The buffer a stored page is read into, one page at a time, before a ``PageStreamReader``
/// decompresses it: a freezer file holds each page as its ``PackedPage`` header then its
/// stored bytes. The buffer comes from ``PageBuffers`` (outside the measured heap), taken at
/// the first page read and given back when this value ends.
///
/// Its memory is lent only to the closures of
/// ``PageStreamReader/read(into:count:stored:reading:)``: no pointer to it leaves
/// PressureLabHeap (docs/architecture.md, "Unsafe code").
package struct StoredPageBuffer: ~Copyable {
    private var buffer: UnsafeMutableRawPointer?
    private var bufferBytes = 0

    package init() {}

    deinit {
        if let buffer { PageBuffers.give(buffer, bytes: bufferBytes) }
    }

    /// Reads the next page's header and stored bytes with `readBytes` (which fills the whole
    /// buffer it is given, or returns false); nil at the end of the pages, or when the header
    /// cannot be a page of `pageBytes` with `codec` (a corrupt length must not become a huge
    /// read). The page returned is valid until the next call.
    fileprivate mutating func readPage(pageBytes: Int, codec: PageCodec,
                                       _ readBytes: (UnsafeMutableRawBufferPointer) -> Bool) -> UnsafeRawBufferPointer? {
        if buffer == nil {
            var bytes = PackedPage.maxEncodedBytes(pageBytes: pageBytes, codec: codec)
            buffer = PageBuffers.take(&bytes)
            bufferBytes = bytes
        }
        guard let buffer else { return nil }
        let header = UnsafeMutableRawBufferPointer(start: buffer, count: PackedPage.headerBytes)
        guard readBytes(header) else { return nil }
        let page = PackedPage(header: UnsafeRawBufferPointer(header))
        guard page.isPlausible(pageBytes: pageBytes) else { return nil }
        let stored = UnsafeMutableRawBufferPointer(start: buffer + PackedPage.headerBytes, count: page.storedCount)
        guard readBytes(stored) else { return nil }
        return UnsafeRawBufferPointer(start: buffer, count: PackedPage.headerBytes + page.storedCount)
    }
}

extension PageStreamReader {
    /// Fills the `count` bytes of `memory` from stored pages (each a ``PackedPage`` header,
    /// then its stored bytes) that `readBytes` reads in order into the buffer it is lent
    /// (a file read: true when it filled all of it). Pages are read into `stored`, one at a
    /// time. False when the pages end early or one is corrupt.
    package mutating func read(into memory: RawMemory, count: Int, stored: inout StoredPageBuffer,
                               reading readBytes: (UnsafeMutableRawBufferPointer) -> Bool) -> Bool {
        let pageBytes = self.pageBytes, codec = self.codec
        return read(into: memory, count: count, next: { stored.readPage(pageBytes: pageBytes, codec: codec, readBytes) })
    }
}
