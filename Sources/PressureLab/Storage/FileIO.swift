#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads and atomic writes with POSIX calls: no extra copies, real I/O.
enum FileIO {
    enum Failure: Error, Equatable {
        case missing
        case system(operation: String, errno: Int32)
        /// The memory to read the file into was refused (the app's memory gate) or the host
        /// had none.
        case refused

        var message: String {
            switch self {
            case .missing: return "file not found"
            case .refused: return "no memory to read the file into"
            case .system(let operation, let code): return "\(operation) failed: \(FileIO.errorText(code))"
            }
        }
    }

    static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(validatingCString: text) ?? "error \(code)"
    }

    /// The size of a file, or `.missing`.
    static func size(of path: String) throws(Failure) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw errno == ENOENT ? .missing : .system(operation: "stat", errno: errno)
        }
        return Int(info.st_size)
    }

    /// Fills `buffer` from an open descriptor, retrying interrupted reads.
    static func readAll(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Failure) {
        guard let base = buffer.baseAddress else { return }
        var done = 0
        while done < buffer.count {
            let got = systemRead(descriptor, base + done, buffer.count - done)
            if got < 0 {
                if errno == EINTR { continue }
                throw .system(operation: "read", errno: errno)
            }
            if got == 0 { throw .system(operation: "read (file shorter than expected)", errno: EIO) }
            done += got
        }
    }

    /// Writes all of `bytes` to an open descriptor, retrying interrupted writes.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(Failure) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let wrote = systemWrite(descriptor, base + done, bytes.count - done)
            if wrote < 0 {
                if errno == EINTR { continue }
                throw .system(operation: "write", errno: errno)
            }
            done += wrote
        }
    }

    /// Reads exactly `buffer.count` bytes from the start of the file into `buffer`.
    static func read(_ path: String, into buffer: UnsafeMutableRawBufferPointer) throws(Failure) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw errno == ENOENT ? .missing : .system(operation: "open", errno: errno) }
        defer { close(descriptor) }
        try readAll(descriptor, into: buffer)
    }

    /// ``writeAtomically(_:_:durable:)`` for use inside non-throwing closures: the failure, or nil.
    static func writeAtomicallyReportingFailure(_ path: String, _ bytes: UnsafeRawBufferPointer, durable: Bool = true) -> Failure? {
        do {
            try writeAtomically(path, bytes, durable: durable)
            return nil
        } catch {
            return error
        }
    }

    /// Writes `bytes` to `path` atomically: a temporary file, flushed, then renamed over.
    /// A reader sees the old file or the new one, never half of one.
    ///
    /// - Parameter durable: flush to the device before the rename (`fsync`). Scratch files a
    ///   run writes for itself (a bundle's view descriptions and models, rewritten by every
    ///   run) skip it; what must survive a crash (restoration archives, results) keeps it.
    static func writeAtomically(_ path: String, _ bytes: UnsafeRawBufferPointer, durable: Bool = true) throws(Failure) {
        let temporary = "\(path).tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .system(operation: "open \(temporary)", errno: errno) }
        func fail(_ operation: String) -> Failure {
            let code = errno
            close(descriptor)
            unlink(temporary)
            return .system(operation: operation, errno: code)
        }
        do {
            try writeAll(descriptor, bytes)
        } catch {
            throw fail("write")
        }
        if durable {
            guard fsync(descriptor) == 0 else { throw fail("fsync") }
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw .system(operation: "rename", errno: code)
        }
    }
}

#if canImport(Glibc)
private let systemRead = Glibc.read
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemRead = Darwin.read
private let systemWrite = Darwin.write
#endif

/// Removes a file, ignoring a missing one.
func unlinkFile(_ path: String) {
    _ = unlink(path)
}
