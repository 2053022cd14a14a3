/// The compressor and the swap file as the device asks them when it wants room
/// (``MemoryCompressor``, ``LinuxSwapFile``).
extension Device {
    /// Compresses what a suspended app still holds uncompressed into the pool; false when
    /// it could not (nothing is lost: what was compressed of a failed region is read back).
    @discardableResult
    public func compress(_ installed: InstalledApp) -> Bool { compressor?.compress(installed, on: self) ?? false }

    /// Bytes of the swap file in use now.
    public var swappedBytes: Int { swapSpace?.usedBytes ?? 0 }

    /// The next app to compress (``MemoryCompressor/candidate(sparing:on:)``).
    func compressionCandidate(sparing: InstalledApp?) -> InstalledApp? { compressor?.candidate(sparing: sparing, on: self) }

    /// The zram device's free room (``MemoryCompressor/freeBytes(on:)``).
    var zramFreeBytes: Int? { compressor?.freeBytes(on: self) }

    /// Uncompressed bytes in the pool now (``MemoryCompressor/usedBytes(on:)``).
    var zramUsedBytes: Int { compressor?.usedBytes(on: self) ?? 0 }

    /// The next app to swap from (``LinuxSwapFile/candidate(sparing:on:)``).
    func swapCandidate(sparing: InstalledApp?) -> InstalledApp? { swapFile?.candidate(sparing: sparing, on: self) }

    /// Swaps one region of a suspended app out (``LinuxSwapFile/swapOut(_:on:)``).
    @discardableResult
    func swapOut(_ installed: InstalledApp) -> Bool { swapFile?.swapOut(installed, on: self) ?? false }
}
