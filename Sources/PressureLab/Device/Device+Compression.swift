import PressureLabHeap

/// The in-RAM compressor, as iOS compresses suspended apps' memory and Android swaps idle
/// apps' pages into zram before lmkd kills.
///
/// Under pressure, before the termination policy kills or freezes anyone, the device
/// compresses suspended apps' memory, least recently used first, one app at a time, at the
/// profile's page size with a real codec. The compressed bytes are real allocations in the
/// app's ledger: the app's footprint is its resident plus its compressed bytes, and that is
/// what the budget, the kill order and the per-app limits see. Resuming an app decompresses
/// its memory (counted: bytes decompressed, for device time).
extension Device {
    /// The codec of the configured compressor (nil: compression off).
    var pageCodec: PageCodec? {
        switch configuration.compressor {
        case .none: return nil
        case .lz4: return .lz4
        case .zstd: return .zstd
        }
    }

    /// The next app to compress: suspended, not frozen or already compressed, not `sparing`,
    /// least recently used first.
    func compressionCandidate(sparing: InstalledApp?) -> InstalledApp? {
        guard pageCodec != nil else { return nil }
        return apps.filter { $0.app.state == .suspended && !$0.isFrozen && $0.compressedStore == nil && $0 !== sparing && $0 !== foreground }
            .min { $0.useOrder < $1.useOrder }
    }

    /// Compresses a suspended app's memory into the pool; false when it could not (nothing
    /// is lost: what was compressed is read back).
    @discardableResult
    public func compress(_ installed: InstalledApp) -> Bool {
        guard let codec = pageCodec, installed.app.state == .suspended, !installed.isFrozen,
              installed.compressedStore == nil else { return false }
        let store = CompressedMemoryStore(codec: codec, pageBytes: configuration.pageBytes)
        store.gate = installed.app.runtime.memoryGate
        var ok = true
        for controller in installed.app.controllers where ok { ok = controller.freezeMemory(to: store) }
        ok = ok && installed.app.freezeAppData(to: store)
        guard ok else {
            for controller in installed.app.controllers { _ = controller.thawMemory(from: store) }
            _ = installed.app.thawAppData(from: store)
            return false
        }
        let original = store.originalBytes
        installed.app.runtime.count { $0.bytesCompressed += original }
        installed.compressedStore = store
        metrics.compressions += 1
        metrics.bytesCompressed += original
        metrics.bytesStoredCompressed += store.storedBytes
        metrics.compressedBytesNow += store.storedBytes
        metrics.compressedBytesPeak = max(metrics.compressedBytesPeak, metrics.compressedBytesNow)
        installed.app.runtime.trace.record(app: installed.name, controller: nil, .compressed)
        return true
    }

    /// Decompresses an app's memory back (on resume); false when a block is corrupt.
    func decompress(_ installed: InstalledApp) -> Bool {
        guard let store = installed.compressedStore else { return true }
        var ok = true
        for controller in installed.app.controllers where ok { ok = controller.thawMemory(from: store) }
        ok = ok && installed.app.thawAppData(from: store)
        // Cleared only now: while its blocks come back, the app is not a candidate again.
        installed.compressedStore = nil
        metrics.compressedBytesNow -= store.storedBytes
        store.removeAll()
        let original = store.originalBytes
        installed.app.runtime.count { $0.bytesDecompressed += original }
        metrics.decompressions += 1
        installed.app.runtime.trace.record(app: installed.name, controller: nil, .decompressed)
        return ok
    }

    /// Drops an app's compressed memory with its process (a kill): nothing to decompress.
    func discardCompressed(_ installed: InstalledApp) {
        guard let store = installed.compressedStore else { return }
        metrics.compressedBytesNow -= store.storedBytes
        installed.compressedStore = nil
    }
}

extension TraceEventKind {
    /// The app's memory went into the in-RAM compressed pool.
    public static let compressed = TraceEventKind("compressed")
    /// The app's memory came back from the compressed pool.
    public static let decompressed = TraceEventKind("decompressed")
}
