#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PressureLabHeap
import Testing

/// Realistic contents measured by the real compressors, and round trips through them.
@Suite("Compression: declared ratios measured, round trips byte-identical")
struct CompressionTests {
    /// The ratios of the bundled profiles' `content:` (view 3.0, backing 2.5, cache 1.5 or
    /// 2.0, model 2.5 or 3.0, user data 1.5 or 2.0, app data 2.0 or 2.6) and the extremes.
    static let ratios: [Double] = [1.0, 1.5, 2.0, 2.5, 2.6, 3.0, 4.0]

    @Test("a fill declared r compresses to r within 10%, with LZ4 and Zstandard, on 4 KiB and 16 KiB pages",
          arguments: PageCodec.allCases, [4096, 16384])
    func measuredRatio(codec: PageCodec, page: Int) throws {
        let bytes = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes, alignment: 16)
        defer { buffer.deallocate() }
        for ratio in Self.ratios {
            let fill = ContentFill(ratio: ratio, pageBytes: page, seed: 42)
            fill.fill(buffer, salt: 7)
            let compressed = try #require(CompressedPages(compressing: UnsafeRawBufferPointer(buffer), pageBytes: page, codec: codec))
            let measured = compressed.ratio
            print("ratio \(codec) page \(page): declared \(ratio) measured \(String(format: "%.3f", measured))")
            #expect(abs(measured - ratio) / ratio <= 0.10, "\(codec) page \(page): declared \(ratio), measured \(measured)")
        }
    }

    @Test("decompressed memory is byte-identical to what was compressed; corrupt data is refused, not a crash",
          arguments: PageCodec.allCases)
    func roundTrip(codec: PageCodec) throws {
        let bytes = 300_000  // not a whole number of pages
        let original = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes, alignment: 16)
        let restored = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes, alignment: 16)
        defer { original.deallocate(); restored.deallocate() }
        ContentFill(ratio: 2.5, pageBytes: 4096, seed: 1).fill(original, salt: 3)
        let compressed = try #require(CompressedPages(compressing: UnsafeRawBufferPointer(original), pageBytes: 4096, codec: codec))
        #expect(compressed.decompress(into: restored))
        #expect(memcmp(original.baseAddress!, restored.baseAddress!, bytes) == 0)
        // Incompressible pages are stored as they are and come back the same.
        ContentFill(ratio: 1.0, pageBytes: 4096, seed: 1).fill(original, salt: 3)
        let raw = try #require(CompressedPages(compressing: UnsafeRawBufferPointer(original), pageBytes: 4096, codec: codec))
        #expect(raw.storedCount >= bytes)
        #expect(raw.decompress(into: restored))
        #expect(memcmp(original.baseAddress!, restored.baseAddress!, bytes) == 0)
        // A buffer of the wrong size is refused.
        let short = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes - 1, alignment: 16)
        defer { short.deallocate() }
        #expect(!compressed.decompress(into: short))
    }

    @Test("the same seed and salt give the same bytes; another salt other bytes")
    func seeded() {
        let a = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
        let b = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
        defer { a.deallocate(); b.deallocate() }
        let fill = ContentFill(ratio: 2.0, pageBytes: 4096, seed: 9)
        fill.fill(a, salt: 1)
        ContentFill(ratio: 2.0, pageBytes: 4096, seed: 9).fill(b, salt: 1)
        #expect(memcmp(a.baseAddress!, b.baseAddress!, 65_536) == 0)
        fill.fill(b, salt: 2)
        #expect(memcmp(a.baseAddress!, b.baseAddress!, 65_536) != 0)
    }

    @Test("a fill large enough to stream writes the same bytes as one filled a page at a time",
          arguments: [2.5, 1.0, 4.0])
    func streamedFillMatchesPageByPage(ratio: Double) {
        // Past the threshold, plus part of a page (written the ordinary way).
        let bytes = ContentFill.streamingThresholdBytes + 4096 * 3 + 100
        let streamed = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes, alignment: 64)
        let paged = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes, alignment: 64)
        defer { streamed.deallocate(); paged.deallocate() }
        let fill = ContentFill(ratio: ratio, pageBytes: 4096, seed: 5)
        fill.fill(streamed, salt: 7)
        // Chunks below the threshold never stream: the page-by-page reference.
        let chunk = 1 << 20
        var offset = 0
        while offset < bytes {
            let length = min(chunk, bytes - offset)
            fill.fill(UnsafeMutableRawBufferPointer(rebasing: paged[offset..<(offset + length)]), salt: 7, firstPage: offset / 4096)
            offset += length
        }
        #expect(memcmp(streamed.baseAddress!, paged.baseAddress!, bytes) == 0)
    }
}
