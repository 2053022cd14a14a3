#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A block of memory compressed page by page, as the iOS compressor and zram keep it: one
/// real allocation (measured by jemalloc like any other) holding, for each page, its
/// compressed bytes, or the page as it was when it does not compress (zram's "huge" pages).
///
/// Layout: a header of one `UInt32` per page (its stored size; the top bit set for a page
/// stored uncompressed), then the pages' bytes in order.
///
/// One buffer compressed on its own (the codec benchmarks, the declared-ratio checks). The
/// device's pool and the freezer pack an owner's blocks into shared pages instead
/// (``PageStreamWriter``, ``CompressedPageChain``).
public final class CompressedPages {
    /// Bytes before compression.
    public let originalCount: Int
    /// The page size.
    public let pageBytes: Int
    /// The codec.
    public let codec: PageCodec
    /// Bytes of the allocation (header and compressed pages): what the pool holds.
    public let storedCount: Int
    private let storage: UnsafeMutableRawPointer

    private static let rawFlag: UInt32 = 1 << 31

    /// Compresses `source` page by page; nil when the host has no memory for the result.
    ///
    /// - Complexity: O(`source.count`); a scratch page on the stack of the calling thread.
    public convenience init?(compressing source: UnsafeRawBufferPointer, pageBytes: Int, codec: PageCodec) {
        // Read only: the mutable view is what the pieces of a block are handed as.
        self.init(compressingPieces: CollectionOfOne(UnsafeMutableRawBufferPointer(mutating: source)),
                  pageBytes: pageBytes, codec: codec)
    }

    /// Compresses the `count` bytes of `memory` piece by piece, each page by page (a page
    /// never spans two pieces); nil when the host has no memory for the result.
    ///
    /// - Complexity: O(`count`).
    public convenience init?(compressing memory: RawMemory, count: Int, pageBytes: Int, codec: PageCodec) {
        self.init(compressingPieces: memory.pieces(count: count), pageBytes: pageBytes, codec: codec)
    }

    /// The pages of `pieces`: each piece's bytes in pages of `pageBytes`, its last page short.
    static func pageCount<Pieces: Collection>(of pieces: Pieces, pageBytes: Int) -> Int where Pieces.Element: Collection {
        pieces.reduce(0) { $0 + ($1.count + pageBytes - 1) / pageBytes }
    }

    /// The pages the `count` bytes of `memory` are compressed in (see ``init(compressing:count:pageBytes:codec:)``).
    public static func pageCount(of memory: RawMemory, count: Int, pageBytes: Int) -> Int {
        pageCount(of: memory.pieces(count: count), pageBytes: pageBytes)
    }

    private init?<Pieces: RandomAccessCollection>(compressingPieces pieces: Pieces, pageBytes: Int, codec: PageCodec)
    where Pieces.Element == UnsafeMutableRawBufferPointer {
        precondition(pageBytes > 0, "a page has bytes")
        let pages = Self.pageCount(of: pieces, pageBytes: pageBytes)
        let headerBytes = pages * 4
        // Compress into a worst-case buffer, then keep an exact-size copy. The worst case is
        // sized by the pages as they are: a block smaller than a page (a view's 256 B in a
        // 16 KiB page) needs the bound of its own bytes, not of a whole page (which made every
        // small block's scratch a 20 KiB allocation; issue 30).
        let fullBound = max(codec.bound(pageBytes), pageBytes)
        var scratchBytes = headerBytes
        for source in pieces where !source.isEmpty {
            let lastLength = source.count - (source.count - 1) / pageBytes * pageBytes
            scratchBytes += (source.count - 1) / pageBytes * fullBound + max(codec.bound(lastLength), lastLength)
        }
        // The thread's scratch buffer when the block's worst case fits in it (one view's
        // storage, a bitmap), else an allocation of its own.
        let workspace = CodecWorkspace.current
        let reusable = workspace?.scratch(scratchBytes)
        guard let scratch = reusable ?? malloc(max(scratchBytes, 1)) else { return nil }
        defer { if reusable == nil { free(scratch) } }
        var offset = headerBytes
        var page = 0
        var total = 0
        for source in pieces {
            guard let sourceBase = source.baseAddress else { continue }
            var start = 0
            while start < source.count {
                let length = min(pageBytes, source.count - start)
                let input = UnsafeRawBufferPointer(start: sourceBase + start, count: length)
                let output = UnsafeMutableRawBufferPointer(start: scratch + offset, count: max(codec.bound(length), length))
                var entry: UInt32
                if let written = codec.compress(input, into: output, workspace: workspace), written < length {
                    entry = UInt32(written)
                    offset += written
                } else {
                    memcpy(scratch + offset, sourceBase + start, length)
                    entry = UInt32(length) | Self.rawFlag
                    offset += length
                }
                scratch.storeBytes(of: entry, toByteOffset: page * 4, as: UInt32.self)
                page += 1
                start += length
            }
            total += source.count
        }
        guard let stored = malloc(max(offset, 1)) else { return nil }
        memcpy(stored, scratch, offset)
        self.storage = stored
        self.storedCount = offset
        self.originalCount = total
        self.pageBytes = pageBytes
        self.codec = codec
    }

    deinit { free(storage) }

    /// Decompresses every page into `destination` (exactly ``originalCount`` bytes); false
    /// when a page is corrupt.
    public func decompress(into destination: UnsafeMutableRawBufferPointer) -> Bool {
        guard destination.count == originalCount else { return false }
        return Self.decompress(stored: UnsafeRawBufferPointer(start: storage, count: storedCount), pageBytes: pageBytes,
                               codec: codec, intoPieces: CollectionOfOne(destination))
    }

    /// Decompresses every page into the `count` bytes of `memory` (exactly ``originalCount``,
    /// in the pieces they were compressed from); false when a page is corrupt.
    public func decompress(into memory: RawMemory, count: Int) -> Bool {
        guard count == originalCount else { return false }
        return Self.decompress(stored: UnsafeRawBufferPointer(start: storage, count: storedCount), pageBytes: pageBytes,
                               codec: codec, intoPieces: memory.pieces(count: count))
    }

    /// Read-only access to the stored bytes (header and pages), to write them to a file.
    public func withStoredBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: storage, count: storedCount))
    }

    /// Decompresses stored bytes read back from a file (the layout ``withStoredBytes(_:)``
    /// gave) into exactly `destination.count` bytes; false when they are corrupt.
    public static func decompress(stored: UnsafeRawBufferPointer, pageBytes: Int, codec: PageCodec,
                                  into destination: UnsafeMutableRawBufferPointer) -> Bool {
        decompress(stored: stored, pageBytes: pageBytes, codec: codec, intoPieces: CollectionOfOne(destination))
    }

    /// Decompresses stored bytes read back from a file into the `count` bytes of `memory`, in
    /// its pieces; false when they are corrupt.
    public static func decompress(stored: UnsafeRawBufferPointer, pageBytes: Int, codec: PageCodec,
                                  into memory: RawMemory, count: Int) -> Bool {
        decompress(stored: stored, pageBytes: pageBytes, codec: codec, intoPieces: memory.pieces(count: count))
    }

    private static func decompress<Pieces: Collection>(stored: UnsafeRawBufferPointer, pageBytes: Int, codec: PageCodec,
                                                       intoPieces pieces: Pieces) -> Bool
    where Pieces.Element == UnsafeMutableRawBufferPointer {
        guard pageBytes > 0 else { return false }
        let pages = pageCount(of: pieces, pageBytes: pageBytes)
        guard stored.count >= pages * 4 else { return false }
        var offset = pages * 4
        var page = 0
        let workspace = CodecWorkspace.current
        for destination in pieces {
            guard let destinationBase = destination.baseAddress else { continue }
            var start = 0
            while start < destination.count {
                let entry = stored.loadUnaligned(fromByteOffset: page * 4, as: UInt32.self)
                let size = Int(entry & ~rawFlag)
                let length = min(pageBytes, destination.count - start)
                guard offset + size <= stored.count, let base = stored.baseAddress else { return false }
                let input = UnsafeRawBufferPointer(start: base + offset, count: size)
                let output = UnsafeMutableRawBufferPointer(start: destinationBase + start, count: length)
                if entry & rawFlag != 0 {
                    guard size == length else { return false }
                    memcpy(output.baseAddress!, input.baseAddress!, length)
                } else if !codec.decompress(input, into: output, workspace: workspace) {
                    return false
                }
                offset += size
                page += 1
                start += length
            }
        }
        return offset == stored.count
    }

    /// Flips bits of every stored page after the header (for tests of the page-in error
    /// path: memory corruption cannot be produced otherwise).
    package func corruptForTesting() {
        let pages = (originalCount + pageBytes - 1) / pageBytes
        for offset in stride(from: pages * 4, to: storedCount, by: 61) {
            storage.storeBytes(of: storage.load(fromByteOffset: offset, as: UInt8.self) ^ 0xA5, toByteOffset: offset, as: UInt8.self)
        }
        // A header that no longer adds up is caught too.
        if pages > 0 { storage.storeBytes(of: UInt32(1), toByteOffset: 0, as: UInt32.self) }
    }

    /// Compressibility: bytes before over bytes stored.
    public var ratio: Double { storedCount == 0 ? 1 : Double(originalCount) / Double(storedCount) }
}
