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
