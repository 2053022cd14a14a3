// Over 300 lines: one file type with its two paths (O_DIRECT through aligned staging, and the page
// cache's), which share the staging buffer, the alignment and the finish checks (docs/limits.md).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CHostCalls
import SystemPackage

/// A file written, or read, from start to end without the page cache's copy where the file
/// system allows it: opened with `O_DIRECT`, its bytes move between the process and the
/// device in aligned chunks of ``chunkBytes`` staged in a buffer outside the measured heap
/// (``PageBuffers``). The freezer's files (`FreezerFile`): every byte they
/// model is still written to the file and read back from it, but the kernel no longer copies
/// it into the page cache, writes it back and reclaims it (docs/limits.md, "Freezer and swap
/// files").
///
/// Where the file system refuses `O_DIRECT` (or has none), and unless the environment asks for
/// it (``directIOAllowed``), the file is opened as usual and the same chunks go through the
/// page cache; a write of a whole chunk or more with nothing staged then goes out at once,
/// without the staging copy (and small writes, a compressed page's header and bytes, are
/// gathered into one write a chunk).
///
/// What a caller sees is the byte stream, unpadded: ``bytesTransferred`` counts the bytes
/// given or taken, and a file written and finished is exactly as long as they are (the last
/// chunk is written padded to the alignment, then the file is cut to its length). A write
/// that returns has staged its bytes; ``finish()`` (or ``sync()``) puts what is staged in the
/// file. When a write fails, what earlier writes staged and the failed one did not reach the
/// file stays staged, and a reader of the same file takes it with
/// ``adoptUnwritten(of:)``: everything written before the failure is read back.
public final class UnbufferedFile {
    /// What the file is opened for.
    public enum Mode: Sendable {
        /// Created (or truncated) and written from the start.
        case write
        /// Read from the start.
        case read
    }

    /// The bytes a chunk stages: 1 MiB, a multiple of every alignment `O_DIRECT` asks for.
    public static let chunkBytes = 1 << 20
    /// The alignment of buffers, offsets and lengths of direct transfers: the host's page,
    /// which is at least every block size `O_DIRECT` asks for on Linux.
    static let alignment = 4096

    /// The file's path, as opened.
    public let path: FilePath
    /// What it is open for.
    public let mode: Mode
    /// True when the file is open with `O_DIRECT` (the page cache is bypassed).
    public let isDirect: Bool
    /// Bytes written (given to ``write(_:)``) or read so far.
    public private(set) var bytesTransferred = 0

    private var descriptor: FileDescriptor?
    /// The staging chunk (``chunkBytes``, page aligned), taken at the first transfer.
    private var buffer: UnsafeMutableRawPointer?
    private var bufferBytes = 0
    /// Writing: bytes staged at the start of ``buffer``, which go to the file at
    /// ``fileOffset``. Reading: bytes of ``buffer`` that hold data.
    private var stagedCount = 0
    /// Reading: bytes of ``buffer`` already given out.
    private var consumed = 0
    /// Writing: where the staged bytes start in the file (a multiple of ``alignment``, or of
    /// nothing when not direct). Reading: where the next chunk is read from.
    private var fileOffset = 0
    /// Reading: the file's bytes to read, then the bytes a failed writer had staged.
    private var fileLimit = Int.max
    /// Reading: the chunk a failed writer had staged (``adoptUnwritten(of:)``), its size, the
    /// bytes of it that hold data and those given out. (Fields, not an optional tuple: a tuple
    /// type's metadata is made at its first use, an allocation in whatever measured scope that
    /// happens in.)
    private var adoptedBuffer: UnsafeMutableRawPointer?
    private var adoptedBufferBytes = 0
    private var adoptedCount = 0
    private var adoptedConsumed = 0
    /// Writing: a write failed; nothing more is written.
    private var failed = false
    /// Writing: the staged tail is in the file (``finish()`` ran since the last write).
    private var finished = false

    /// Whether files are opened with `O_DIRECT` at all: only when the environment says
    /// `PRESSURELAB_FILE_IO=direct` (read once). Direct I/O takes the kernel's copies off the
    /// CPU, but every byte then goes to the device and back, where the page cache drops most of
    /// these short-lived files before writing them back: on this project's VM (a 1.2 GB/s disk)
    /// the Pixel 4 experiment took 34.7 s direct against 27.9 s buffered, so buffered is the
    /// default (docs/limits.md, "Freezer and swap files"). (Compared as C bytes: the first file
    /// may be opened inside a measured scope, and a `String` made there would be an allocation
    /// nobody frees.)
    public static let directIOAllowed: Bool = {
        guard let value = getenv("PRESSURELAB_FILE_IO") else { return false }
        return strcmp(value, "direct") == 0
    }()

    /// Opens `path` for `mode`: with `O_DIRECT` when `direct` (by default
    /// ``directIOAllowed``) and the file system takes it, else as usual. A file opened to write
    /// is created (or truncated), owner read and write only.
    public init(path: FilePath, mode: Mode, direct wantsDirect: Bool = UnbufferedFile.directIOAllowed) throws(FileError) {
        self.path = path
        self.mode = mode
        let options: FileDescriptor.OpenOptions = mode == .write ? [.create, .truncate, .closeOnExec] : [.closeOnExec]
        let access: FileDescriptor.AccessMode = mode == .write ? .writeOnly : .readOnly
        let permissions: FilePermissions? = mode == .write ? [.ownerReadWrite] : nil
        let direct = FileDescriptor.OpenOptions(rawValue: pressurelab_open_direct_flag())
        if wantsDirect, !direct.isEmpty, let opened = try? Self.open(path, access, options.union(direct), permissions) {
            descriptor = opened
            isDirect = true
        } else {
            descriptor = try Self.open(path, access, options, permissions)
            isDirect = false
        }
    }

    deinit {
        close()
        if let buffer { PageBuffers.give(buffer, bytes: bufferBytes) }
        if let adoptedBuffer { PageBuffers.give(adoptedBuffer, bytes: adoptedBufferBytes) }
    }

    // MARK: Writing

    /// Stages all of `bytes` for the file, writing every chunk that fills. On a failure
    /// nothing of `bytes` counts as written, and later writes fail too.
    ///
    /// - Complexity: O(`bytes.count`): one copy into the staging chunk (none for a whole
    ///   chunk or more written through the page cache with nothing staged), and one write a
    ///   filled chunk.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
        guard descriptor != nil, !failed, mode == .write else { throw FileError(.write, path, .badFileDescriptor) }
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        finished = false
        let stagedBefore = stagedCount, offsetBefore = fileOffset
        do throws(FileError) {
            var done = 0
            if !isDirect, stagedCount == 0, bytes.count >= Self.chunkBytes {
                try writeOut(UnsafeRawBufferPointer(rebasing: bytes[...]), at: fileOffset)
                fileOffset += bytes.count
                done = bytes.count
            }
            while done < bytes.count {
                let staging = try stagingBuffer()
                let count = min(Self.chunkBytes - stagedCount, bytes.count - done)
                memcpy(staging + stagedCount, source + done, count)
                stagedCount += count
                done += count
                if stagedCount == Self.chunkBytes {
                    try writeOut(UnsafeRawBufferPointer(start: staging, count: Self.chunkBytes), at: fileOffset)
                    fileOffset += Self.chunkBytes
                    stagedCount = 0
                }
            }
        } catch {
            failed = true
            // What earlier writes staged is still at the start of the buffer unless a chunk of
            // this write reached the file after it (then those bytes are in the file).
            stagedCount = fileOffset == offsetBefore ? stagedBefore : 0
            throw error
        }
        bytesTransferred += bytes.count
    }

    /// Puts what is staged in the file: the last chunk, padded to the alignment when direct,
    /// and the file cut to the bytes written. Writing on after it is allowed (the tail is
    /// written again with what follows). Throws when it could not.
    public func finish() throws(FileError) {
        guard mode == .write, !finished else { return }
        guard descriptor != nil, !failed else { throw FileError(.write, path, .badFileDescriptor) }
        if stagedCount > 0, let buffer {
            let length = isDirect ? (stagedCount + Self.alignment - 1) / Self.alignment * Self.alignment : stagedCount
            if length > stagedCount { memset(buffer + stagedCount, 0, length - stagedCount) }
            do {
                try writeOut(UnsafeRawBufferPointer(start: buffer, count: length), at: fileOffset)
                if length > stagedCount { try cut(at: fileOffset + stagedCount) }
            } catch {
                failed = true
                throw error
            }
            if !isDirect {
                fileOffset += stagedCount
                stagedCount = 0
            }
        }
        finished = true
    }

    /// Puts what is staged in the file (``finish()``) and flushes the file to the device
    /// (`fsync`).
    public func sync() throws(FileError) {
        try finish()
        guard let descriptor else { throw FileError(.sync, path, .badFileDescriptor) }
        do {
            try HostFiles.sync(descriptor)
        } catch {
            throw FileError(.sync, path, error)
        }
    }

    // MARK: Reading

    /// Fills `destination` from the file (then from what a failed writer had staged, when
    /// adopted); a file that ends first fails with `EIO`.
    ///
    /// - Complexity: O(`destination.count`): one copy out of the staging chunk, and one read a
    ///   chunk.
    public func read(into destination: UnsafeMutableRawBufferPointer) throws(FileError) {
        guard descriptor != nil, mode == .read else { throw FileError(.read, path, .badFileDescriptor) }
        guard let target = destination.baseAddress else { return }
        var done = 0
        while done < destination.count {
            if consumed == stagedCount, !isDirect, destination.count - done >= Self.chunkBytes, fileOffset < fileLimit {
                // Through the page cache, a read of a chunk or more goes straight to its place.
                let got = try readOut(into: target + done, count: min(destination.count - done, fileLimit - fileOffset))
                if got > 0 {
                    fileOffset += got
                    done += got
                    continue
                }
            }
            if consumed == stagedCount {
                guard try refill() else {
                    // The file is read: what a failed writer had staged comes next.
                    guard let adoptedBuffer, adoptedConsumed < adoptedCount else { throw FileError(.read, path, .ioError) }
                    let count = min(adoptedCount - adoptedConsumed, destination.count - done)
                    memcpy(target + done, adoptedBuffer + adoptedConsumed, count)
                    adoptedConsumed += count
                    done += count
                    continue
                }
            }
            guard let buffer else { throw FileError(.read, path, .ioError) }
            let count = min(stagedCount - consumed, destination.count - done)
            memcpy(target + done, buffer + consumed, count)
            consumed += count
            done += count
        }
        bytesTransferred += destination.count
    }

    /// Takes what `writer` (a failed writer of this file) had staged and not written: this
    /// file is read up to where the writer's file ends for certain, then those bytes.
    public func adoptUnwritten(of writer: UnbufferedFile) {
        guard mode == .read, writer.mode == .write else { return }
        fileLimit = writer.fileOffset
        guard writer.stagedCount > 0, let staged = writer.buffer else { return }
        if let adoptedBuffer { PageBuffers.give(adoptedBuffer, bytes: adoptedBufferBytes) }
        adoptedBuffer = staged
        adoptedBufferBytes = writer.bufferBytes
        adoptedCount = writer.stagedCount
        adoptedConsumed = 0
        writer.buffer = nil
        writer.stagedCount = 0
    }

    /// Reads the next chunk into the buffer; false at the end of the file (or of
    /// ``fileLimit``).
    private func refill() throws(FileError) -> Bool {
        guard fileOffset < fileLimit else { return false }
        let staging = try stagingBuffer()
        let got = try readOut(into: staging, count: Self.chunkBytes)
        let usable = min(got, fileLimit - fileOffset)
        fileOffset += got
        stagedCount = usable
        consumed = 0
        return usable > 0
    }

    // MARK: Closing

    /// Puts what is staged in the file (``finish()``) and closes it, ignoring a failure.
    /// Closing twice is fine.
    public func close() {
        if mode == .write, !failed { try? finish() }
        guard let descriptor else { return }
        self.descriptor = nil
        try? descriptor.close()
    }

    // MARK: The host

    private func stagingBuffer() throws(FileError) -> UnsafeMutableRawPointer {
        if let buffer { return buffer }
        var bytes = Self.chunkBytes
        guard let taken = PageBuffers.take(&bytes) else {
            throw FileError(mode == .write ? .write : .read, path, .noMemory)
        }
        buffer = taken
        bufferBytes = bytes
        return taken
    }

    /// Reads up to `count` bytes at ``fileOffset`` into `target` (`pread`, retried on a short
    /// read or a signal, until the end of the file): the bytes read.
    private func readOut(into target: UnsafeMutableRawPointer, count: Int) throws(FileError) -> Int {
        guard let descriptor else { throw FileError(.read, path, .badFileDescriptor) }
        var got = 0
        while got < count {
            let read = pread(descriptor.rawValue, target + got, count - got, off_t(fileOffset + got))
            if read < 0 {
                if errno == EINTR { continue }
                throw FileError(.read, path, Errno(rawValue: errno))
            }
            if read == 0 { break }
            got += read
            // A direct read stops short only at the end of the file (or a signal); go on in
            // aligned steps.
            if isDirect, got % Self.alignment != 0 { break }
        }
        return got
    }

    /// Writes all of `bytes` at `offset` (`pwrite`, retried on a short write or a signal).
    private func writeOut(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(FileError) {
        guard let descriptor, bytes.baseAddress != nil else { throw FileError(.write, path, .badFileDescriptor) }
        do {
            try HostFiles.writeAll(descriptor, bytes, at: offset)
        } catch {
            throw FileError(.write, path, error)
        }
    }

    /// Cuts the file to `length` bytes (the padding of a direct write's last chunk).
    private func cut(at length: Int) throws(FileError) {
        guard let descriptor else { throw FileError(.write, path, .badFileDescriptor) }
        while ftruncate(descriptor.rawValue, off_t(length)) != 0 {
            guard errno == EINTR else { throw FileError(.write, path, Errno(rawValue: errno)) }
        }
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
