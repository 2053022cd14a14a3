#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SystemPackage

/// The process's temporary files and directories, and their removal however the process
/// ends.
///
/// - Every temporary directory lives under a per-process parent,
///   `<storage>/pressurelab-<pid>-XXXXXX/`, created on first use and removed at exit: the
///   apps' bundles (a run's own files) in the run storage, a tmpfs when the host has one with
///   room (``RunStorage``, ``selectStorage(need:)``), other directories (clean mapped files)
///   on disk, in `$TMPDIR`.
/// - Temporary files elsewhere (an output being written next to its destination) are
///   registered while they exist.
/// - ``finishProcess(status:)`` and ``terminateProcess(afterSignal:)`` remove everything
///   before the process ends; an `atexit` hook does the same for other ways out.
/// - A crash (a trap) removes nothing, so ``sweepStaleParents()`` removes the parents of
///   processes that no longer exist; the command-line tool calls it when it starts.
///
/// All of it is guarded by one lock, which the ends of the process hold until it is gone:
/// a thread that registers, creates or renames under ``withLock(_:)`` cannot interleave
/// with the removal.
public enum TemporaryFiles {
    /// The name every per-process parent directory starts with.
    public static let parentPrefix = "pressurelab-"

    // Safe because every `var` here is read and written with `lock` held (``withLock(_:)``, and
    // the ends of the process, which keep it), save one deliberate case: after a signal, when
    // another thread has held the lock for 5 s, ``terminateProcess(afterSignal:)`` removes the
    // temporaries without it and ends the process. Not `Locked`: that deadline, and the lock
    // is recursive (a registration inside `withLock`).
    private final class State: @unchecked Sendable {
        let lock = NSRecursiveLock()
        var registered: [String] = []
        var parent: String?
        var storageParent: String?
        var storage: RunStorage?
        var exitHookInstalled = false
    }

    private static let state = State()

    /// The system's temporary directory: `$TMPDIR`, or `/tmp` when it is unset or empty.
    public static var systemDirectory: String {
        var base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        while base.count > 1, base.hasSuffix("/") { base.removeLast() }
        return base
    }

    /// Runs `body` with the registry locked: the process cannot remove temporaries (at a
    /// signal or an exit) while it runs. Keep `body` short; it may not block on I/O that
    /// waits for someone else.
    public static func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        state.lock.lock()
        defer { state.lock.unlock() }
        return try body()
    }

    /// Registers a file or directory to remove if the process ends before it is unregistered.
    public static func register(_ path: String) {
        withLock {
            installExitHook()
            state.registered.append(path)
        }
    }

    /// Unregisters a path (it was renamed away, removed, or is kept on purpose).
    public static func unregister(_ path: String) {
        withLock {
            if let index = state.registered.lastIndex(of: path) { state.registered.remove(at: index) }
        }
    }

    /// Creates a fresh directory `<parent>/<prefix>-XXXXXX` under this process's parent
    /// directory in the run storage (``storage``; created first if needed) and returns its
    /// path: for a run's own files.
    public static func makeDirectory(prefix: String) throws(FileError) -> String {
        try withLock { () throws(FileError) -> String in
            let storage = state.storage ?? (try? chooseStorage(need: .minimum)) ?? RunStorage(kind: .disk, directory: systemDirectory)
            state.storage = storage
            let parent = try parentDirectory(in: storage)
            return try makeUniqueDirectory("\(parent)/\(prefix)-XXXXXX", in: parent)
        }
    }

    /// Creates a fresh directory as ``makeDirectory(prefix:)`` does, always on disk (in
    /// `$TMPDIR`): for files whose pages must be droppable (clean mapped files).
    public static func makeDiskDirectory(prefix: String) throws(FileError) -> String {
        try withLock { () throws(FileError) -> String in
            let parent = try parentDirectory(in: RunStorage(kind: .disk, directory: systemDirectory))
            return try makeUniqueDirectory("\(parent)/\(prefix)-XXXXXX", in: parent)
        }
    }

    /// The run storage the next ``makeDirectory(prefix:)`` uses: chosen for `need` by the
    /// rule of ``RunStorage`` from this process's environment and the host's file systems.
    /// Directories made before stay where they are.
    @discardableResult
    public static func selectStorage(need: RunStorage.StorageNeed) throws(RunStorage.Refusal) -> RunStorage {
        try withLock { () throws(RunStorage.Refusal) -> RunStorage in
            let storage = try chooseStorage(need: need)
            state.storage = storage
            return storage
        }
    }

    /// The run storage chosen last (nil before any choice).
    public static var storage: RunStorage? { withLock { state.storage } }

    private static func chooseStorage(need: RunStorage.StorageNeed) throws(RunStorage.Refusal) -> RunStorage {
        let environment = ProcessInfo.processInfo.environment
        let request = try RunStorage.request(in: environment)
        let candidates = request == .disk ? [] : RunStorage.currentCandidates(in: environment)
        return try RunStorage.choose(request: request, candidates: candidates, disk: systemDirectory, need: need)
    }

    /// Removes a file or a directory with everything in it; a missing path is fine. Retries
    /// a few times, so that files another thread creates meanwhile go too.
    public static func removeTree(_ path: String) {
        for _ in 0..<8 {
            guard let info = HostFiles.statusIfPresent(FilePath(path), followingLinks: false) else { return }
            if info.type == .directory {
                try? FileManager.default.removeItem(atPath: path)
            } else {
                HostFiles.remove(FilePath(path))
            }
        }
    }

    /// Removes the parent directories (`pressurelab-<pid>-XXXXXX` in the system's
    /// temporary directory and the tmpfs candidates of ``RunStorage``, owned by this user) of
    /// processes that no longer exist, and returns their paths. A crashed run leaves its
    /// bundles there; the next run sweeps them.
    @discardableResult
    public static func sweepStaleParents() -> [String] {
        var bases = [systemDirectory]
        for path in RunStorage.candidatePaths(in: ProcessInfo.processInfo.environment) where !bases.contains(path) {
            bases.append(path)
        }
        return bases.flatMap(sweepStaleParents(in:))
    }

    private static func sweepStaleParents(in base: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: base) else { return [] }
        var removed: [String] = []
        for name in names {
            guard let pid = processID(ofParentNamed: name), pid != getpid() else { continue }
            let path = "\(base)/\(name)"
            guard let info = HostFiles.statusIfPresent(FilePath(path), followingLinks: false),
                  info.type == .directory, info.userID.rawValue == geteuid() else { continue }
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            removeTree(path)
            removed.append(path)
        }
        return removed
    }

    /// The process ID in a parent directory's name (`pressurelab-<pid>-XXXXXX`), or nil
    /// when the name is not one.
    public static func processID(ofParentNamed name: String) -> pid_t? {
        guard name.hasPrefix(parentPrefix) else { return nil }
        let parts = name.dropFirst(parentPrefix.count).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let digits = parts.first, !digits.isEmpty, digits.allSatisfy(\.isASCII),
              digits.allSatisfy(\.isNumber), let pid = pid_t(digits), pid > 0,
              parts[1].count == 6, parts[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        else { return nil }
        return pid
    }

    /// Removes every registered path and this process's parent directory.
    public static func removeAll() {
        withLock { removeAllLocked() }
    }

    /// Removes every temporary, then exits with `status` (running `atexit` handlers). The
    /// registry stays locked, so a signal arriving meanwhile cannot change the status.
    public static func finishProcess(status: Int32) -> Never {
        state.lock.lock()
        removeAllLocked()
        exit(status)
    }

    /// For a signal that ends the process: removes every temporary and exits at once with
    /// `128 + signal`, as a shell reports a process killed by it. Call it from an ordinary
    /// thread (one that waited for the signal), not from a signal handler. If another
    /// thread holds the registry for more than a few seconds, it cleans up regardless.
    public static func terminateProcess(afterSignal signal: Int32) -> Never {
        _ = state.lock.lock(before: Date(timeIntervalSinceNow: 5))
        removeAllLocked()
        _exit(128 + signal)
    }

    // MARK: - Private

    private static func removeAllLocked() {
        // The run may still be writing into its bundles (a signal arrives while another
        // thread works): move the parent away first, so that every later open or rename
        // under the old paths fails, then remove it. The new name still matches the sweep's
        // pattern, so a process that dies in the middle leaves nothing the next run misses.
        let doomed = [state.parent, state.storageParent].compactMap { $0 }.map { parent in
            let moved = String(parent.dropLast(6) + "gone00")
            return (try? HostFiles.rename(FilePath(parent), to: FilePath(moved))) != nil ? moved : parent
        }
        state.parent = nil
        state.storageParent = nil
        for path in state.registered.reversed() { removeTree(path) }
        state.registered.removeAll()
        for path in doomed { removeTree(path) }
    }

    /// This process's parent directory in `storage` (the disk's in `$TMPDIR`, or the one
    /// in a tmpfs), created on first use. Called with the lock held.
    private static func parentDirectory(in storage: RunStorage) throws(FileError) -> String {
        let onDisk = storage.kind == .disk
        let existing = onDisk ? state.parent : state.storageParent
        if let existing, existing.hasPrefix(storage.directory + "/"),
           HostFiles.statusIfPresent(FilePath(existing), followingLinks: false) != nil {
            return existing
        }
        // A tmpfs parent made earlier in another candidate is left for the end of the process.
        if let existing, !onDisk { state.registered.append(existing) }
        let base = storage.directory
        let made = try makeUniqueDirectory("\(base)/\(parentPrefix)\(getpid())-XXXXXX", in: base)
        installExitHook()
        if onDisk { state.parent = made } else { state.storageParent = made }
        return made
    }

    /// A new directory from a template ending in `XXXXXX`; the error names `parent`.
    private static func makeUniqueDirectory(_ template: String, in parent: String) throws(FileError) -> String {
        do {
            return try HostFiles.makeUniqueDirectory(template: FilePath(template)).string
        } catch {
            throw FileError(.createDirectory, FilePath(parent), error.errno)
        }
    }

    /// Removes what is left when the process exits some other way (a library user's
    /// process, `exit` elsewhere). Skipped if another thread holds the registry.
    private static func installExitHook() {
        guard !state.exitHookInstalled else { return }
        state.exitHookInstalled = true
        atexit {
            guard TemporaryFiles.state.lock.try() else { return }
            TemporaryFiles.removeAllLocked()
            TemporaryFiles.state.lock.unlock()
        }
    }
}
