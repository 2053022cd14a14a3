#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PressureLab

/// One output file, written carefully.
///
/// - A new file, or an existing regular file, is written to a temporary file next to it
///   (`NAME.tmp-<pid>-<random>`, registered with ``TemporaryFiles`` so that a signal or an
///   exit removes it) and only replaces the destination at ``commit()``: fsync, then
///   rename. A symbolic link to a regular file is kept; the file it points to is replaced.
/// - An existing file that is not a regular file (a character device such as `/dev/null`,
///   a FIFO, a socket) is opened for writing and written in place, never replaced; so is
///   the file that standard output or standard error already is (`/dev/stdout`).
/// - A directory is an error.
///
/// Writes never throw: the first failure is kept in ``failure`` and later writes are
/// skipped, so that a stream (the trace) can be written from non-throwing code and
/// checked when convenient; ``commit()`` throws it.
public final class OutputFile {
    /// The destination, as given.
    public let path: String
    /// True when the destination is replaced at commit (a new or regular file); false
    /// when it is written in place.
    public let isReplacedAtCommit: Bool
    /// The first write failure, if any.
    public private(set) var failure: HarnessError?

    private var descriptor: Int32
    private let temporary: String?
    private let destination: String
    private var state = State.writing

    private enum State { case writing, written, done }

    /// Opens the output: a temporary next to a new or regular file; the file itself
    /// otherwise. Throws `.cannotWrite(path:reason:)` with the system's reason.
    public init(path: String) throws(HarnessError) {
        self.path = path
        var info = stat()
        let exists = stat(path, &info) == 0
        if !exists, errno != ENOENT { throw .cannotWrite(path: path, reason: HarnessError.systemMessage(errno)) }
        let type = info.st_mode & S_IFMT
        if exists, type == S_IFDIR { throw .cannotWrite(path: path, reason: HarnessError.systemMessage(EISDIR)) }

        if exists, type != S_IFREG || Self.standardDescriptor(matching: info) != nil {
            // In place: a device, a FIFO, or the file standard output already is.
            let opened = Self.standardDescriptor(matching: info).map { dup($0) } ?? open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
            guard opened >= 0 else { throw .cannotWrite(path: path, reason: HarnessError.systemMessage(errno)) }
            descriptor = opened
            temporary = nil
            destination = path
            isReplacedAtCommit = false
            return
        }
        destination = exists ? (OutputIdentity.realPath(path) ?? path) : path
        let mode = exists ? info.st_mode & 0o7777 : 0o644
        let (opened, name) = try Self.createTemporary(next: destination, mode: mode, reportingAs: path)
        if exists { _ = fchmod(opened, mode) }
        descriptor = opened
        temporary = name
        isReplacedAtCommit = true
    }

    deinit { discard() }

    /// Writes bytes (skipped after a failure, which is kept in ``failure``).
    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil, state == .writing, descriptor >= 0 else { return }
        let code = Descriptor.writeAll(descriptor, bytes)
        if code != 0 { failure = .cannotWrite(path: path, reason: HarnessError.systemMessage(code)) }
    }

    /// Writes a string's UTF-8 bytes.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Ends the writing: flushes a temporary to disk (fsync) and closes it. The
    /// destination is unchanged until ``replaceDestination()``. On a failure the output
    /// is discarded and the failure thrown.
    public func finishWriting() throws(HarnessError) {
        guard state == .writing else { return }
        if failure == nil, isReplacedAtCommit, fsync(descriptor) != 0 {
            failure = .cannotWrite(path: path, reason: HarnessError.systemMessage(errno))
        }
        let closed = close(descriptor)
        let closeError = errno
        descriptor = -1
        if failure == nil, closed != 0, closeError != EINTR {
            failure = .cannotWrite(path: path, reason: HarnessError.systemMessage(closeError))
        }
        if let failure {
            discard()
            throw failure
        }
        state = .written
    }

    /// Moves the temporary into place (rename, atomic) after ``finishWriting()``; nothing
    /// to do for an output written in place.
    public func replaceDestination() throws(HarnessError) {
        try finishWriting()
        guard state == .written else { return }
        state = .done
        guard let temporary else { return }
        try TemporaryFiles.withLock { () throws(HarnessError) in
            guard rename(temporary, destination) == 0 else {
                let failure = HarnessError.cannotWrite(path: path, reason: HarnessError.systemMessage(errno))
                // (The lock is held: removing and unregistering is one step for a signal.)
                TemporaryFiles.removeTree(temporary)
                TemporaryFiles.unregister(temporary)
                self.failure = failure
                throw failure
            }
            TemporaryFiles.unregister(temporary)
        }
    }

    /// ``finishWriting()`` then ``replaceDestination()``.
    public func commit() throws(HarnessError) {
        try finishWriting()
        try replaceDestination()
    }

    /// Abandons the output: closes it and removes the temporary, leaving the destination
    /// as it was. (What was already written in place stays written.) Idempotent.
    public func discard() {
        guard state != .done else { return }
        state = .done
        if descriptor >= 0 {
            _ = close(descriptor)
            descriptor = -1
        }
        if let temporary {
            TemporaryFiles.withLock {
                TemporaryFiles.removeTree(temporary)
                TemporaryFiles.unregister(temporary)
            }
        }
    }

    /// True when `path` would be written in place (it exists and is not a regular file,
    /// or is standard output or error).
    public static func isWrittenInPlace(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        return type != S_IFREG && type != S_IFDIR || standardDescriptor(matching: info) != nil
    }

    // MARK: - Private

    /// Standard output or standard error, when it is the file `info` describes.
    private static func standardDescriptor(matching info: stat) -> Int32? {
        for descriptor in [STDOUT_FILENO, STDERR_FILENO] {
            var standard = stat()
            if fstat(descriptor, &standard) == 0, standard.st_dev == info.st_dev, standard.st_ino == info.st_ino {
                return descriptor
            }
        }
        return nil
    }

    /// Creates `DESTINATION.tmp-<pid>-<random>` exclusively, registered for removal.
    private static func createTemporary(next destination: String, mode: mode_t,
                                        reportingAs path: String) throws(HarnessError) -> (Int32, String) {
        for _ in 0..<16 {
            let name = "\(destination).tmp-\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 36))"
            // Created and registered under the lock: a signal cannot come in between.
            let (opened, code): (Int32, Int32) = TemporaryFiles.withLock {
                let descriptor = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
                let code = errno
                if descriptor >= 0 { TemporaryFiles.register(name) }
                return (descriptor, code)
            }
            if opened >= 0 { return (opened, name) }
            if code != EEXIST { throw .cannotWrite(path: path, reason: HarnessError.systemMessage(code)) }
        }
        throw .cannotWrite(path: path, reason: HarnessError.systemMessage(EEXIST))
    }
}
