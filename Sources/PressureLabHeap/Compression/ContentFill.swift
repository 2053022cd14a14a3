#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Fills memory with bytes that compress, page by page, to a declared ratio
/// (uncompressed / compressed), seeded, at close to `memset` speed.
///
/// Each page gets `page / ratio` bytes copied from a seeded table of random bytes (at an
/// offset that depends on the seed, the block and the page, so no two pages repeat) and the
/// rest set to one byte value. Random bytes do not compress; a run of one value compresses to
/// almost nothing; so a page compresses to about its random share, with both LZ4 and
/// Zstandard. The codecs' own overhead per page (a few bytes of headers and sequence codes)
/// is subtracted from the random share, measured once per page size.
// Safe because every stored property is a `let`, and the table `table` points to is written
// only in `init` (before the fill is shared) and only read afterwards, until `deinit` frees it.
public final class ContentFill: @unchecked Sendable {
    /// The declared compressibility, at least 1.
    public let ratio: Double
    /// The page size the ratio holds for.
    public let pageBytes: Int
    /// Random bytes a page of ``pageBytes`` gets.
    public let randomBytesPerPage: Int
    let table: UnsafeMutableRawPointer
    let seed: UInt64
    static let tableBytes = 1 << 16

    /// Per-page overhead of the codecs, in bytes (LZ4: token, literal-length bytes, the
    /// match of the run, end marks; measured close to this on 4 KiB and 16 KiB pages).
    static let codecOverheadBytes = 16

    public init(ratio: Double, pageBytes: Int, seed: UInt64) {
        precondition(ratio >= 1 && pageBytes > 0, "a ratio of at least 1 and a page of some bytes")
        self.ratio = ratio
        self.pageBytes = pageBytes
        self.seed = seed
        let target = Int((Double(pageBytes) / ratio).rounded())
        randomBytesPerPage = ratio <= 1 ? pageBytes : max(0, min(pageBytes, target - Self.codecOverheadBytes))
        table = malloc(Self.tableBytes + pageBytes)!
        var state = seed &+ 0x5EED
        for word in 0..<((Self.tableBytes + pageBytes) / 8) {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            table.storeBytes(of: value ^ (value >> 31), toByteOffset: word * 8, as: UInt64.self)
        }
    }

    deinit { free(table) }

    /// Fills `buffer`; `salt` (a block's identity) varies the content between blocks.
    ///
    /// - Complexity: O(`buffer.count`): one copy of the random share and one `memset` a page.
    public func fill(_ buffer: UnsafeMutableRawBufferPointer, salt: UInt64) {
        fill(buffer, salt: salt, firstPage: 0)
    }

    /// Fills `buffer` as the part of a larger block that starts at page `firstPage`: a block
    /// filled a chunk at a time (chunks a whole number of pages) equals one filled whole.
    ///
    /// Fills larger than the last-level cache are written with streaming stores where the
    /// host has them (``streamingThresholdBytes``): the same bytes, without reading every
    /// line from memory before writing it, as `memset` does at that size.
    public func fill(_ buffer: UnsafeMutableRawBufferPointer, salt: UInt64, firstPage: Int) {
        guard let base = buffer.baseAddress else { return }
        var page = firstPage
        var offset = 0
        if buffer.count >= Self.streamingThresholdBytes {
            let whole = buffer.count / pageBytes
            if fillStreaming(base, pages: whole, salt: salt, firstPage: firstPage) {
                page += whole
                offset = whole * pageBytes
            }
        }
        let fillByte = Int32(truncatingIfNeeded: (seed ^ salt) & 0xFF)
        while offset < buffer.count {
            let length = min(pageBytes, buffer.count - offset)
            let random = length == pageBytes ? randomBytesPerPage
                : min(length, ratio <= 1 ? length : max(0, Int((Double(length) / ratio).rounded()) - Self.codecOverheadBytes))
            if random > 0 {
                memcpy(base + offset, table + tableOffset(salt: salt, page: page), random)
            }
            if random < length { memset(base + offset + random, fillByte, length - random) }
            offset += length
            page += 1
        }
    }

    /// Where page `page` of a block salted `salt` starts copying in the table.
    @inline(__always)
    func tableOffset(salt: UInt64, page: Int) -> Int {
        var mix = (seed ^ salt &* 0x9E37_79B9_7F4A_7C15) &+ UInt64(page) &* 0xBF58_476D_1CE4_E5B9
        mix ^= mix >> 29
        return Int(mix % UInt64(Self.tableBytes))
    }
}
