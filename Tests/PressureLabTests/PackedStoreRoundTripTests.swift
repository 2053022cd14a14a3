import Foundation
@testable import PressureLab
import PressureLabHeap
import Testing

/// Random regions through the in-RAM pool's packed pages, moved to a compressing freezer
/// file as they are, mixed with groups the file compresses itself, and read back: every
/// block comes back byte-identical, and everything written is read.
@Suite("Packed stores: random groups through the pool, relocation and the freezer's file")
struct PackedStoreRoundTripTests {
    /// Block sizes around the boundaries that matter: empty-adjacent, a view, a page, the
    /// large-block threshold (16 KiB) and blocks in pieces.
    static let sizes = [1, 17, 255, 256, 1000, 4095, 4096, 4097, 5000, 16_383, 16_384, 16_385, 70 << 10, 300_000]

    /// Groups of blocks, each block filled with seeded contents (a mix of compressible and
    /// incompressible ratios).
    static func groups(seed: UInt64) throws -> [[(RawMemory, Int)]] {
        var random = SeededGenerator(seed: seed)
        let fills = [ContentFill(ratio: 3, pageBytes: 4096, seed: seed), ContentFill(ratio: 1, pageBytes: 4096, seed: seed)]
        return try (0..<Int.random(in: 2...6, using: &random)).map { _ in
            try (0..<Int.random(in: 1...12, using: &random)).map { _ in
                let size = sizes.randomElement(using: &random)!
                let fill = fills.randomElement(using: &random)!
                let memory = try #require(RawMemory.allocate(size, filledBy: fill, pattern: 0, salt: random.next()))
                return (memory, size)
            }
        }
    }

    @Test("pool pages moved to the file, then file-compressed groups, read back in order", arguments: [
        (PageCodec.lz4, 4096, UInt64(1)), (.lz4, 16_384, 2), (.zstd, 4096, 3), (.zstd, 16_384, 4), (.lz4, 4096, 5), (.lz4, 16_384, 6),
        (.lz4, 65_536, 7), (.zstd, 65_536, 8), (.lz4, 512, 9),
    ])
    func roundTrip(codec: PageCodec, pageBytes: Int, seed: UInt64) throws {
        let pooled = try Self.groups(seed: seed)
        let direct = try Self.groups(seed: seed &+ 100)
        defer { (pooled + direct).joined().forEach { $0.0.release() } }
        let sums = (pooled + direct).map { $0.map { $0.0.checksum(count: $0.1) } }

        let pool = CompressedMemoryStore(codec: codec, pageBytes: pageBytes)
        for group in pooled {
            for (memory, size) in group { #expect(pool.write(memory, count: size)) }
            #expect(pool.endGroup())
        }
        #expect(pool.originalBytes == pooled.joined().reduce(0) { $0 + $1.1 })

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("packed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("app.frozen").path
        let writing = try FreezerFile(path: path, mode: .write)
        let file = CompressingPageStore(file: writing, codec: codec, pageBytes: pageBytes)
        for group in pooled {
            for (_, size) in group { #expect(pool.moveBlock(count: size, to: file)) }
        }
        #expect(pool.segmentsHeld == 0)
        // The file took the pool's pages as they were: its bytes without the segments' headers.
        #expect(writing.bytesTransferred == pool.storedBytes - pool.segmentsWritten * CompressedPageChain.segmentHeaderBytes)
        for group in direct {
            for (memory, size) in group { #expect(file.write(memory, count: size)) }
            #expect(file.endGroup())
        }
        #expect(file.relocatedBytes == pool.originalBytes)
        writing.close()

        let reading = try FreezerFile(path: path, mode: .read)
        let back = CompressingPageStore(file: reading, codec: codec, pageBytes: pageBytes)
        var readSums: [[UInt64]] = []
        for group in pooled + direct {
            var groupSums: [UInt64] = []
            for (_, size) in group {
                let copy = try #require(RawMemory.allocate(size))
                #expect(back.read(into: copy, count: size))
                groupSums.append(copy.checksum(count: size))
                copy.release()
            }
            readSums.append(groupSums)
        }
        #expect(readSums == sums)
        // Nothing is left in the file: one more byte is not there.
        let extra = try #require(RawMemory.allocate(1))
        #expect(!back.read(into: extra, count: 1))
        extra.release()
        reading.close()
    }

    @Test("the pool reads its own groups back, and frees every segment with the last page read", arguments: [UInt64(7), 8, 9])
    func poolRoundTrip(seed: UInt64) throws {
        let groups = try Self.groups(seed: seed)
        defer { groups.joined().forEach { $0.0.release() } }
        let pool = CompressedMemoryStore(codec: .lz4, pageBytes: 4096)
        for group in groups {
            for (memory, size) in group { #expect(pool.write(memory, count: size)) }
            #expect(pool.endGroup())
        }
        #expect(pool.segmentsHeld == pool.segmentsWritten && pool.segmentsWritten >= groups.count)
        for group in groups {
            for (memory, size) in group {
                let copy = try #require(RawMemory.allocate(size))
                #expect(pool.read(into: copy, count: size))
                #expect(copy.checksum(count: size) == memory.checksum(count: size))
                copy.release()
            }
        }
        #expect(pool.segmentsHeld == 0)
    }
}
