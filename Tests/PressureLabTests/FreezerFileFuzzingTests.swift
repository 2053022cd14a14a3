import Foundation
@testable import PressureLab
import PressureLabFuzzEntryPoints
import PressureLabHeap
import Testing

/// The fuzzing entry point of the compressed freezer file reads what the freezer writes,
/// and refuses a file whose first page does not add up.
@Suite("Freezer file fuzzing: valid files are read, broken ones refused")
struct FreezerFileFuzzingTests {
    @Test("a file the freezer writes is read back; its first page's header zeroed, it is refused",
          arguments: [(PageCodec.lz4, 4096), (.zstd, 16_384)])
    func readsWhatTheFreezerWrites(codec: PageCodec, pageBytes: Int) throws {
        var file = try #require(FreezerFileFuzzing.sampleFile(codec: codec, pageBytes: pageBytes, blocks: 5, seed: 3))
        // Five blocks of 256 + 256 + 5,000 + 16,384 + 256 bytes: at least one page each group.
        #expect(file.count > PackedPage.headerBytes * 2)
        #expect(file.withUnsafeBytes { FreezerFileFuzzing.compressedFile($0) })
        file.replaceSubrange(0..<4, with: [0, 0, 0, 0])
        #expect(!file.withUnsafeBytes { FreezerFileFuzzing.compressedFile($0) })
        #expect(![UInt8]().withUnsafeBytes { FreezerFileFuzzing.compressedFile($0) })
    }
}
