#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import PressureLabHeap
import Testing

/// Blocks packed into shared pages (``PageStreamWriter``) and read back (``PageStreamReader``).
@Suite("Page stream: small blocks share compressed pages, and come back byte-identical")
struct PageStreamTests {
    /// A block of `count` realistic bytes (ratio 2.5), seeded by `salt`.
    static func block(_ count: Int, salt: UInt64) throws -> RawMemory {
        let memory = try #require(RawMemory.allocate(count))
        let fill = ContentFill(ratio: 2.5, pageBytes: 4096, seed: 9)
        for piece in memory.pieces(count: count) { fill.fill(piece, salt: salt) }
        return memory
    }

    /// Encoded pages kept in order, as a store keeps them.
    final class Pages {
        var encoded: [UnsafeMutableRawBufferPointer] = []
        var failAt: Int?
        func keep(_ page: UnsafeRawBufferPointer) -> Bool {
            if let failAt, encoded.count == failAt { return false }
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: page.count, alignment: 8)
            copy.copyMemory(from: page)
            encoded.append(copy)
            return true
        }
        var headers: [PackedPage] { encoded.map { PackedPage(header: UnsafeRawBufferPointer($0)) } }
        deinit { encoded.forEach { $0.deallocate() } }
    }

    /// Reads `sizes` back from `pages` in order, comparing each block with `originals`.
    static func readBack(_ pages: Pages, codec: PageCodec, pageBytes: Int, sizes: [Int],
                         originals: [RawMemory], reader: inout PageStreamReader) throws -> Int {
        var index = 0
        var next = 0
        var released = 0
        for (size, original) in zip(sizes, originals) {
            let copy = try #require(RawMemory.allocate(size))
            defer { copy.release() }
            let ok = reader.read(into: copy, count: size, next: {
                guard next < pages.encoded.count else { return nil }
                defer { next += 1 }
                return UnsafeRawBufferPointer(pages.encoded[next])
            }, done: { released += 1 })
            #expect(ok, "block \(index) of \(size) B")
            #expect(copy.checksum(count: size) == original.checksum(count: size), "block \(index) of \(size) B")
            index += 1
        }
        #expect(released == next)
        return next
    }

    @Test("small blocks of a group fill whole pages; only the group's last page is short",
          arguments: [PageCodec.lz4, .zstd], [4096, 16_384])
    func packsWholePages(codec: PageCodec, pageBytes: Int) throws {
        // 45 views of 256 B, a block of 5,000 B and one of 16 KiB less a byte (small: packed), 3 more views.
        let sizes = Array(repeating: 256, count: 45) + [5000, (16 << 10) - 1] + [256, 256, 256]
        let originals = try sizes.enumerated().map { try Self.block($1, salt: UInt64($0)) }
        defer { originals.forEach { $0.release() } }
        var writer = PageStreamWriter(codec: codec, pageBytes: pageBytes)
        let pages = Pages()
        var appended = 0
        for (size, memory) in zip(sizes, originals) where writer.append(memory, count: size, emit: pages.keep) { appended += 1 }
        let finished = writer.finish(emit: pages.keep)
        #expect(appended == sizes.count && finished)
        let total = sizes.reduce(0, +)
        let expected = (total + pageBytes - 1) / pageBytes
        #expect(pages.headers.count == expected)
        #expect(pages.headers.dropLast().allSatisfy { $0.originalCount == pageBytes })
        #expect(pages.headers.last?.originalCount == total - (expected - 1) * pageBytes)
        // Realistic contents at 2.5:1 compress: no page is stored raw.
        #expect(pages.headers.allSatisfy { !$0.isRaw && $0.storedCount < $0.originalCount })
        #expect(zip(pages.headers, pages.encoded).allSatisfy { $0.storedCount + PackedPage.headerBytes == $1.count })
        var reader = PageStreamReader(codec: codec, pageBytes: pageBytes)
        #expect(try Self.readBack(pages, codec: codec, pageBytes: pageBytes, sizes: sizes, originals: originals, reader: &reader) == expected)
        let unread = reader.unreadBytes
        #expect(unread == 0)
    }

    @Test("a large block starts pages of its own, page by page in each of its pieces, as jemalloc gives it whole pages",
          arguments: [16 << 10, 70 << 10, 1 << 20])
    func largeBlockOwnsItsPages(large: Int) throws {
        let sizes = [256, 1000, large, 256]
        let originals = try sizes.enumerated().map { try Self.block($1, salt: UInt64($0)) }
        defer { originals.forEach { $0.release() } }
        var writer = PageStreamWriter(codec: .lz4, pageBytes: 4096)
        let pages = Pages()
        var appended = 0
        for (size, memory) in zip(sizes, originals) where writer.append(memory, count: size, emit: pages.keep) { appended += 1 }
        let finished = writer.finish(emit: pages.keep)
        #expect(appended == sizes.count && finished)
        let pieceLengths = originals[2].pieces(count: large).flatMap { piece in
            stride(from: 0, to: piece.count, by: 4096).map { min(4096, piece.count - $0) }
        }
        #expect(pages.headers.map(\.originalCount) == [1256] + pieceLengths + [256])
        var reader = PageStreamReader(codec: .lz4, pageBytes: 4096)
        _ = try Self.readBack(pages, codec: .lz4, pageBytes: 4096, sizes: sizes, originals: originals, reader: &reader)
    }

    @Test("two groups never share a page, and each reads back to its end")
    func groupsEndTheirPages() throws {
        let first = [256, 256, 256], second = [1000, 256]
        let originals = try (first + second).enumerated().map { try Self.block($1, salt: UInt64($0)) }
        defer { originals.forEach { $0.release() } }
        var writer = PageStreamWriter(codec: .lz4, pageBytes: 4096)
        let pages = Pages()
        var ok = true
        for index in 0..<3 { ok = ok && writer.append(originals[index], count: 256, emit: pages.keep) }
        ok = ok && writer.finish(emit: pages.keep)
        for index in 3..<5 { ok = ok && writer.append(originals[index], count: (first + second)[index], emit: pages.keep) }
        ok = ok && writer.finish(emit: pages.keep)
        #expect(ok)
        #expect(pages.headers.map(\.originalCount) == [768, 1256])
        var reader = PageStreamReader(codec: .lz4, pageBytes: 4096)
        _ = try Self.readBack(pages, codec: .lz4, pageBytes: 4096, sizes: first + second, originals: originals, reader: &reader)
    }

    @Test("incompressible bytes are stored as they were, flagged raw")
    func rawPages() throws {
        let memory = try #require(RawMemory.allocate(6000))
        defer { memory.release() }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for piece in memory.pieces(count: 6000) {
            for index in 0..<piece.count {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                piece[index] = UInt8(truncatingIfNeeded: state >> 56)
            }
        }
        var writer = PageStreamWriter(codec: .lz4, pageBytes: 4096)
        let pages = Pages()
        let written = writer.append(memory, count: 6000, emit: pages.keep) && writer.finish(emit: pages.keep)
        #expect(written)
        #expect(pages.headers == [PackedPage(originalCount: 4096, storedCount: 4096, isRaw: true),
                                  PackedPage(originalCount: 1904, storedCount: 1904, isRaw: true)])
        var reader = PageStreamReader(codec: .lz4, pageBytes: 4096)
        _ = try Self.readBack(pages, codec: .lz4, pageBytes: 4096, sizes: [6000], originals: [memory], reader: &reader)
    }

    @Test("a page that cannot be kept fails the write; what was written before it comes back from the staging page")
    func failedPageKeepsStagedBytes() throws {
        // 20 views of 256 B fill one 4 KiB page and a quarter; the first page fails to keep.
        let sizes = Array(repeating: 256, count: 20)
        let originals = try sizes.enumerated().map { try Self.block($1, salt: UInt64($0)) }
        defer { originals.forEach { $0.release() } }
        var writer = PageStreamWriter(codec: .lz4, pageBytes: 4096)
        let pages = Pages()
        pages.failAt = 0
        var written = 0
        for (size, memory) in zip(sizes, originals) {
            guard writer.append(memory, count: size, emit: pages.keep) else { break }
            written += 1
        }
        // The 17th view finds the full page and cannot keep it: 16 views were taken.
        #expect(written == 16 && pages.encoded.isEmpty)
        var reader = PageStreamReader(codec: .lz4, pageBytes: 4096)
        reader.adoptStaged(writer.takeStaged())
        let stagedAfter = writer.stagedBytes
        #expect(stagedAfter == 0)
        _ = try Self.readBack(pages, codec: .lz4, pageBytes: 4096, sizes: Array(sizes[0..<16]),
                              originals: Array(originals[0..<16]), reader: &reader)
    }

    @Test("a page whose header does not add up fails the read, without a trap", arguments: [0, 4097, 1 << 31])
    func corruptHeader(original: Int) throws {
        let memory = try Self.block(1000, salt: 1)
        defer { memory.release() }
        var writer = PageStreamWriter(codec: .lz4, pageBytes: 4096)
        let pages = Pages()
        let written = writer.append(memory, count: 1000, emit: pages.keep) && writer.finish(emit: pages.keep)
        #expect(written)
        pages.encoded[0].storeBytes(of: UInt32(truncatingIfNeeded: original).littleEndian, toByteOffset: 0, as: UInt32.self)
        var reader = PageStreamReader(codec: .lz4, pageBytes: 4096)
        let copy = try #require(RawMemory.allocate(1000))
        defer { copy.release() }
        var served = false
        let ok = reader.read(into: copy, count: 1000, next: {
            guard !served else { return nil }
            served = true
            return UnsafeRawBufferPointer(pages.encoded[0])
        })
        #expect(!ok)
    }
}
