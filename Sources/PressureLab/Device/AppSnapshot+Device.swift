/// An app as a termination policy sees it, read from the device and from each kernel's record
/// of its process.
extension AppSnapshot {
    /// `installed` on `device` now: the device's view (its state, whether it is in front, its
    /// use order and background mode, the bytes its system counts, ``MemorySystem/policyBytes(of:)``),
    /// XNU's memorystatus record (band, order in it, freezer state), ActivityManager's record
    /// (`oom_score_adj`, slot order, trim level, since when it is cached, its last compaction)
    /// and its runtime's memory (resident, clean, compressed or swapped).
    init(of installed: Device.InstalledApp, on device: Device) {
        self.init(name: installed.name, state: installed.app.state, isForeground: installed === device.foreground,
                  isFrozen: installed.isFrozen, bytes: device.system.policyBytes(of: installed),
                  lastUsed: installed.lastUsed,
                  useOrder: installed.useOrder, band: installed.band, oomScoreAdj: installed.oomScoreAdj,
                  isCompressed: installed.isCompressed, footprintBytes: installed.footprintBytes,
                  bandOrder: installed.bandOrder, adjOrder: installed.adjOrder, hasBeenFrozen: installed.hasBeenFrozen,
                  isRefreezeEligible: installed.isRefreezeEligible, runningBackgroundMode: installed.runningBackgroundMode,
                  isPrevious: installed === device.previous, trimLevel: installed.trimLevel,
                  isUIHiddenPending: installed.isUIHiddenPending, cachedSince: installed.cachedSince)
        let runtime = installed.app.runtime
        anonResidentBytes = installed.bytes - runtime.compressedBytes
        cleanResidentBytes = installed.app.cleanResidentBytes
        swappedBytes = runtime.compressedOriginalBytes + runtime.swappedBytes
        lastCompaction = installed.lastCompaction
    }

    /// The app as if in front (the app whose allocation waits): jetsam's foreground band,
    /// `oom_score_adj` 0 (``LowMemoryKillerRules/foregroundAdj``).
    mutating func treatAsInFront() {
        isForeground = true
        band = .foreground
        oomScoreAdj = LowMemoryKillerRules.foregroundAdj
    }
}
