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
    public init?(compressing source: UnsafeRawBufferPointer, pageBytes: Int, codec: PageCodec) {
        precondition(pageBytes > 0, "a page has bytes")
        let pages = (source.count + pageBytes - 1) / pageBytes
        let headerBytes = pages * 4
        // Compress into a worst-case buffer, then keep an exact-size copy. The worst case is
        // sized by the pages as they are: a block smaller than a page (a view's 256 B in a
        // 16 KiB page) needs the bound of its own bytes, not of a whole page (which made every
        // small block's scratch a 20 KiB allocation; issue 30).
        let lastLength = source.count - (pages - 1) * pageBytes
        let fullBound = max(codec.bound(pageBytes), pageBytes)
        let scratchBytes = pages == 0 ? 1 : headerBytes + (pages - 1) * fullBound + max(codec.bound(lastLength), lastLength)
        guard let scratch = malloc(scratchBytes) else { return nil }
        defer { free(scratch) }
        var offset = headerBytes
        for page in 0..<pages {
            let start = page * pageBytes
            let length = min(pageBytes, source.count - start)
            let input = UnsafeRawBufferPointer(rebasing: source[start..<(start + length)])
            let output = UnsafeMutableRawBufferPointer(start: scratch + offset, count: max(codec.bound(length), length))
            var entry: UInt32
            if let written = codec.compress(input, into: output), written < length {
                entry = UInt32(written)
                offset += written
            } else {
                memcpy(scratch + offset, input.baseAddress!, length)
                entry = UInt32(length) | Self.rawFlag
                offset += length
            }
            scratch.storeBytes(of: entry, toByteOffset: page * 4, as: UInt32.self)
        }
        guard let stored = malloc(max(offset, 1)) else { return nil }
        memcpy(stored, scratch, offset)
        self.storage = stored
        self.storedCount = offset
        self.originalCount = source.count
        self.pageBytes = pageBytes
        self.codec = codec
    }

    deinit { free(storage) }

    /// Decompresses every page into `destination` (exactly ``originalCount`` bytes); false
    /// when a page is corrupt.
    public func decompress(into destination: UnsafeMutableRawBufferPointer) -> Bool {
        guard destination.count == originalCount else { return false }
        let pages = (originalCount + pageBytes - 1) / pageBytes
        var offset = pages * 4
        for page in 0..<pages {
            let entry = storage.load(fromByteOffset: page * 4, as: UInt32.self)
            let stored = Int(entry & ~Self.rawFlag)
            let start = page * pageBytes
            let length = min(pageBytes, originalCount - start)
            guard offset + stored <= storedCount else { return false }
            let input = UnsafeRawBufferPointer(start: storage + offset, count: stored)
            let output = UnsafeMutableRawBufferPointer(rebasing: destination[start..<(start + length)])
            if entry & Self.rawFlag != 0 {
                guard stored == length else { return false }
                memcpy(output.baseAddress!, input.baseAddress!, length)
            } else if !codec.decompress(input, into: output) {
                return false
            }
            offset += stored
        }
        return true
    }

    /// Read-only access to the stored bytes (header and pages), to write them to a file.
    public func withStoredBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: storage, count: storedCount))
    }

    /// Decompresses stored bytes read back from a file (the layout ``withStoredBytes(_:)``
    /// gave) into exactly `destination.count` bytes; false when they are corrupt.
    public static func decompress(stored: UnsafeRawBufferPointer, pageBytes: Int, codec: PageCodec,
                                  into destination: UnsafeMutableRawBufferPointer) -> Bool {
        guard pageBytes > 0 else { return false }
        let pages = (destination.count + pageBytes - 1) / pageBytes
        guard stored.count >= pages * 4 else { return false }
        var offset = pages * 4
        for page in 0..<pages {
            let entry = stored.loadUnaligned(fromByteOffset: page * 4, as: UInt32.self)
            let size = Int(entry & ~rawFlag)
            let start = page * pageBytes
            let length = min(pageBytes, destination.count - start)
            guard offset + size <= stored.count, let base = stored.baseAddress else { return false }
            let input = UnsafeRawBufferPointer(start: base + offset, count: size)
            let output = UnsafeMutableRawBufferPointer(rebasing: destination[start..<(start + length)])
            if entry & rawFlag != 0 {
                guard size == length else { return false }
                memcpy(output.baseAddress!, input.baseAddress!, length)
            } else if !codec.decompress(input, into: output) {
                return false
            }
            offset += size
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
