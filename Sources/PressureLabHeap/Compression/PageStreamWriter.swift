#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Packs a group of blocks into pages and compresses each page as it fills, as the iOS
/// compressor and zram compress the pages that a process's small objects share, not each
/// object on its own (docs/fidelity.md, "Compressed pages are shared by small blocks").
///
/// Small blocks of a group are one stream: a page holds the end of one block and the start
/// of the next, as an allocator's slab holds small objects side by side. A large block
/// (``largeBlockBytes`` or more) has pages of its own, as jemalloc gives it whole pages (its
/// smallest size class not allocated out of a slab is four pages, 16 KiB:
/// `SC_LARGE_MINCLASS` in `include/jemalloc/internal/sc.h`): the page being filled is
/// compressed short before it, and its pages are compressed straight from its pieces, the
/// last page of each piece short. Pages of small blocks are gathered in a staging page
/// (outside the measured heap, see ``PageBuffers``), or compressed straight from a block
/// that holds a whole page. ``finish(emit:)`` compresses the last, short page of a group: a
/// group is what one owner writes in one measured scope, so every page's allocation falls
/// in the scope of the owner whose bytes it holds.
///
/// Each page is handed to `emit` encoded (``PackedPage`` header, then its stored bytes),
/// in a buffer valid during the call.
package struct PageStreamWriter: ~Copyable {
    /// The codec pages are compressed with.
    package let codec: PageCodec
    /// The page size.
    package let pageBytes: Int
    private var staging: UnsafeMutableRawPointer?
    private var stagingBytes = 0
    /// Bytes written into the staging page and not yet compressed.
    package private(set) var stagedBytes = 0

    package init(codec: PageCodec, pageBytes: Int) {
        precondition(pageBytes > 0 && pageBytes <= Int(Int32.max) / 2, "a page has bytes")
        self.codec = codec
        self.pageBytes = pageBytes
    }

    deinit {
        if let staging { PageBuffers.give(staging, bytes: stagingBytes) }
    }

    /// Blocks of this many bytes or more are large: they start a page of their own. The
    /// size jemalloc's large classes start at, as ``RawMemory/pieceMinimum`` (a smaller block
    /// is always one allocation).
    package static var largeBlockBytes: Int { RawMemory.pieceMinimum }

    /// Appends the `count` bytes of `memory`, piece after piece; false when a page could not
    /// be kept (`emit` failed) or the host had no memory: the bytes staged so far stay
    /// readable (``takeStaged()``).
    package mutating func append(_ memory: RawMemory, count: Int,
                                 emit: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        // A small block is one allocation: its bytes start at its handle.
        guard count >= Self.largeBlockBytes else {
            return append(UnsafeRawBufferPointer(start: memory.base, count: count), emit: emit)
        }
        guard flushStaged(emit: emit) else { return false }
        for piece in memory.pieces(count: count) {
            guard let base = piece.baseAddress else { continue }
            var start = 0
            while start < piece.count {
                let length = min(pageBytes, piece.count - start)
                guard compress(UnsafeRawBufferPointer(start: base + start, count: length), emit: emit) else { return false }
                start += length
            }
        }
        return true
    }

    /// Appends `bytes` (see ``append(_:count:emit:)``).
    package mutating func append(_ bytes: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        while offset < bytes.count {
            // A full staging page is compressed only when more bytes come (or the group
            // ends), so that a failed page stays staged, never half gone.
            if stagedBytes == pageBytes {
                guard let staging, compress(UnsafeRawBufferPointer(start: staging, count: pageBytes), emit: emit)
                else { return false }
                stagedBytes = 0
            }
            if stagedBytes == 0, bytes.count - offset >= pageBytes {
                guard compress(UnsafeRawBufferPointer(start: base + offset, count: pageBytes), emit: emit) else { return false }
                offset += pageBytes
                continue
            }
            guard let staging = stagingPage() else { return false }
            let take = min(pageBytes - stagedBytes, bytes.count - offset)
            memcpy(staging + stagedBytes, base + offset, take)
            stagedBytes += take
            offset += take
        }
        return true
    }

    /// Compresses what is staged (the group's last page) and gives the staging page back;
    /// false when the page could not be kept (it stays staged).
    package mutating func finish(emit: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        guard flushStaged(emit: emit) else { return false }
        if let staging {
            PageBuffers.give(staging, bytes: stagingBytes)
            self.staging = nil
        }
        return true
    }

    /// The staged bytes, not compressed (a write failed and what was written is read back):
    /// the caller owns the buffer and hands it to a ``PageStreamReader``. Nil when nothing
    /// is staged.
    package mutating func takeStaged() -> StagedBytes? {
        guard let staging, stagedBytes > 0 else { return nil }
        defer {
            self.staging = nil
            stagedBytes = 0
        }
        return StagedBytes(buffer: staging, bufferBytes: stagingBytes, count: stagedBytes)
    }

    /// Compresses what is staged as a page, short when it is not full; false when it could
    /// not be kept (it stays staged).
    private mutating func flushStaged(emit: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        guard stagedBytes > 0 else { return true }
        guard let staging, compress(UnsafeRawBufferPointer(start: staging, count: stagedBytes), emit: emit) else { return false }
        stagedBytes = 0
        return true
    }

    private mutating func stagingPage() -> UnsafeMutableRawPointer? {
        if let staging { return staging }
        var bytes = pageBytes
        staging = PageBuffers.take(&bytes)
        stagingBytes = bytes
        return staging
    }

    /// Compresses one page (stored as it is when it does not compress) and hands it to `emit`.
    private func compress(_ page: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        let encodedBytes = PackedPage.headerBytes + max(codec.bound(page.count), page.count)
        let workspace = CodecWorkspace.current
        let reusable = workspace?.scratch(encodedBytes)
        guard let scratch = reusable ?? malloc(encodedBytes) else { return false }
        defer { if reusable == nil { free(scratch) } }
        let body = scratch + PackedPage.headerBytes
        let output = UnsafeMutableRawBufferPointer(start: body, count: encodedBytes - PackedPage.headerBytes)
        var header: PackedPage
        if let written = codec.compress(page, into: output, workspace: workspace), written < page.count {
            header = PackedPage(originalCount: page.count, storedCount: written, isRaw: false)
        } else {
            memcpy(body, page.baseAddress!, page.count)
            header = PackedPage(originalCount: page.count, storedCount: page.count, isRaw: true)
        }
        header.storeHeader(at: scratch)
        return emit(UnsafeRawBufferPointer(start: scratch, count: PackedPage.headerBytes + header.storedCount))
    }
}

/// Bytes a ``PageStreamWriter`` had staged and not compressed, in a buffer of ``PageBuffers``.
package struct StagedBytes {
    /// The buffer, and its size (to give it back).
    package let buffer: UnsafeMutableRawPointer
    package let bufferBytes: Int
    /// Bytes staged at its start.
    package let count: Int
}
