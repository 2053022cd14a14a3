#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// An open file read or written from start to end (the freezer's swap file, an output
/// written in place): every read fills its buffer, every write goes out whole.
public final class SequentialFile {
    /// The file's path, as opened.
    public let path: FilePath
    /// Bytes read or written so far.
    public private(set) var bytesTransferred = 0
    private var descriptor: FileDescriptor?

    /// Creates (or truncates) `path` for writing.
    public init(creating path: FilePath, permissions: FilePermissions = [.ownerReadWrite]) throws(FileError) {
        self.path = path
        descriptor = try Self.open(path, .writeOnly, [.create, .truncate, .closeOnExec], permissions)
    }

    /// Creates `path` for writing; fails (`EEXIST`) when it exists already.
    public init(creatingNew path: FilePath, permissions: FilePermissions) throws(FileError) {
        self.path = path
        descriptor = try Self.open(path, .writeOnly, [.create, .exclusiveCreate, .closeOnExec], permissions)
    }

    /// Opens an existing `path` for reading.
    public init(reading path: FilePath) throws(FileError) {
        self.path = path
        descriptor = try Self.open(path, .readOnly, [.closeOnExec], nil)
    }

    /// Opens an existing `path` for reading with these open options.
    init(reading path: FilePath, options: FileDescriptor.OpenOptions) throws(FileError) {
        self.path = path
        descriptor = try Self.open(path, .readOnly, options, nil)
    }

    /// Opens an existing file (a device, a FIFO) for writing in place.
    public init(writingInPlace path: FilePath) throws(FileError) {
        self.path = path
        descriptor = try Self.open(path, .writeOnly, [FileDescriptor.OpenOptions(rawValue: O_NOCTTY), .closeOnExec], nil)
    }

    /// Writes through a duplicate of an open descriptor (standard output named by a path).
    public init(duplicating original: FileDescriptor, path: FilePath) throws(FileError) {
        self.path = path
        do {
            descriptor = try original.duplicate()
        } catch {
            throw FileError(.open, path, (error as? Errno) ?? .badFileDescriptor)
        }
    }

    deinit { close() }

    /// Writes all of `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
        guard let descriptor else { throw FileError(.write, path, .badFileDescriptor) }
        do {
            try HostFiles.writeAll(descriptor, bytes)
        } catch {
            throw FileError(.write, path, error)
        }
        bytesTransferred += bytes.count
    }

    /// Fills `buffer` from the file; a file that ends first fails with `EIO`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(FileError) {
        guard let descriptor else { throw FileError(.read, path, .badFileDescriptor) }
        var done = 0
        while done < buffer.count {
            let got: Int
            do {
                got = try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]), retryOnInterrupt: true)
            } catch {
                throw FileError(.read, path, (error as? Errno) ?? .ioError)
            }
            guard got > 0 else { throw FileError(.read, path, .ioError) }
            done += got
        }
        bytesTransferred += buffer.count
    }

    /// Reads what the file gives next into `buffer`, up to its size: the bytes read, 0 at the
    /// end of the file.
    public func readSome(into buffer: UnsafeMutableRawBufferPointer) throws(FileError) -> Int {
        guard let descriptor else { throw FileError(.read, path, .badFileDescriptor) }
        guard !buffer.isEmpty else { return 0 }
        do {
            let got = try descriptor.read(into: buffer, retryOnInterrupt: true)
            bytesTransferred += got
            return got
        } catch {
            throw FileError(.read, path, (error as? Errno) ?? .ioError)
        }
    }

    /// Reads what is left of the file, to its end. `expected` (the size the file reports) is
    /// read straight into the array returned, with one byte more in which the end shows; a
    /// file longer than that (procfs reports 0 bytes, sysfs 4096) goes on in 64 KiB chunks.
    public func readToEnd(reservingCapacity expected: Int = 0) throws(FileError) -> [UInt8] {
        guard let descriptor else { throw FileError(.read, path, .badFileDescriptor) }
        var failure: Errno?
        func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
            do {
                return try descriptor.read(into: buffer, retryOnInterrupt: true)
            } catch {
                failure = (error as? Errno) ?? .ioError
                return 0
            }
        }
        var bytes: [UInt8] = [UInt8](unsafeUninitializedCapacity: max(0, expected) + 1) { buffer, count in
            count = 0
            while count < buffer.count {
                let got = read(into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[count...])))
                if got == 0 { return }
                count += got
            }
        }
        if let failure { throw FileError(.read, path, failure) }
        bytesTransferred += bytes.count
        guard bytes.count > expected else { return bytes }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(into: $0) }
            if let failure { throw FileError(.read, path, failure) }
            if got == 0 { return bytes }
            bytes += chunk[..<got]
            bytesTransferred += got
        }
    }

    /// Moves the read position `count` bytes on from the start.
    public func skip(_ count: Int) throws(FileError) {
        guard let descriptor else { throw FileError(.read, path, .badFileDescriptor) }
        do {
            _ = try descriptor.seek(offset: Int64(count), from: .start)
        } catch {
            throw FileError(.read, path, (error as? Errno) ?? .ioError)
        }
    }

    /// The open file's status (`fstat`).
    public func status() throws(FileError) -> Stat {
        guard let descriptor else { throw FileError(.status, path, .badFileDescriptor) }
        do {
            return try descriptor.stat()
        } catch {
            throw FileError(.status, path, error)
        }
    }

    /// Flushes what was written to the device (`fsync`).
    public func sync() throws(FileError) {
        guard let descriptor else { throw FileError(.sync, path, .badFileDescriptor) }
        do {
            try HostFiles.sync(descriptor)
        } catch {
            throw FileError(.sync, path, error)
        }
    }

    /// Changes the file's permission bits.
    public func setPermissions(_ permissions: FilePermissions) throws(FileError) {
        guard let descriptor else { throw FileError(.changePermissions, path, .badFileDescriptor) }
        guard HostFiles.changePermissions(descriptor, permissions) else { throw FileError(.changePermissions, path, .current) }
    }

    /// Closes the file, reporting a failure (an interrupted close is not one: the
    /// descriptor is gone either way). Closing twice is fine.
    public func closeReportingFailure() throws(FileError) {
        guard let descriptor else { return }
        self.descriptor = nil
        do {
            try descriptor.close()
        } catch let error as Errno where error == .interrupted {
            return
        } catch {
            throw FileError(.close, path, (error as? Errno) ?? .ioError)
        }
    }

    /// Closes the file, ignoring a failure.
    public func close() {
        try? closeReportingFailure()
    }

    private static func open(_ path: FilePath, _ mode: FileDescriptor.AccessMode, _ options: FileDescriptor.OpenOptions,
                             _ permissions: FilePermissions?) throws(FileError) -> FileDescriptor {
        do {
            return try FileDescriptor.open(path, mode, options: options, permissions: permissions, retryOnInterrupt: true)
        } catch {
            throw FileError(.open, path, (error as? Errno) ?? .ioError)
        }
    }
}
