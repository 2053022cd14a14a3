/// The page cache on a device with a budget (without Linux's books, ``LinuxKernel``): apps'
/// code and resources, clean file-backed memory, dropped under pressure.
///
/// Clean pages are not dirty memory: XNU counts file-backed pages as available
/// (`VM_CHECK_MEMORYSTATUS`, `osfmk/vm/vm_page.h`) and leaves them out of `phys_footprint`;
/// the kernel drops them under pressure and reads them back when touched. So the budget, the
/// pressure level and the kill thresholds see dirty memory only, and clean pages fill what is
/// left: when dirty and clean together exceed the budget, clean pages go (those of the least
/// recently used apps first, dead apps' included; the foreground app's last), and every clean
/// page of the apps not in front goes before the termination policy kills anyone.
///
/// Every system drops them so (XNU as described; Android on a budget device, an estimate); the
/// device asks at each evaluation of pressure and before a kill.
extension MemorySystem {
    /// Drops clean pages of `device`, least recently used apps first, until dirty and clean
    /// memory fit the budget. Returns the bytes dropped.
    @discardableResult
    func trimPageCache(on device: Device) -> Int {
        let dirty = device.usedBytes
        var clean = device.cleanResidentBytes
        guard clean > 0, dirty.addingSaturating(clean) > device.model.budgetBytes else { return 0 }
        var dropped = 0
        for installed in appsByDropOrder(on: device) where dirty.addingSaturating(clean) > device.model.budgetBytes {
            let freed = installed.app.dropCleanMemory()
            clean -= freed
            dropped += freed
        }
        device.metrics.cleanBytesDropped += dropped
        return dropped
    }

    /// Drops every clean page of the apps not in front (before a kill). Returns the bytes.
    @discardableResult
    func dropBackgroundCleanPages(sparing: Device.InstalledApp?, on device: Device) -> Int {
        var dropped = 0
        for installed in appsByDropOrder(on: device) where installed !== device.foreground && installed !== sparing {
            dropped += installed.app.dropCleanMemory()
        }
        device.metrics.cleanBytesDropped += dropped
        return dropped
    }

    /// Apps in the order their clean pages go: not in front before in front, then least
    /// recently used first.
    private func appsByDropOrder(on device: Device) -> [Device.InstalledApp] {
        let foreground = device.foreground
        return device.apps.filter { $0.app.cleanBytes > 0 }
            .sorted { ($0 === foreground ? 1 : 0, $0.useOrder) < ($1 === foreground ? 1 : 0, $1.useOrder) }
    }
}
