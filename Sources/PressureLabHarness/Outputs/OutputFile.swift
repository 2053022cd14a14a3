import PressureLab
import PressureLabHeap
import SystemPackage

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
package final class OutputFile {
    /// The destination, as given.
    package let path: String
    /// True when the destination is replaced at commit (a new or regular file); false
    /// when it is written in place.
    package let isReplacedAtCommit: Bool
    /// The first write failure, if any.
    package private(set) var failure: HarnessError?

    private enum Sink {
        case replacing(AtomicFile)
        case inPlace(SequentialFile)
    }

    private let sink: Sink
    private var state = State.writing

    private enum State { case writing, written, done }

    /// Opens the output: a temporary next to a new or regular file; the file itself
    /// otherwise. Throws `.cannotWrite(path:reason:)` with the system's reason.
    package init(path: String) throws(HarnessError) {
        self.path = path
        let info: Stat?
        do {
            info = try HostFiles.status(FilePath(path))
        } catch where error.isMissing {
            info = nil
        } catch {
            throw .cannotWrite(path: path, reason: error.reason)
        }
        if let info, info.type == .directory { throw .cannotWrite(path: path, reason: Errno.isDirectory.description) }

        do throws(FileError) {
            if let info, info.type != .regular || Self.standardDescriptor(matching: info) != nil {
                // In place: a device, a FIFO, or the file standard output already is.
                if let standard = Self.standardDescriptor(matching: info) {
                    sink = .inPlace(try SequentialFile(duplicating: standard, path: FilePath(path)))
                } else {
                    sink = .inPlace(try SequentialFile(writingInPlace: FilePath(path)))
                }
                isReplacedAtCommit = false
                return
            }
            let destination = info == nil ? FilePath(path) : (HostFiles.realPath(FilePath(path)) ?? FilePath(path))
            let permissions = info?.permissions ?? [.ownerReadWrite, .groupRead, .otherRead]
            // What an earlier writer of this file killed with SIGKILL left beside it.
            AtomicFile.removeAbandonedTemporaries(of: destination)
            // Created and registered under the lock: a signal cannot come in between.
            let file = try TemporaryFiles.withLock { () throws(FileError) -> AtomicFile in
                let file = try AtomicFile(replacing: destination, permissions: permissions)
                TemporaryFiles.register(file.temporary.string)
                return file
            }
            // The umask may have narrowed the mode; an existing file keeps its own.
            if info != nil { try? file.setPermissions(permissions) }
            sink = .replacing(file)
            isReplacedAtCommit = true
        } catch {
            throw .cannotWrite(path: path, reason: error.reason)
        }
    }

    deinit { discard() }

    /// Writes bytes (skipped after a failure, which is kept in ``failure``).
    package func write(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil, state == .writing else { return }
        switch sink {
        case .replacing(let file):
            file.write(bytes)
            if let error = file.failure { failure = .cannotWrite(path: path, reason: error.reason) }
        case .inPlace(let file):
            do throws(FileError) { try file.write(bytes) } catch { failure = .cannotWrite(path: path, reason: error.reason) }
        }
    }

    /// Writes a string's UTF-8 bytes.
    package func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Ends the writing: flushes a temporary to disk (fsync) and closes it. The
    /// destination is unchanged until ``replaceDestination()``. On a failure the output
    /// is discarded and the failure thrown.
    package func finishWriting() throws(HarnessError) {
        guard state == .writing else {
            if let failure { throw failure }
            return
        }
        if failure == nil {
            do throws(FileError) {
                switch sink {
                case .replacing(let file): try file.finish(durable: true)
                case .inPlace(let file): try file.closeReportingFailure()
                }
            } catch {
                failure = .cannotWrite(path: path, reason: error.reason)
            }
        }
        if let failure {
            discard()
            throw failure
        }
        state = .written
    }

    /// Moves the temporary into place (rename, atomic) after ``finishWriting()``; nothing
    /// to do for an output written in place.
    package func replaceDestination() throws(HarnessError) {
        try finishWriting()
        guard state == .written else { return }
        state = .done
        guard case .replacing(let file) = sink else { return }
        try TemporaryFiles.withLock { () throws(HarnessError) in
            // (The lock is held: renaming or removing, and unregistering, is one step for a signal.)
            defer { TemporaryFiles.unregister(file.temporary.string) }
            do throws(FileError) {
                try file.replaceDestination()
            } catch {
                let failure = HarnessError.cannotWrite(path: path, reason: error.reason)
                self.failure = failure
                throw failure
            }
        }
    }

    /// ``finishWriting()`` then ``replaceDestination()``.
    package func commit() throws(HarnessError) {
        try finishWriting()
        try replaceDestination()
    }

    /// Abandons the output: closes it and removes the temporary, leaving the destination
    /// as it was. (What was already written in place stays written.) Idempotent.
    package func discard() {
        guard state != .done else { return }
        state = .done
        switch sink {
        case .inPlace(let file):
            file.close()
        case .replacing(let file):
            TemporaryFiles.withLock {
                file.discard()
                TemporaryFiles.unregister(file.temporary.string)
            }
        }
    }

    /// True when `path` would be written in place (it exists and is not a regular file,
    /// or is standard output or error).
    package static func isWrittenInPlace(_ path: String) -> Bool {
        guard let info = HostFiles.statusIfPresent(FilePath(path)) else { return false }
        return info.type != .regular && info.type != .directory || standardDescriptor(matching: info) != nil
    }

    // MARK: - Private

    /// Standard output or standard error, when it is the file `info` describes.
    private static func standardDescriptor(matching info: Stat) -> FileDescriptor? {
        for descriptor in [FileDescriptor.standardOutput, .standardError] {
            if let standard = try? descriptor.stat(), standard.deviceID == info.deviceID, standard.inode == info.inode {
                return descriptor
            }
        }
        return nil
    }
}
