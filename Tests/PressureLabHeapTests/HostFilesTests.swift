import Foundation
import PressureLabHeap
import SystemPackage
import Testing

/// The one door to the file system: atomic replacement, exact reads, and errors that keep
/// the operation, the path and the errno.
@Suite("Host files: atomic writes, exact reads, errors with errno and path")
struct HostFilesTests {
    /// A fresh directory for one test.
    private func scratch() throws -> FilePath {
        let template = FilePath(NSTemporaryDirectory()).appending("pressurelab-files-test-XXXXXX")
        return try HostFiles.makeUniqueDirectory(template: template)
    }

    private func names(in directory: FilePath) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.string).sorted()
    }

    @Test("writeAtomically replaces the file whole and leaves no temporary beside it")
    func atomicReplace() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory.string) }
        let path = directory.appending("out.bin")
        try HostFiles.writeAtomically(path, contents: Array("first".utf8))
        try HostFiles.writeAtomically(path, contents: Array("second, longer".utf8))
        #expect(try HostFiles.contents(of: path) == Array("second, longer".utf8))
        #expect(try HostFiles.size(of: path) == 14)
        #expect(try names(in: directory) == ["out.bin"])
    }

    @Test("a discarded atomic file leaves the destination as it was")
    func discardKeepsOld() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory.string) }
        let path = directory.appending("keep.txt")
        try HostFiles.writeAtomically(path, contents: Array("old".utf8))
        let file = try AtomicFile(replacing: path)
        "new".utf8.withContiguousStorageIfAvailable { file.write(UnsafeRawBufferPointer($0)) }
        file.discard()
        #expect(try HostFiles.contents(of: path) == Array("old".utf8))
        #expect(try names(in: directory) == ["keep.txt"])
    }

    @Test("a missing file is an error naming the operation, the path and ENOENT")
    func missing() throws {
        let path = FilePath("/nonexistent-pressurelab/x.yaml")
        do {
            _ = try HostFiles.contents(of: path)
            Issue.record("read a missing file")
        } catch {
            #expect(error.isMissing)
            #expect(error.errno == .noSuchFileOrDirectory)
            #expect(error.operation == .open)
            #expect(error.description == "/nonexistent-pressurelab/x.yaml: cannot open: No such file or directory")
        }
    }

    @Test("reading more bytes than the file has fails with EIO, not a short buffer")
    func shortRead() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory.string) }
        let path = directory.appending("short")
        try HostFiles.writeAtomically(path, contents: [1, 2, 3])
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 8, alignment: 8)
        defer { buffer.deallocate() }
        #expect(throws: FileError(.read, path, .ioError)) { try HostFiles.read(path, into: buffer) }
    }

    @Test("writeAll and readAll at an offset: the bytes land at their place (a hole before them reads as zeros); a read past the end is EIO")
    func positionalWriteAndRead() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory.string) }
        let path = directory.appending("slots.bin")
        let descriptor = try FileDescriptor.open(path, .readWrite, options: [.create, .truncate], permissions: [.ownerReadWrite])
        defer { try? descriptor.close() }
        let bytes: [UInt8] = Array(1...200)
        try bytes.withUnsafeBytes { try HostFiles.writeAll(descriptor, $0, at: 4096) }
        #expect(try HostFiles.size(of: path) == 4096 + 200)
        var back = [UInt8](repeating: 0, count: 200)
        try back.withUnsafeMutableBytes { try HostFiles.readAll(descriptor, into: $0, at: 4096) }
        #expect(back == bytes)
        var hole = [UInt8](repeating: 9, count: 16)
        try hole.withUnsafeMutableBytes { try HostFiles.readAll(descriptor, into: $0, at: 0) }
        #expect(hole == [UInt8](repeating: 0, count: 16))
        var past = [UInt8](repeating: 0, count: 201)
        #expect(throws: Errno.ioError) { try past.withUnsafeMutableBytes { try HostFiles.readAll(descriptor, into: $0, at: 4096) } }
    }

    @Test("makeDirectories creates parents, accepts an existing directory and names a file in the way")
    func directories() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory.string) }
        let nested = directory.appending("a/b/c")
        try HostFiles.makeDirectories(nested)
        try HostFiles.makeDirectories(nested)
        #expect(HostFiles.statusIfPresent(nested)?.type == .directory)
        let blocker = directory.appending("file")
        try HostFiles.writeAtomically(blocker, contents: [0])
        #expect(throws: FileError(.createDirectory, blocker, .notDirectory)) {
            try HostFiles.makeDirectories(blocker.appending("below"))
        }
    }

    @Test("a full device keeps ENOSPC and the path")
    func fullDevice() throws {
        guard HostFiles.statusIfPresent("/dev/full")?.type == .characterSpecial else { return }
        let file = try SequentialFile(writingInPlace: "/dev/full")
        defer { file.close() }
        let bytes: [UInt8] = [1, 2, 3]
        #expect(throws: FileError(.write, "/dev/full", .noSpace)) {
            try bytes.withUnsafeBytes { buffer in try file.write(buffer) }
        }
    }
}

/// Files whose reported size is not their length, and the CPU quota read through them.
@Suite("Host files: procfs and sysfs read whole; the CPU quota")
struct HostPseudoFileTests {
    @Test("a procfs file (size 0) is read to its end")
    func procfs() throws {
        let status = String(decoding: try HostFiles.contents(of: "/proc/self/status"), as: UTF8.self)
        #expect(status.hasPrefix("Name:"))
        #expect(status.contains("\nVmRSS:"))
    }

    @Test("cpu.max: a quota rounds up to whole cores; 'max' is no quota")
    func cpuMax() {
        #expect(HostCPU.parseCPUMax("200000 100000\n") == 2)
        #expect(HostCPU.parseCPUMax("150000 100000") == 2)
        #expect(HostCPU.parseCPUMax("50000 100000") == 1)
        #expect(HostCPU.parseCPUMax("max 100000") == nil)
        #expect(HostCPU.parseCPUMax("") == nil)
        #expect((1...ProcessInfo.processInfo.activeProcessorCount).contains(HostCPU.availableCores()))
    }
}
