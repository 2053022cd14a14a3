import PressureLab

/// The device a scenario declares.
extension DeviceModel {
    /// The device a scenario runs on: the scenario's budget, thresholds, limits and app
    /// life-cycle release (of the profile's platform, `OSRelease.appLifeCycleRelease(named:)`),
    /// and its profile's memory, page size, compressor, system release, costs and contents (the scenario's `device.content` overriding the profile's, kind by kind).
    /// Without a profile: 4 KiB pages, no compressor, host time only, a constant fill.
    /// At a `device.memory_scale` of N the profile's byte capacities (zram, a swap file) are
    /// 1/N as the scenario's figures are, and its throughputs charge each byte N times
    /// (`CostModel/chargingBytes(atScale:)`); its physical memory, which chooses XNU's size
    /// class, stays the phone's.
    ///
    /// - Parameters:
    ///   - scenario: the scenario whose device this is.
    ///   - profile: the device profile in force; nil: host time only.
    ///   - compressor: in place of the profile's (`--compressor`).
    ///   - seed: the run's seed (realistic contents are drawn from it).
    ///   - swapFileBytes: a swap file on flash (experiments use one).
    public init(scenario: Scenario, profile: DeviceProfile?, compressor: Compressor? = nil, seed: UInt64,
                swapFileBytes: Int? = nil) {
        let device = scenario.device, scale = device.memoryScale
        self.init(budgetBytes: device.memoryBytes, thresholds: device.thresholds, appLimitBytes: device.appLimitBytes,
                  appLimitInactiveBytes: device.appLimitInactiveBytes,
                  compressor: compressor ?? profile?.compressor ?? Compressor.none, pageBytes: profile?.pageBytes ?? 4096,
                  os: (profile?.release ?? .iOS12).appLifeCycleRelease(named: device.os),
                  purgesBackingStoresInBackground: profile != nil, release: profile?.release ?? .iOS12, memoryBytes: profile?.memoryBytes, swapFileBytes: swapFileBytes.map { $0 / scale },
                  costs: profile?.costs.chargingBytes(atScale: scale), contents: profile?.contents(overriding: device.content, seed: seed))
        if self.compressor != .none { zramBytes = profile?.zramBytes.map { $0 / scale } }
        if device.memoryModel == .kernel, var inputs = profile?.kernel {
            // At a memory scale of N the system's memory is 1/N as the apps' is.
            for keyPath in [\LinuxMemoryInputs.memTotalBytes, \.kernelBytes, \.systemAnonBytes, \.systemExecBytes, \.systemFileBytes,
                            \.coldCacheBytes] {
                inputs[keyPath: keyPath] /= scale
            }
            inputs.systemAnonBytes += device.lockedBytes / scale
            kernel = inputs
        }
    }
}
