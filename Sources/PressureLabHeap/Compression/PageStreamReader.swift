#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads back what a ``PageStreamWriter`` packed, block after block in the order written:
/// each page is decompressed when the first of its bytes is needed, straight into the block
/// when the block takes all of it, else into a staging page (outside the measured heap) that
/// the next blocks are copied from.
package struct PageStreamReader: ~Copyable {
    /// The codec pages were compressed with.
    package let codec: PageCodec
    /// The page size.
    package let pageBytes: Int
    private var page: UnsafeMutableRawPointer?
    private var pageBufferBytes = 0
    /// Bytes of the decompressed page, and how many of them were read.
    private var pageLength = 0
    private var pageOffset = 0
    /// Bytes a failed writer had staged (``PageStreamWriter/takeStaged()``): read after the
    /// last page.
    private var staged: StagedBytes?

    package init(codec: PageCodec, pageBytes: Int) {
        self.codec = codec
        self.pageBytes = pageBytes
    }

    deinit {
        if let page { PageBuffers.give(page, bytes: pageBufferBytes) }
        if let staged { PageBuffers.give(staged.buffer, bytes: staged.bufferBytes) }
    }

    /// Takes the bytes a failed writer had staged, to be read after the last whole page.
    package mutating func adoptStaged(_ taken: StagedBytes?) {
        guard let taken else { return }
        if let staged { PageBuffers.give(staged.buffer, bytes: staged.bufferBytes) }
        staged = taken
    }

    /// Bytes decompressed and not read yet.
    package var unreadBytes: Int { pageLength - pageOffset }

    /// Fills the `count` bytes of `memory`, piece after piece (see ``read(into:next:done:)``).
    package mutating func read(into memory: RawMemory, count: Int,
                               next: () -> UnsafeRawBufferPointer?, done: () -> Void = {}) -> Bool {
        // A small block is one allocation: its bytes start at its handle.
        guard count >= RawMemory.pieceMinimum else {
            return read(into: UnsafeMutableRawBufferPointer(start: memory.base, count: count), next: next, done: done)
        }
        for piece in memory.pieces(count: count) {
            guard read(into: piece, next: next, done: done) else { return false }
        }
        return true
    }

    /// Fills `destination` from the stream; `next` gives the next encoded page, nil when
    /// there is none, and `done` is called once it is decompressed (the page's holder may
    /// free it: its bytes are all read in the same group). False when the stream ends
    /// early or a page is corrupt.
    package mutating func read(into destination: UnsafeMutableRawBufferPointer,
                               next: () -> UnsafeRawBufferPointer?, done: () -> Void = {}) -> Bool {
        guard let base = destination.baseAddress else { return true }
        var offset = 0
        while offset < destination.count {
            if pageOffset == pageLength {
                guard let encoded = next() else {
                    guard takeStaged() else { return false }
                    continue
                }
                guard encoded.count >= PackedPage.headerBytes else { return false }
                let header = PackedPage(header: encoded)
                guard header.isPlausible(pageBytes: pageBytes),
                      encoded.count == PackedPage.headerBytes + header.storedCount else { return false }
                let stored = UnsafeRawBufferPointer(rebasing: encoded[PackedPage.headerBytes...])
                if destination.count - offset >= header.originalCount {
                    guard decode(stored, header, into: base + offset) else { return false }
                    done()
                    offset += header.originalCount
                    continue
                }
                guard let page = pageBuffer(), decode(stored, header, into: page) else { return false }
                done()
                pageLength = header.originalCount
                pageOffset = 0
            }
            guard let page else { return false }
            let take = min(pageLength - pageOffset, destination.count - offset)
            memcpy(base + offset, page + pageOffset, take)
            pageOffset += take
            offset += take
            if pageOffset == pageLength { releasePage() }
        }
        return true
    }

    /// Makes the staged bytes the page being read; false when there are none.
    private mutating func takeStaged() -> Bool {
        guard let taken = staged else { return false }
        staged = nil
        releasePage()
        page = taken.buffer
        pageBufferBytes = taken.bufferBytes
        pageLength = taken.count
        pageOffset = 0
        return true
    }

    private mutating func pageBuffer() -> UnsafeMutableRawPointer? {
        if let page { return page }
        var bytes = pageBytes
        page = PageBuffers.take(&bytes)
        pageBufferBytes = bytes
        return page
    }

    /// Gives the staging page back once it is read (a group ends with its last page).
    private mutating func releasePage() {
        if let page { PageBuffers.give(page, bytes: pageBufferBytes) }
        page = nil
        pageLength = 0
        pageOffset = 0
    }

    private func decode(_ stored: UnsafeRawBufferPointer, _ header: PackedPage, into output: UnsafeMutableRawPointer) -> Bool {
        if header.isRaw {
            memcpy(output, stored.baseAddress!, header.originalCount)
            return true
        }
        return codec.decompress(stored, into: UnsafeMutableRawBufferPointer(start: output, count: header.originalCount),
                                workspace: CodecWorkspace.current)
    }
}
