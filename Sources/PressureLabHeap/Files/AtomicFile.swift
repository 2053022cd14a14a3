#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// A file that replaces its destination in one step: written to a temporary beside it
/// (`NAME.tmp-<pid>-<random>`, created exclusively), flushed, then renamed over it. A
/// reader sees the old file or the new one, never half of one.
///
/// Writes never throw: the first failure is kept in ``failure`` and later writes are
/// skipped, so that a stream can be written from non-throwing code; ``finish(durable:)``
/// throws it.
public final class AtomicFile {
    /// The file replaced at ``replaceDestination()``.
    public let destination: FilePath
    /// The temporary the bytes go to until then.
    public let temporary: FilePath
    /// The first failure, if any.
    public private(set) var failure: FileError?
    private let file: SequentialFile
    private var state = State.writing

    private enum State { case writing, finished, done }

    /// Creates the temporary beside `destination`, with `permissions`.
    public init(replacing destination: FilePath, permissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead]) throws(FileError) {
        self.destination = destination
        var lastError = FileError(.open, destination, .fileExists)
        for _ in 0..<16 {
            let name = FilePath("\(destination.string).tmp-\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 36))")
            do {
                file = try SequentialFile(creatingNew: name, permissions: permissions)
                temporary = name
                return
            } catch {
                guard error.errno == .fileExists else { throw FileError(.open, destination, error.errno) }
                lastError = error
            }
        }
        throw lastError
    }

    deinit { discard() }

    /// Removes temporaries of `destination` (`NAME.tmp-<pid>-<random>` beside it) whose
    /// process is gone: what a writer killed with SIGKILL left. A temporary whose process
    /// id is alive is kept, whoever holds that id now (process ids are reused), and so is one
    /// changed in the last minute (a writer on another host or in another process namespace,
    /// whose id this host cannot see), so that a writer still at work never loses its file.
    /// Returns the paths removed.
    @discardableResult
    public static func removeAbandonedTemporaries(of destination: FilePath) -> [FilePath] {
        guard let name = destination.lastComponent?.string else { return [] }
        let parent = destination.removingLastComponent()
        let directory = parent.isEmpty ? FilePath(".") : parent
        let prefix = "\(name).tmp-"
        var removed: [FilePath] = []
        for entry in HostFiles.entries(of: directory) where entry.hasPrefix(prefix) {
            let rest = entry.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0, pid != getpid(),
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            let path = directory.appending(entry)
            guard let status = HostFiles.statusIfPresent(path, followingLinks: false), status.type == .regular,
                  time(nil) - status.st_mtim.tv_sec > 60 else { continue }
            HostFiles.remove(path)
            removed.append(path)
        }
        return removed
    }

    /// Sets the temporary's permission bits (kept by the rename).
    public func setPermissions(_ permissions: FilePermissions) throws(FileError) {
        try file.setPermissions(permissions)
    }

    /// Writes bytes (skipped after a failure, which is kept in ``failure``).
    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil, state == .writing else { return }
        do {
            try file.write(bytes)
        } catch {
            failure = FileError(error.operation, destination, error.errno)
        }
    }

    /// Ends the writing: flushes the temporary to disk (unless `durable` is false) and
    /// closes it. On a failure the temporary is removed and the failure thrown.
    public func finish(durable: Bool = true) throws(FileError) {
        guard state == .writing else {
            if let failure { throw failure }
            return
        }
        state = .finished
        if failure == nil, durable {
            do { try file.sync() } catch { failure = FileError(error.operation, destination, error.errno) }
        }
        if failure == nil {
            do { try file.closeReportingFailure() } catch { failure = FileError(error.operation, destination, error.errno) }
        }
        if let failure {
            discard()
            throw failure
        }
    }

    /// Moves the temporary over the destination (after ``finish(durable:)``).
    public func replaceDestination() throws(FileError) {
        try finish()
        guard state == .finished else {
            if let failure { throw failure }
            return
        }
        state = .done
        do {
            try HostFiles.rename(temporary, to: destination)
        } catch {
            HostFiles.remove(temporary)
            failure = error
            throw error
        }
    }

    /// ``finish(durable:)`` then ``replaceDestination()``.
    public func commit(durable: Bool = true) throws(FileError) {
        try finish(durable: durable)
        try replaceDestination()
    }

    /// Abandons the file: closes and removes the temporary; the destination stays as it
    /// was. Closing twice is fine.
    public func discard() {
        guard state != .done else { return }
        state = .done
        // A commit after this throws, rather than report a file it never wrote.
        if failure == nil { failure = FileError(.write, destination, .canceled) }
        file.close()
        HostFiles.remove(temporary)
    }
}
