import Foundation
import PressureLabHeap
import SystemPackage
import Testing

/// The freezer's and swap's file: the byte stream written is the file, exactly, whether the
/// file system took `O_DIRECT` or not, and it reads back the same in any split.
@Suite("Unbuffered files: direct I/O in aligned chunks, the stream unchanged")
struct UnbufferedFileTests {
    /// A fresh directory for one test, on the disk (`$TMPDIR`), where `O_DIRECT` applies.
    private func scratch() throws -> FilePath {
        let template = FilePath(NSTemporaryDirectory()).appending("pressurelab-unbuffered-test-XXXXXX")
        return try HostFiles.makeUniqueDirectory(template: template)
    }

    /// Seeded bytes, different at every offset.
    private func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed &+ 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    /// Writes a small piece, a piece across a chunk's end, a piece of several chunks, an odd
    /// tail: each size checks a path of the staging.
    static let writes = [1, 4095, 4097, 700_000, (1 << 20) + 12_345, 3 << 20, 52_428, 17]

    @Test("what is written, in pieces of every size, is the file exactly, and reads back in other pieces (direct and buffered)",
          arguments: [true, false])
    func roundTrip(direct: Bool) throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory.string) }
        let path = directory.appending("stream.frozen")
        let expected = bytes(Self.writes.reduce(0, +), seed: 7)
        let writer = try UnbufferedFile(path: path, mode: .write, direct: direct)
        var offset = 0
        for count in Self.writes {
            try expected[offset..<(offset + count)].withUnsafeBytes { try writer.write($0) }
            offset += count
        }
        try writer.sync()
        writer.close()
        #expect(writer.bytesTransferred == expected.count)
        #expect(try HostFiles.contents(of: path) == expected)

        let reader = try UnbufferedFile(path: path, mode: .read, direct: direct)
        #expect(reader.isDirect == writer.isDirect)
        if !direct { #expect(!writer.isDirect) }
        var read = [UInt8](repeating: 0, count: expected.count)
        var done = 0
        for count in Self.writes.reversed() {
            try read.withUnsafeMutableBytes { try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[done..<(done + count)])) }
            done += count
        }
        #expect(read == expected)
        #expect(reader.bytesTransferred == expected.count)
        var oneMore = [UInt8](repeating: 0, count: 1)
        #expect(throws: FileError.self) { try oneMore.withUnsafeMutableBytes { try reader.read(into: $0) } }
    }

    @Test("writing on after finish rewrites the padded tail: the file is still the stream", arguments: [true, false])
    func writeAfterFinish(direct: Bool) throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory.string) }
        let path = directory.appending("appended.frozen")
        let first = bytes(10_000, seed: 1), second = bytes(2_000_000, seed: 2)
        let writer = try UnbufferedFile(path: path, mode: .write, direct: direct)
        try first.withUnsafeBytes { try writer.write($0) }
        try writer.finish()
        #expect(try HostFiles.contents(of: path) == first)
        try second.withUnsafeBytes { try writer.write($0) }
        writer.close()
        #expect(try HostFiles.contents(of: path) == first + second)
    }

    @Test("a reader that adopts a writer's unwritten bytes reads everything the writer took", arguments: [true, false])
    func adoptsUnwritten(direct: Bool) throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory.string) }
        let path = directory.appending("failed.frozen")
        // Two whole chunks reach the file; the rest stays staged (the writer is not finished,
        // as after a failed write).
        let expected = bytes((2 << 20) + 300_000, seed: 3)
        let writer = try UnbufferedFile(path: path, mode: .write, direct: direct)
        try expected.withUnsafeBytes { try writer.write($0) }
        let reader = try UnbufferedFile(path: path, mode: .read, direct: direct)
        reader.adoptUnwritten(of: writer)
        var read = [UInt8](repeating: 0, count: expected.count)
        try read.withUnsafeMutableBytes { try reader.read(into: $0) }
        #expect(read == expected)
    }
}
