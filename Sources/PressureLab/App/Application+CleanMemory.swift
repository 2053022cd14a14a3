import Foundation
import PressureLabHeap
import SystemPackage

/// The app's clean file-backed memory: its code and resources, mapped from a real file (see
/// ``CleanMapping``). The file is the app's (as installed code is): made the first time the
/// app runs, kept across kills. Pages come in when touched (a cold launch touches all of
/// them, a resume all of them again: the code runs) and what had to be read is counted as
/// storage read (device time: `storage_read`); the device drops them under pressure
/// (``Device``), whether the process lives or not, and the next touch reads them back.
extension Application {
    /// Touches the app's code and resources (mapping them the first time), counting what had
    /// to be read from storage: the bytes that became resident (measured with `mincore`).
    func touchCleanMemory() throws(RuntimeError) {
        guard cleanBytes > 0 else { return }
        let refault = cleanMapping != nil
        let mapping = try cleanMappingCreatingIfNeeded()
        let before = mapping.residentBytes()
        mapping.touch()
        let read = max(0, mapping.residentBytes() - before)
        if read > 0 {
            runtime.count { work in
                work.storageReadBytes += read
                work.storageReads += 1
            }
            recordApp(.cleanPagesRead)
            runtime.memoryGate.admission?.filePagesRead(read, refault: refault)
        }
    }

    /// Bytes of the app's code and resources resident now (0 before it first ran).
    public var cleanResidentBytes: Int { cleanMapping?.residentBytes() ?? 0 }

    /// Drops the app's clean pages (the kernel reclaiming clean memory); returns the bytes
    /// that were resident.
    @discardableResult
    func dropCleanMemory() -> Int {
        guard let mapping = cleanMapping else { return 0 }
        let resident = mapping.residentBytes()
        guard resident > 0 else { return 0 }
        mapping.drop()
        recordApp(.cleanPagesDropped)
        return resident
    }

    private func cleanMappingCreatingIfNeeded() throws(RuntimeError) -> CleanMapping {
        if let cleanMapping { return cleanMapping }
        let mapping = try CleanStorage.mapping(app: name, bytes: cleanBytes)
        cleanMapping = mapping
        return mapping
    }
}

/// Where clean mapped files live: one file per app name and size in a directory of the
/// process's own (removed at exit), shared by every run of the process as an installed app's
/// code is, on a disk file system (`$TMPDIR`, or `/var/tmp` when that is tmpfs, where nothing
/// could be dropped). A mapping drops its file from the page cache when made, so every run
/// starts with none of it resident.
///
/// A file is mapped by one live mapping at a time: residency is measured for the whole file,
/// so two simulations running at once in one process (parallel tests, a host embedding two
/// devices) would each count the pages the other brought in. While a file is mapped, another
/// mapping of the same app and size gets a file of its own (`APP-BYTES-1.code`, ...); one run
/// at a time, as the command line runs them, always maps the first.
enum CleanStorage {
    /// The directory, once made; its lock also keeps two threads from writing one file.
    private static let state = Locked<String?>(nil)
    /// The files a live mapping holds now.
    private static let inUse = Locked<Set<String>>([])

    /// Maps a file of `app`'s code and resources of `bytes` bytes that no live mapping holds,
    /// writing it the first time.
    static func mapping(app: String, bytes: Int) throws(RuntimeError) -> CleanMapping {
        let directory = try self.directory()
        let seed = UInt64(truncatingIfNeeded: app.hashValueStable)
        let path = claim("\(directory)/\(app)-\(bytes)")
        do throws(FileError) {
            let mapping = try state.withLock { _ throws(FileError) in
                if (try? HostFiles.size(of: path)) == bytes { return try CleanMapping(mapping: path, bytes: bytes) }
                return try CleanMapping.create(at: path, bytes: bytes, seed: seed)
            }
            let held = path.string
            mapping.onUnmap = { inUse.withLock { _ = $0.remove(held) } }
            return mapping
        } catch {
            _ = inUse.withLock { $0.remove(path.string) }
            throw RuntimeError.bundle(path: path.string, reason: "cannot map the app's code and resources: \(error.summary)")
        }
    }

    /// The first of `stem.code`, `stem-1.code`, ... that no live mapping holds, now held.
    private static func claim(_ stem: String) -> FilePath {
        inUse.withLock { held in
            var path = "\(stem).code"
            var copy = 0
            while held.contains(path) {
                copy += 1
                path = "\(stem)-\(copy).code"
            }
            held.insert(path)
            return FilePath(path)
        }
    }

    private static func directory() throws(RuntimeError) -> String {
        try state.withLock { made throws(RuntimeError) in
            if let made { return made }
            let directory: String
            if CleanMapping.isOnTmpfs(FilePath(TemporaryFiles.systemDirectory)) {
                directory = "/var/tmp/\(TemporaryFiles.parentPrefix)clean-\(ProcessInfo.processInfo.processIdentifier)"
                do throws(FileError) {
                    try HostFiles.makeDirectories(FilePath(directory))
                } catch {
                    throw RuntimeError.bundle(path: directory, reason: error.summary)
                }
                TemporaryFiles.register(directory)
            } else {
                do throws(FileError) {
                    directory = try TemporaryFiles.makeDiskDirectory(prefix: "clean")
                } catch {
                    throw RuntimeError.bundle(path: error.path.string, reason: "cannot create a temporary directory: \(error.reason)")
                }
            }
            made = directory
            return directory
        }
    }
}

extension TraceEventKind {
    /// Clean pages (code, resources) had to be read from storage, or were dropped.
    public static let cleanPagesRead = TraceEventKind("cleanPagesRead")
    /// The device dropped clean file pages of the app.
    public static let cleanPagesDropped = TraceEventKind("cleanPagesDropped")
}
