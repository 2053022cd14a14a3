@testable import PressureLabHeap
import Testing

/// Compressed pages held in segments (``CompressedPageChain``).
@Suite("Compressed page chain: pages packed into segments, each freed with its last page")
struct CompressedPageChainTests {
    @Test("pages fill 64 KiB segments; a group's last segment takes what its pages take; reading frees each segment with its last page")
    func segments() throws {
        // 100 encoded pages of 1,000 bytes (header 8 + 992 stored): 65 fit a segment's 65,520 bytes.
        let encoded = UnsafeMutableRawBufferPointer.allocate(byteCount: 1000, alignment: 8)
        defer { encoded.deallocate() }
        var chain = CompressedPageChain()
        var appended = 0
        for index in 0..<100 {
            encoded.initializeMemory(as: UInt8.self, repeating: UInt8(index))
            PackedPage(originalCount: 4096, storedCount: 992, isRaw: false).storeHeader(at: encoded.baseAddress!)
            if chain.append(UnsafeRawBufferPointer(encoded)) { appended += 1 }
        }
        let sealed = chain.seal()
        #expect(appended == 100 && sealed)
        let perSegment = (CompressedPageChain.segmentBytes - CompressedPageChain.segmentHeaderBytes) / 1000
        #expect(perSegment == 65)
        let segmentCount = chain.segmentCount, written = chain.segmentsWritten, stored = chain.storedBytes
        #expect(segmentCount == 2 && written == 2)
        #expect(stored == 2 * CompressedPageChain.segmentHeaderBytes + 100 * 1000)
        var read = 0
        var countsAfterRead: [Int] = []
        while let page = chain.first {
            #expect(page.count == 1000 && page[PackedPage.headerBytes] == UInt8(read))
            chain.removeFirst()
            read += 1
            countsAfterRead.append(chain.segmentCount)
        }
        #expect(read == 100)
        // The first segment goes with its 65th page, the second with the 100th.
        #expect(countsAfterRead[63] == 2 && countsAfterRead[64] == 1 && countsAfterRead[98] == 1 && countsAfterRead[99] == 0)
    }
}

/// The largest page a profile allows (64 KiB), stored as it was, is larger than a segment.
@Suite("Compressed page chain: a page larger than a segment")
struct CompressedPageChainLargePageTests {
    @Test("a 64 KiB page that does not compress gets a segment of its own, of its size, between full-size ones")
    func pageLargerThanASegment() throws {
        let raw = (64 << 10) + PackedPage.headerBytes
        let large = UnsafeMutableRawBufferPointer.allocate(byteCount: raw, alignment: 8)
        let small = UnsafeMutableRawBufferPointer.allocate(byteCount: 1000, alignment: 8)
        defer { large.deallocate(); small.deallocate() }
        large.initializeMemory(as: UInt8.self, repeating: 7)
        small.initializeMemory(as: UInt8.self, repeating: 9)
        PackedPage(originalCount: 64 << 10, storedCount: 64 << 10, isRaw: true).storeHeader(at: large.baseAddress!)
        PackedPage(originalCount: 4096, storedCount: 992, isRaw: false).storeHeader(at: small.baseAddress!)
        var chain = CompressedPageChain()
        let added = [small, large, small].map { chain.append(UnsafeRawBufferPointer($0)) }
        let sealed = chain.seal()
        #expect(added == [true, true, true] && sealed)
        let segments = chain.segmentsWritten, stored = chain.storedBytes
        #expect(segments == 3)
        #expect(stored == 3 * CompressedPageChain.segmentHeaderBytes + 2 * 1000 + raw)
        var sizes: [Int] = []
        while let page = chain.first {
            sizes.append(page.count)
            chain.removeFirst()
        }
        #expect(sizes == [1000, raw, 1000])
        let left = chain.segmentCount
        #expect(left == 0)
    }
}
