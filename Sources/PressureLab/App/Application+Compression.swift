/// The app-wide data in the device's compressed pool (one region), paged in on resume.
extension Application {
    /// Whether the app-wide data is in the compressed pool.
    public var isAppDataCompressed: Bool { compressedAppData != nil }

    /// Compresses the app-wide data into a new region of `pool`; false when it could not
    /// (what was compressed is read back).
    func compressAppData(into pool: CompressedPool) -> Bool {
        guard compressedAppData == nil, swappedAppData == nil else { return true }
        let (ok, region) = pool.compressRegion(of: runtime, pageOut: freezeAppData(to:), pageIn: thawAppData(from:))
        compressedAppData = region
        return ok
    }

    /// Decompresses the app-wide data if it is in the pool, or reads it back from the swap
    /// file; false when it is corrupt.
    func pageInAppData() -> Bool {
        guard swapInAppData() else { return false }
        guard let store = compressedAppData else { return true }
        compressedAppData = nil
        return runtime.compressedPool?.decompressRegion(store, of: runtime, pageIn: thawAppData(from:)) ?? thawAppData(from: store)
    }

    /// Moves the app-wide data's region to the freezer's `file` as it is (compressed); false
    /// when the write failed.
    func relocateCompressedAppData(to file: CompressingPageStore) -> Bool {
        guard let region = compressedAppData else { return true }
        var ok = true
        if let appData {
            runtime.ledger.measure(owner: appDataOwner) { ok = appData.relocateFrozen { region.moveBlock(count: $0, to: file) } }
        }
        compressedAppData = nil
        runtime.compressedPool?.relocated(region, of: runtime)
        return ok
    }

    /// Drops the app-wide data's region without reading it (the process died).
    func discardCompressedAppData() {
        guard let store = compressedAppData else { return }
        compressedAppData = nil
        runtime.compressedPool?.discard(store, of: runtime)
    }
}
