import PressureLab

extension DeviceExperiment {
    /// What swap and the runtime did in a configuration's workload (device counters).
    public struct SwapActivity: Codable, Sendable, Equatable {
        /// Collections Android's runtime ran in the background (`BackgroundCollection`).
        public var backgroundCollections = 0
        /// Regions those collections read back from zram or the swap file.
        public var collectionPageIns = 0
        /// Bytes those regions hold.
        public var collectionPageInBytes = 0
        /// Bytes written to the swap file.
        public var swappedOutBytes = 0

        /// Counters of a workload (all 0: nothing swapped, no collection).
        public init(backgroundCollections: Int = 0, collectionPageIns: Int = 0, collectionPageInBytes: Int = 0,
                    swappedOutBytes: Int = 0) {
            (self.backgroundCollections, self.collectionPageIns) = (backgroundCollections, collectionPageIns)
            (self.collectionPageInBytes, self.swappedOutBytes) = (collectionPageInBytes, swappedOutBytes)
        }
    }
}

/// Each app's memory while it is alive and not in front (as PSS + swap counts it), summed step
/// by step.
final class BackgroundMemory {
    private var sums: [String: (bytes: Int, steps: Int)] = [:]

    /// The device's swap and collection counters as last sampled.
    private(set) var swapActivity = DeviceExperiment.SwapActivity()
    /// The kernel's reclaim counters as last sampled (nil: a device with a budget).
    private(set) var kernelReclaim: LinuxMemoryCounters?

    func sample(_ device: Device) {
        let metrics = device.metrics
        swapActivity = DeviceExperiment.SwapActivity(backgroundCollections: metrics.backgroundCollections,
                                                     collectionPageIns: metrics.collectionPageIns,
                                                     collectionPageInBytes: metrics.collectionPageInBytes,
                                                     swappedOutBytes: metrics.swappedOutBytes)
        kernelReclaim = device.kernelBooks?.counters
        for installed in device.apps where installed.app.state.hasProcess && installed !== device.foreground {
            let sum = sums[installed.name] ?? (0, 0)
            // As PSS + swap counts it: the anonymous memory (what is swapped or compressed at its
            // own size) and the clean file pages resident now.
            let runtime = installed.app.runtime
            let bytes = installed.bytes - runtime.compressedBytes + runtime.compressedOriginalBytes + runtime.swappedBytes
                + installed.app.cleanResidentBytes
            sums[installed.name] = (sum.bytes.addingSaturating(bytes), sum.steps + 1)
        }
    }

    /// The mean by app, bytes.
    var means: [String: Int] { sums.mapValues { $0.bytes / max(1, $0.steps) } }
}
