import PressureLabHeap
import SystemPackage

/// The freezer: a suspended app's memory written to a file (compressed, with a codec) and
/// freed, and read back on its next launch (a thaw), as iOS's freezer and Android's app
/// freezer with swap do. Device time: the storage written and read, plus compression.
extension Device {
    /// Writes a suspended app's memory to its freezer file and frees it.
    @discardableResult
    public func freeze(_ installed: InstalledApp) -> Bool {
        // An app whose memory is in the compressed pool is not frozen (the pool comes first).
        guard installed.app.state == .suspended, !installed.isFrozen, !installed.isCompressed else { return false }
        let path = freezerPath(installed)
        guard let file = try? FreezerFile(path: path, mode: .write) else { return false }
        // With a compressor, the freezer writes compressed pages (and a thaw decompresses).
        let store: any PageStore = compressingStore(file) ?? file
        var ok = true
        for controller in installed.app.controllers where ok { ok = controller.freezeMemory(to: store) }
        ok = ok && installed.app.freezeAppData(to: store)
        ok = ok && file.sync()
        file.close()
        let written = file.bytesTransferred
        guard ok else {
            // A failed write leaves what was written frozen: read it back before giving up.
            if let reader = try? FreezerFile(path: path, mode: .read) {
                let readStore: any PageStore = compressingStore(reader) ?? reader
                for controller in installed.app.controllers { _ = controller.thawMemory(from: readStore) }
                _ = installed.app.thawAppData(from: readStore)
            }
            removeFreezerFile(installed)
            return false
        }
        if let compressing = store as? CompressingPageStore {
            let original = compressing.originalBytes
            installed.app.runtime.count { $0.bytesCompressed += original }
        }
        freezeBudgetBytes -= written
        installed.app.runtime.count { work in
            work.storageWriteBytes += written
            work.storageWrites += 1
        }
        metrics.freezes += 1
        metrics.frozenBytesWritten += written
        installed.isFrozen = true
        installed.app.runtime.trace.record(app: installed.name, controller: nil, .frozen)
        return true
    }

    func thaw(_ installed: InstalledApp) throws {
        let file = try FreezerFile(path: freezerPath(installed), mode: .read)
        file.gate = installed.app.runtime.memoryGate
        let compressing = compressingStore(file)
        let store: any PageStore = compressing ?? file
        for controller in installed.app.controllers {
            guard controller.thawMemory(from: store) else {
                throw RuntimeError.bundle(path: file.path, reason: "the freezer file is shorter than the frozen memory, or corrupt")
            }
        }
        guard installed.app.thawAppData(from: store) else {
            throw RuntimeError.bundle(path: file.path, reason: "the freezer file is shorter than the frozen memory, or corrupt")
        }
        if let compressing {
            let original = compressing.originalBytes
            installed.app.runtime.count { $0.bytesDecompressed += original }
        }
        file.close()
        let read = file.bytesTransferred
        installed.app.runtime.count { work in
            work.storageReadBytes += read
            work.storageReads += 1
        }
        installed.isFrozen = false
        removeFreezerFile(installed)
    }

    private func freezerPath(_ installed: InstalledApp) -> String {
        "\(installed.app.runtime.bundle.directory)/\(installed.name).frozen"
    }

    /// With a compressor, the freezer writes and reads compressed pages through `file`.
    private func compressingStore(_ file: FreezerFile) -> CompressingPageStore? {
        compressedPool.map { CompressingPageStore(file: file, codec: $0.codec, pageBytes: $0.pageBytes) }
    }

    func removeFreezerFile(_ installed: InstalledApp) {
        HostFiles.remove(FilePath(freezerPath(installed)))
    }
}

extension TraceEventKind {
    /// A launch (cold, resume or thaw) began and ended: a duration in a Chrome trace.
    public static let launchBegan = TraceEventKind("launchBegan")
    public static let launchEnded = TraceEventKind("launchEnded")
    public static let frozen = TraceEventKind("frozen")
    public static let thawed = TraceEventKind("thawed")
}
