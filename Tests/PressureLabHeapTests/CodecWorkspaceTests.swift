#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import PressureLabHeap
import Testing

/// The codecs' per-thread workspace (a reused LZ4 table, reused Zstandard contexts) changes
/// how fast a page is compressed, never what it is compressed to.
@Suite("Codec workspace: the same bytes as the stateless entries")
struct CodecWorkspaceTests {
    /// Every compressed page, with the workspace and without, byte for byte: pages of a
    /// view's 256 B, odd sizes, 4 KiB and 16 KiB, contents from incompressible to runs,
    /// in a sequence long enough for LZ4's reused table to be cleared and reused many times.
    @Test("compressing with the workspace gives the stateless entries' bytes, page after page",
          arguments: PageCodec.allCases)
    func sameBytes(codec: PageCodec) throws {
        let workspace = try #require(CodecWorkspace.current)
        let sizes = [256, 300, 1, 17, 4096, 5000, 16_384, 200]
        let ratios: [Double] = [1.0, 1.5, 2.5, 3.0, 4.0]
        let source = UnsafeMutableRawBufferPointer.allocate(byteCount: 16_384, alignment: 16)
        let stateless = UnsafeMutableRawBufferPointer.allocate(byteCount: codec.bound(16_384), alignment: 16)
        let reused = UnsafeMutableRawBufferPointer.allocate(byteCount: codec.bound(16_384), alignment: 16)
        let restored = UnsafeMutableRawBufferPointer.allocate(byteCount: 16_384, alignment: 16)
        defer { source.deallocate(); stateless.deallocate(); reused.deallocate(); restored.deallocate() }
        var pages = 0
        for round in 0..<(codec == .lz4 ? 400 : 40) {
            let size = sizes[round % sizes.count]
            let ratio = ratios[round % ratios.count]
            let input = UnsafeMutableRawBufferPointer(rebasing: source[0..<size])
            ContentFill(ratio: ratio, pageBytes: 4096, seed: UInt64(round)).fill(input, salt: UInt64(round * 7))
            let a = try #require(codec.compress(UnsafeRawBufferPointer(input), into: stateless, workspace: nil))
            let b = try #require(codec.compress(UnsafeRawBufferPointer(input), into: reused, workspace: workspace))
            #expect(a == b, "\(codec), \(size) B at \(ratio): \(a) against \(b) bytes")
            #expect(memcmp(stateless.baseAddress!, reused.baseAddress!, min(a, b)) == 0, "\(codec), \(size) B at \(ratio)")
            let output = UnsafeMutableRawBufferPointer(rebasing: restored[0..<size])
            #expect(codec.decompress(UnsafeRawBufferPointer(rebasing: reused[0..<b]), into: output, workspace: workspace))
            #expect(memcmp(output.baseAddress!, input.baseAddress!, size) == 0)
            pages += 1
        }
        #expect(pages > 0)
    }

    @Test("the scratch buffer serves blocks up to its limit and refuses larger ones")
    func scratchLimit() throws {
        let workspace = try #require(CodecWorkspace.current)
        let small = try #require(workspace.scratch(300))
        #expect(workspace.scratch(200) == small)
        #expect(workspace.scratch(CodecWorkspace.scratchLimit) != nil)
        #expect(workspace.scratch(CodecWorkspace.scratchLimit + 1) == nil)
    }
}
