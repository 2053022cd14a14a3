/// One page of a packed stream (``PageStreamWriter``), as it is kept in the in-RAM pool and
/// written to a freezer file: an 8-byte header, then the page's stored bytes.
///
/// The header is two little-endian `UInt32`s: the page's bytes before compression (at most
/// the stream's page size), and the bytes stored for it, with the top bit set when the page
/// is stored as it was because it does not compress (zram's "huge" pages).
package struct PackedPage: Equatable {
    /// Bytes of the header before the stored bytes.
    package static let headerBytes = 8

    private static let rawFlag: UInt32 = 1 << 31

    /// Bytes before compression.
    package var originalCount: Int
    /// Bytes stored after the header.
    package var storedCount: Int
    /// Whether the stored bytes are the page as it was (not compressed).
    package var isRaw: Bool

    package init(originalCount: Int, storedCount: Int, isRaw: Bool) {
        self.originalCount = originalCount
        self.storedCount = storedCount
        self.isRaw = isRaw
    }

    /// Reads the header at the start of `encoded` (at least ``headerBytes``).
    package init(header encoded: UnsafeRawBufferPointer) {
        let original = UInt32(littleEndian: encoded.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
        let stored = UInt32(littleEndian: encoded.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        originalCount = Int(original)
        storedCount = Int(stored & ~Self.rawFlag)
        isRaw = stored & Self.rawFlag != 0
    }

    /// Writes the header at `address`.
    package func storeHeader(at address: UnsafeMutableRawPointer) {
        address.storeBytes(of: UInt32(originalCount).littleEndian, toByteOffset: 0, as: UInt32.self)
        let stored = UInt32(storedCount) | (isRaw ? Self.rawFlag : 0)
        address.storeBytes(of: stored.littleEndian, toByteOffset: 4, as: UInt32.self)
    }

    /// Whether a header read back can be a page of a stream of `pageBytes` pages: a corrupt
    /// one must fail, not trap or ask for a huge buffer.
    package func isPlausible(pageBytes: Int) -> Bool {
        guard originalCount > 0, originalCount <= pageBytes else { return false }
        return isRaw ? storedCount == originalCount : storedCount > 0 && storedCount < originalCount
    }

    /// The most bytes one encoded page (header and stored bytes) of `pageBytes` can take.
    package static func maxEncodedBytes(pageBytes: Int, codec: PageCodec) -> Int {
        headerBytes + max(codec.bound(pageBytes), pageBytes)
    }
}
