/// The app-wide data in the device's compressed pool (one region), paged in on resume.
extension Application {
    /// Whether the app-wide data is in the compressed pool.
    public var isAppDataCompressed: Bool { compressedAppData != nil }

    /// Compresses the app-wide data into a new region of `pool`; false when it could not
    /// (what was compressed is read back).
    func compressAppData(into pool: CompressedPool) -> Bool {
        guard compressedAppData == nil else { return true }
        let (ok, region) = pool.compressRegion(of: runtime, pageOut: freezeAppData(to:), pageIn: thawAppData(from:))
        compressedAppData = region
        return ok
    }

    /// Decompresses the app-wide data if it is in the pool; false when it is corrupt.
    func pageInAppData() -> Bool {
        guard let store = compressedAppData else { return true }
        compressedAppData = nil
        return runtime.compressedPool?.decompressRegion(store, of: runtime, pageIn: thawAppData(from:)) ?? thawAppData(from: store)
    }

    /// Drops the app-wide data's region without reading it (the process died).
    func discardCompressedAppData() {
        guard let store = compressedAppData else { return }
        compressedAppData = nil
        runtime.compressedPool?.discard(store, of: runtime)
    }
}
