import PressureLab
import PressureLabHeap

extension Scenario {
    /// What the run's own files (view descriptions, model files, archives, freezer files, a
    /// swap file) need of a tmpfs (docs/formats.md, "Storage"): room for the device's budget
    /// (what freezer files and archives can hold at most), the model files the script can show
    /// and the swap file's size (its 1 MiB slots may hold up to a slot more a region, which is
    /// not counted), and that many bytes left of `hostLimitBytes` after the scenario's declared
    /// worst case, since files on tmpfs are memory.
    public func storageNeed(swapFileBytes: Int?, hostLimitBytes: Int) -> RunStorage.StorageNeed {
        let files = device.memoryBytes.addingSaturating(declaredModelFileBytes).addingSaturating(swapFileBytes ?? 0)
        let worst = declaredMemory.worstCaseBytes(budgetBytes: device.memoryBytes)
        return RunStorage.StorageNeed(bytes: files, memoryRoomBytes: hostLimitBytes - worst)
    }
}
