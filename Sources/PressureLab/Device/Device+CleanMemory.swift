/// Clean file-backed memory on the device: apps' code and resources in the page cache, which
/// the kernel drops under pressure (`MemorySystem.trimPageCache(on:)`, Systems/PageCache.swift).
extension Device {
    /// Bytes of clean pages resident now, every app's (measured with `mincore`).
    public var cleanResidentBytes: Int { apps.reduce(0) { $0 + $1.app.cleanResidentBytes } }

    /// The per-platform footprint of all apps now: XNU's `phys_footprint` (dirty, compressed
    /// memory at its uncompressed size, clean pages left out) on iOS; on Android the
    /// proportional set size as `dumpsys meminfo` reports it (resident dirty memory plus the
    /// clean pages mapped by a live process; zram-swapped pages left out).
    public var platformFootprintBytes: Int {
        apps.reduce(0) { total, installed in
            installed.app.state.hasProcess ? total + system.platformFootprint(of: installed) : total
        }
    }
}
