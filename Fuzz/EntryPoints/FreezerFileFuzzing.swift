import Foundation
import PressureLab
import PressureLabHarness
import PressureLabHeap
import PressureLabImport
import PressureLabSweep

/// A byte entry point for fuzzing the reader of the freezer's compressed files (packed
/// pages, see ``CompressingPageStore``): the bytes are written to a file and thawed as a run
/// thaws one, block after block, with each codec. A file the reader refuses is a correct
/// answer; a crash, a hang or a runaway allocation is a bug.
public enum FreezerFileFuzzing {
    /// The blocks a fuzzed file is read back as, in order, again and again: views, a block
    /// between two pages, one exactly at the large-block size, one in pieces.
    static let blockSizes = [256, 256, 5000, 16 << 10, 256, 70_000]

    /// At most this many bytes are read back from one file (the blocks above, repeated).
    static let readLimit = 1 << 20

    /// The codecs and page sizes a file is read with (the iOS and Android profiles' pages).
    static let formats: [(PageCodec, Int)] = [(.lz4, 4096), (.zstd, 16_384)]

    /// Thaws `bytes` as a compressed freezer file with each codec and page size.
    ///
    /// - Returns: Whether any reading took at least one whole block.
    @discardableResult
    public static func compressedFile(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let path = NSTemporaryDirectory() + "/pressurelab-fuzz-\(UUID().uuidString).frozen"
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return false }
        var accepted = false
        for (codec, pageBytes) in formats where blocksRead(path: path, codec: codec, pageBytes: pageBytes) > 0 {
            accepted = true
        }
        return accepted
    }

    /// The blocks read from the file at `path` before the first refused one.
    private static func blocksRead(path: String, codec: PageCodec, pageBytes: Int) -> Int {
        guard let file = try? FreezerFile(path: path, mode: .read) else { return 0 }
        defer { file.close() }
        let store = CompressingPageStore(file: file, codec: codec, pageBytes: pageBytes)
        var read = 0, total = 0
        while total < readLimit {
            let size = blockSizes[read % blockSizes.count]
            guard let memory = RawMemory.allocate(size) else { return read }
            defer { memory.release() }
            guard store.read(into: memory, count: size) else { return read }
            read += 1
            total += size
        }
        return read
    }

    /// A valid compressed freezer file of the blocks above (realistic contents), grouped as
    /// a controller's owners write them, for the fuzzer's seed corpus. Nil when it could not
    /// be written.
    public static func sampleFile(codec: PageCodec, pageBytes: Int, blocks: Int, seed: UInt64) -> Data? {
        // One name a format and seed: tests write the two formats' samples at once, in one process.
        let path = NSTemporaryDirectory()
            + "/pressurelab-seed-\(ProcessInfo.processInfo.processIdentifier)-\(codec)-\(pageBytes)-\(seed).frozen"
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard let file = try? FreezerFile(path: path, mode: .write) else { return nil }
        let store = CompressingPageStore(file: file, codec: codec, pageBytes: pageBytes)
        let fill = ContentFill(ratio: 2.5, pageBytes: pageBytes, seed: seed)
        var ok = true
        for index in 0..<blocks where ok {
            let size = blockSizes[index % blockSizes.count]
            guard let memory = RawMemory.allocate(size, filledBy: fill, pattern: 0, salt: UInt64(index)) else { return nil }
            ok = store.write(memory, count: size) && (index % 3 != 2 || store.endGroup())
            memory.release()
        }
        ok = ok && store.endGroup()
        file.close()
        return ok ? FileManager.default.contents(atPath: path) : nil
    }
}
