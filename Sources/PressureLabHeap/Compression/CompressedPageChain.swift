#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The compressed pages of one region of the in-RAM pool, in the order they were written,
/// packed into segments as XNU's compressor packs compressed pages into its segments
/// (`c_segment`, `osfmk/vm/vm_compressor.c`) and zsmalloc packs zram's into its pages: a
/// segment is one real allocation (measured by jemalloc like any other, in the scope it is
/// made in) holding a link to the next segment, the bytes of pages it holds, then the pages
/// encoded one after another (``PackedPage`` header, stored bytes).
///
/// Pages are gathered in an open segment outside the measured heap (``PageBuffers``) until
/// it is full (``segmentBytes``) or its group ends (``seal()``); only then is the segment
/// allocated, at the size its pages take, so jemalloc rounds once a segment, not once a
/// page. A segment never holds two groups' pages: each is allocated and freed in the scope
/// of the owner whose pages it holds.
package struct CompressedPageChain: ~Copyable {
    /// Bytes of a segment's allocation before its pages: the link to the next, then the
    /// bytes its pages take.
    package static let segmentHeaderBytes = 16
    /// The most bytes a segment's allocation takes: 64 KiB, XNU's segment buffer where apps
    /// swap (`C_SEG_BUFSIZE_ARM_SWAP`; 256 KiB otherwise, `C_SEG_BUFSIZE_DEFAULT`, both
    /// `osfmk/vm/vm_compressor.c`). XNU's segments hold many processes' pages; here one
    /// group's, most of which take less than 64 KiB compressed (a choice, not a measured size).
    package static let segmentBytes = 64 << 10

    private var head: UnsafeMutableRawPointer?
    private var tail: UnsafeMutableRawPointer?
    /// Bytes of the first segment's pages already read.
    private var readOffset = 0
    /// The open segment: pages written and not yet allocated (a buffer of ``PageBuffers``),
    /// and those of them read back (after a failed ``seal()``, they are read from here).
    private var open: UnsafeMutableRawPointer?
    private var openBufferBytes = 0
    private var openUsed = 0
    private var openReadOffset = 0
    /// Segments held now.
    package private(set) var segmentCount = 0
    /// Segments allocated, and the bytes asked for them, since the chain was made.
    package private(set) var segmentsWritten = 0
    package private(set) var storedBytes = 0

    package init() {}

    deinit {
        var segment = head
        while let current = segment {
            segment = current.load(as: UnsafeMutableRawPointer?.self)
            free(current)
        }
        if let open { PageBuffers.give(open, bytes: openBufferBytes) }
    }

    /// Adds one encoded page at the end; false when the open segment was full and could not
    /// be allocated (the host has no memory): the page is not added, what was added before
    /// stays readable. A page larger than a segment (a 64 KiB page stored as it was) gets a
    /// segment of its own, of its size.
    package mutating func append(_ encoded: UnsafeRawBufferPointer) -> Bool {
        let capacity = Self.segmentBytes - Self.segmentHeaderBytes
        if open != nil, openUsed > 0, openUsed + encoded.count > capacity {
            guard seal() else { return false }
        }
        if let empty = open, openUsed == 0, openBufferBytes < encoded.count {
            PageBuffers.give(empty, bytes: openBufferBytes)
            open = nil
        }
        if open == nil {
            var bytes = max(capacity, encoded.count)
            guard let buffer = PageBuffers.take(&bytes) else { return false }
            open = buffer
            openBufferBytes = bytes
            openUsed = 0
            openReadOffset = 0
        }
        guard let open, let base = encoded.baseAddress else { return encoded.isEmpty }
        memcpy(open + openUsed, base, encoded.count)
        openUsed += encoded.count
        return true
    }

    /// Allocates the open segment at the size its pages take, and links it at the end (the
    /// end of a group, or a full segment); false when the host has no memory (its pages stay
    /// readable from the open segment).
    package mutating func seal() -> Bool {
        guard let open, openUsed > 0 else { return true }
        let bytes = Self.segmentHeaderBytes + openUsed
        guard let segment = malloc(bytes) else { return false }
        segment.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
        segment.storeBytes(of: UInt64(openUsed), toByteOffset: 8, as: UInt64.self)
        memcpy(segment + Self.segmentHeaderBytes, open, openUsed)
        if let tail { tail.storeBytes(of: segment, as: UnsafeMutableRawPointer?.self) } else { head = segment }
        tail = segment
        segmentCount += 1
        segmentsWritten += 1
        storedBytes += bytes
        PageBuffers.give(open, bytes: openBufferBytes)
        self.open = nil
        openUsed = 0
        return true
    }

    /// The first page not yet read, encoded; nil when none is left.
    package var first: UnsafeRawBufferPointer? {
        if let head { return Self.page(at: head + Self.segmentHeaderBytes + readOffset) }
        if let open, openReadOffset < openUsed { return Self.page(at: open + openReadOffset) }
        return nil
    }

    /// Marks the first page read; a segment whose last page is read is freed.
    package mutating func removeFirst() {
        guard let page = first else { return }
        if let segment = head {
            readOffset += page.count
            guard readOffset >= Self.usedBytes(of: segment) else { return }
            head = segment.load(as: UnsafeMutableRawPointer?.self)
            if head == nil { tail = nil }
            segmentCount -= 1
            readOffset = 0
            free(segment)
        } else {
            openReadOffset += page.count
        }
    }

    /// Frees every segment, read or not.
    package mutating func removeAll() {
        while let segment = head {
            head = segment.load(as: UnsafeMutableRawPointer?.self)
            free(segment)
        }
        tail = nil
        segmentCount = 0
        readOffset = 0
        if let open { PageBuffers.give(open, bytes: openBufferBytes) }
        open = nil
        openUsed = 0
        openReadOffset = 0
    }

    private static func usedBytes(of segment: UnsafeMutableRawPointer) -> Int {
        Int(segment.load(fromByteOffset: 8, as: UInt64.self))
    }

    /// The encoded page at `address` (its header says how long it is).
    private static func page(at address: UnsafeMutableRawPointer) -> UnsafeRawBufferPointer {
        let header = PackedPage(header: UnsafeRawBufferPointer(start: address, count: PackedPage.headerBytes))
        return UnsafeRawBufferPointer(start: address, count: PackedPage.headerBytes + header.storedCount)
    }

    /// Corrupts every sealed page (for tests of the page-in error path: memory corruption
    /// cannot be produced otherwise): stored bytes are flipped, and the first page's header
    /// no longer adds up.
    package mutating func corruptForTesting() {
        var segment = head
        var isFirst = true
        while let current = segment {
            var offset = 0
            let used = Self.usedBytes(of: current)
            while offset < used {
                let start = current + Self.segmentHeaderBytes + offset
                let header = PackedPage(header: UnsafeRawBufferPointer(start: start, count: PackedPage.headerBytes))
                let body = start + PackedPage.headerBytes
                for index in stride(from: 0, to: header.storedCount, by: 61) {
                    body.storeBytes(of: body.load(fromByteOffset: index, as: UInt8.self) ^ 0xA5, toByteOffset: index, as: UInt8.self)
                }
                if isFirst {
                    PackedPage(originalCount: 0, storedCount: header.storedCount, isRaw: header.isRaw).storeHeader(at: start)
                    isFirst = false
                }
                offset += PackedPage.headerBytes + header.storedCount
            }
            segment = current.load(as: UnsafeMutableRawPointer?.self)
        }
    }
}
