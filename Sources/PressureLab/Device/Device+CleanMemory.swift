/// Clean file-backed memory on the device: apps' code and resources in the page cache.
///
/// Clean pages are not dirty memory: XNU counts file-backed pages as available
/// (`VM_CHECK_MEMORYSTATUS`, `osfmk/vm/vm_page.h`) and leaves them out of `phys_footprint`;
/// the kernel drops them under pressure and reads them back when touched. So the budget, the
/// pressure level and the kill thresholds see dirty memory only, and clean pages fill what is
/// left: when dirty and clean together exceed the budget, clean pages go (those of the least
/// recently used apps first, dead apps' included; the foreground app's last), and every clean
/// page of the apps not in front goes before the termination policy kills anyone.
extension Device {
    /// Bytes of clean pages resident now, every app's (measured with `mincore`).
    public var cleanResidentBytes: Int { apps.reduce(0) { $0 + $1.app.cleanResidentBytes } }

    /// Drops clean pages, least recently used apps first, until dirty and clean memory fit the
    /// budget. Returns the bytes dropped.
    @discardableResult
    func trimPageCache() -> Int {
        let dirty = usedBytes
        var clean = cleanResidentBytes
        guard clean > 0, dirty.addingSaturating(clean) > model.budgetBytes else { return 0 }
        var dropped = 0
        for installed in appsByDropOrder() where dirty.addingSaturating(clean) > model.budgetBytes {
            let freed = installed.app.dropCleanMemory()
            clean -= freed
            dropped += freed
        }
        metrics.cleanBytesDropped += dropped
        return dropped
    }

    /// Drops every clean page of the apps not in front (before a kill). Returns the bytes.
    @discardableResult
    func dropBackgroundCleanPages(sparing: InstalledApp?) -> Int {
        var dropped = 0
        for installed in appsByDropOrder() where installed !== foreground && installed !== sparing {
            dropped += installed.app.dropCleanMemory()
        }
        metrics.cleanBytesDropped += dropped
        return dropped
    }

    /// Apps in the order their clean pages go: not in front before in front, then least
    /// recently used first.
    private func appsByDropOrder() -> [InstalledApp] {
        apps.filter { $0.app.cleanBytes > 0 }
            .sorted { ($0 === foreground ? 1 : 0, $0.useOrder) < ($1 === foreground ? 1 : 0, $1.useOrder) }
    }

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
