
/// The freezer: a suspended app's memory written to a file (compressed, with a codec) and
/// freed, and read back on its next launch (a thaw), as iOS's freezer and Android's app
/// freezer with swap do. Device time: the storage written and read, plus compression.
extension Device {
    /// Writes a suspended app's memory to its freezer file and frees it.
    @discardableResult
    public func freeze(_ installed: InstalledApp) -> Bool {
        // An app whose memory is in the compressed pool is not frozen (the pool comes first).
        guard installed.app.state == .suspended, !installed.isFrozen, !installed.isCompressed else { return false }
        guard let written = freezer.freeze(installed.app, name: installed.name) else { return false }
        installed.app.runtime.count { work in
            work.bytesCompressed += written.originalBytes ?? 0
            work.storageWriteBytes += written.storageBytes
            work.storageWrites += 1
        }
        metrics.freezes += 1
        metrics.frozenBytesWritten += written.storageBytes
        installed.isFrozen = true
        installed.app.runtime.trace.record(app: installed.name, controller: nil, .frozen)
        return true
    }

    func thaw(_ installed: InstalledApp) throws {
        let read = try freezer.thaw(installed.app, name: installed.name)
        installed.app.runtime.count { work in
            work.bytesDecompressed += read.originalBytes ?? 0
            work.storageReadBytes += read.storageBytes
            work.storageReads += 1
        }
        installed.isFrozen = false
    }

    func removeFreezerFile(_ installed: InstalledApp) {
        freezer.remove(installed.app, name: installed.name)
    }
}

extension TraceEventKind {
    /// A launch (cold, resume or thaw) began and ended: a duration in a Chrome trace.
    public static let launchBegan = TraceEventKind("launchBegan")
    public static let launchEnded = TraceEventKind("launchEnded")
    public static let frozen = TraceEventKind("frozen")
    public static let thawed = TraceEventKind("thawed")
}
