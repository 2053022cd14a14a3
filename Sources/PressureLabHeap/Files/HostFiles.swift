#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// The one door to the file system: every file the project reads or writes goes through
/// these routines (swift-system's `FileDescriptor`, `FilePath` and `Errno`, and the few
/// calls swift-system does not have: `fsync`, `rename`, `unlink`, `mkdir`, `mkdtemp`,
/// `realpath`, `poll`). Failures are ``FileError``s: the operation, the path, the errno.
public enum HostFiles {
    /// The file's status (`stat`, or `lstat` when `followingLinks` is false).
    public static func status(_ path: FilePath, followingLinks: Bool = true) throws(FileError) -> Stat {
        do {
            return try path.stat(followTargetSymlink: followingLinks)
        } catch {
            throw FileError(.status, path, error)
        }
    }

    /// The file's status, or nil when it cannot be read (a missing file).
    public static func statusIfPresent(_ path: FilePath, followingLinks: Bool = true) -> Stat? {
        try? status(path, followingLinks: followingLinks)
    }

    /// Bytes free for an unprivileged writer on the file system holding `path` (`statvfs`),
    /// nil when it cannot be told.
    public static func freeBytes(at path: FilePath) -> Int? {
        var info = statvfs()
        guard path.withPlatformString({ statvfs($0, &info) }) == 0 else { return nil }
        let (bytes, overflow) = Int(info.f_bavail).multipliedReportingOverflow(by: Int(info.f_frsize))
        return overflow ? .max : bytes
    }

    /// The size of a file in bytes.
    public static func size(of path: FilePath) throws(FileError) -> Int {
        Int(try status(path).size)
    }

    /// Reads exactly `buffer.count` bytes from the start of the file into `buffer` (a file
    /// shorter than that fails with `EIO`).
    public static func read(_ path: FilePath, into buffer: UnsafeMutableRawBufferPointer) throws(FileError) {
        try read(path, into: CollectionOfOne(buffer))
    }

    /// Reads exactly the bytes of `buffers` from the start of the file, one buffer after the
    /// other (a block's pieces, ``RawMemory/pieces(count:)``); a shorter file fails with `EIO`.
    public static func read<Buffers: Collection>(_ path: FilePath, into buffers: Buffers) throws(FileError)
    where Buffers.Element == UnsafeMutableRawBufferPointer {
        let file = try SequentialFile(reading: path)
        defer { file.close() }
        for buffer in buffers { try file.read(into: buffer) }
    }

    /// The whole contents of a file, read to its end: the size the open descriptor reports
    /// is only a hint (procfs says 0, sysfs 4096, a FIFO nothing, a growing file too little).
    public static func contents(of path: FilePath) throws(FileError) -> [UInt8] {
        let file = try SequentialFile(reading: path)
        defer { file.close() }
        return try file.readToEnd(reservingCapacity: Int(try file.status().size))
    }

    /// The last `maximumBytes` bytes of a file (all of it when it is shorter).
    public static func tail(of path: FilePath, maximumBytes: Int) throws(FileError) -> [UInt8] {
        let file = try SequentialFile(reading: path)
        defer { file.close() }
        let size = Int(try file.status().size)
        try file.skip(max(0, size - maximumBytes))
        return try file.readToEnd()
    }

    /// The names in a directory (not `.` and `..`); empty when it cannot be read.
    public static func entries(of directory: FilePath) -> [String] {
        guard let stream = directory.withPlatformString({ opendir($0) }) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Creates (or truncates) `path` for writing and returns its descriptor, for a child
    /// process to write into (the caller closes it, or hands it over).
    public static func create(_ path: FilePath, permissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead]) throws(FileError) -> FileDescriptor {
        do {
            return try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate, .closeOnExec],
                                           permissions: permissions, retryOnInterrupt: true)
        } catch {
            throw FileError(.open, path, (error as? Errno) ?? .ioError)
        }
    }

    /// Writes `bytes` to `path` atomically: a temporary file beside it, flushed, then renamed
    /// over it. A reader sees the old file or the new one, never half of one.
    ///
    /// - Parameter durable: flush to the device before the rename (`fsync`). Scratch files a
    ///   run writes for itself skip it; what must survive a crash keeps it.
    public static func writeAtomically(_ path: FilePath, _ bytes: UnsafeRawBufferPointer, durable: Bool = true) throws(FileError) {
        let file = try AtomicFile(replacing: path)
        file.write(bytes)
        try file.commit(durable: durable)
    }

    /// ``writeAtomically(_:_:durable:)`` for bytes in an array.
    public static func writeAtomically(_ path: FilePath, contents: [UInt8], durable: Bool = true) throws(FileError) {
        let file = try AtomicFile(replacing: path)
        contents.withUnsafeBytes { file.write($0) }
        try file.commit(durable: durable)
    }

    /// Removes a file; a missing one is fine.
    public static func remove(_ path: FilePath) {
        _ = path.withPlatformString { unlink($0) }
    }

    /// Renames `source` to `destination`, replacing it (atomic on one file system).
    public static func rename(_ source: FilePath, to destination: FilePath) throws(FileError) {
        let result = source.withPlatformString { from in destination.withPlatformString { to in systemRename(from, to) } }
        guard result == 0 else { throw FileError(.rename, destination, .current) }
    }

    /// Creates `path` and any missing parents (`mkdir -p`); an existing directory is fine.
    /// The error names the component that failed ("Not a directory" when it is a file).
    public static func makeDirectories(_ path: FilePath) throws(FileError) {
        var prefix = path.root.map { FilePath(root: $0) } ?? FilePath()
        for component in path.components {
            prefix.append(component)
            guard prefix.withPlatformString({ mkdir($0, 0o777) }) != 0 else { continue }
            let code = Errno.current
            guard code == .fileExists else { throw FileError(.createDirectory, prefix, code) }
            guard let existing = statusIfPresent(prefix), existing.type == .directory else {
                throw FileError(.createDirectory, prefix, .notDirectory)
            }
        }
    }

    /// Creates a new directory from a template ending in `XXXXXX` (`mkdtemp`) and returns it.
    public static func makeUniqueDirectory(template: FilePath) throws(FileError) -> FilePath {
        var bytes = Array(template.string.utf8CString)
        let made = bytes.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        guard made else { throw FileError(.createDirectory, template, .current) }
        return FilePath(String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// The path with symbolic links, `.` and `..` resolved (`realpath`); nil when it does
    /// not exist.
    public static func realPath(_ path: FilePath) -> FilePath? {
        guard let resolved = path.withPlatformString({ realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return FilePath(String(cString: resolved))
    }

    /// Writes every byte to an open descriptor: retries interrupted and partial writes,
    /// and waits on a non-blocking descriptor that is full (a pipe to a slow reader).
    public static func writeAll(_ descriptor: FileDescriptor, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var done = 0
        while done < bytes.count {
            do {
                let wrote = try descriptor.write(UnsafeRawBufferPointer(rebasing: bytes[done...]), retryOnInterrupt: true)
                guard wrote > 0 else { throw Errno.ioError }
                done += wrote
            } catch Errno.resourceTemporarilyUnavailable {
                var ready = pollfd(fd: descriptor.rawValue, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, -1)
            } catch let error as Errno {
                throw error
            } catch {
                throw .ioError
            }
        }
    }

    /// Writes every byte at `offset` of an open file (`pwrite`, retried on a short write or a
    /// signal).
    public static func writeAll(_ descriptor: FileDescriptor, _ bytes: UnsafeRawBufferPointer, at offset: Int) throws(Errno) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let wrote = pwrite(descriptor.rawValue, base + done, bytes.count - done, off_t(offset + done))
            if wrote < 0 {
                if errno == EINTR { continue }
                throw .current
            }
            guard wrote > 0 else { throw .ioError }
            done += wrote
        }
    }

    /// Fills `buffer` from `offset` of an open file (`pread`, retried on a short read or a
    /// signal); a file that ends first is `EIO`.
    public static func readAll(_ descriptor: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(Errno) {
        guard let base = buffer.baseAddress else { return }
        var done = 0
        while done < buffer.count {
            let got = pread(descriptor.rawValue, base + done, buffer.count - done, off_t(offset + done))
            if got < 0 {
                if errno == EINTR { continue }
                throw .current
            }
            guard got > 0 else { throw .ioError }
            done += got
        }
    }

    /// Writes a string's UTF-8 bytes to an open descriptor.
    public static func writeAll(_ descriptor: FileDescriptor, _ text: String) throws(Errno) {
        var text = text
        var failure: Errno?
        text.withUTF8 { bytes in
            do throws(Errno) { try writeAll(descriptor, UnsafeRawBufferPointer(bytes)) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Flushes what was written to a descriptor to the device (`fsync`).
    public static func sync(_ descriptor: FileDescriptor) throws(Errno) {
        guard fsync(descriptor.rawValue) == 0 else { throw .current }
    }
}

#if canImport(Glibc)
private let systemRename = Glibc.rename
#elseif canImport(Darwin)
private let systemRename = Darwin.rename
#endif

extension Errno {
    /// The calling thread's `errno`.
    static var current: Errno { Errno(rawValue: errno) }
}

extension HostFiles {
    /// Sets an open file's permission bits (`fchmod`); false on failure (errno set).
    static func changePermissions(_ descriptor: FileDescriptor, _ permissions: FilePermissions) -> Bool {
        fchmod(descriptor.rawValue, mode_t(permissions.rawValue)) == 0
    }
}
