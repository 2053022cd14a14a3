/// The compressor and the swap file as the device asks them when it wants room
/// (``MemoryCompressor``, ``LinuxSwapFile``).
extension Device {
    /// Compresses what a suspended app still holds uncompressed into the pool; false when
    /// it could not (nothing is lost: what was compressed of a failed region is read back).
    @discardableResult
    public func compress(_ installed: InstalledApp) -> Bool { compressor?.compress(installed, on: self) ?? false }

    /// Bytes of the swap file in use now.
    public var swappedBytes: Int { swapSpace?.usedBytes ?? 0 }

    /// Swaps one region of a suspended app out (``LinuxSwapFile/swapOut(_:on:)``).
    @discardableResult
    func swapOut(_ installed: InstalledApp) -> Bool { swapFile?.swapOut(installed, on: self) ?? false }
}
