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
        let path = FilePath(CleanStorage.directory(bundle: runtime.bundle.directory) + "/\(name).code")
        do {
            let mapping = try CleanMapping.create(at: path, bytes: cleanBytes, seed: UInt64(truncatingIfNeeded: name.hashValueStable))
            cleanMapping = mapping
            return mapping
        } catch {
            throw RuntimeError.bundle(path: path.string, reason: "cannot map the app's code and resources: \(error.summary)")
        }
    }
}

/// Where clean mapped files live: the bundle's directory, unless it is on tmpfs (memory,
/// where nothing can be dropped): then `/var/tmp`.
enum CleanStorage {
    static func directory(bundle: String) -> String {
        CleanMapping.isOnTmpfs(FilePath(bundle)) ? "/var/tmp" : bundle
    }
}

extension TraceEventKind {
    /// Clean pages (code, resources) had to be read from storage, or were dropped.
    public static let cleanPagesRead = TraceEventKind("cleanPagesRead")
    public static let cleanPagesDropped = TraceEventKind("cleanPagesDropped")
}
