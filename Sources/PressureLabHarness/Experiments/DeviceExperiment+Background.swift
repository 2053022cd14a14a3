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
        /// The most the swap file held at once, bytes (0: no swap file, or nothing swapped):
        /// how near the workload came to filling it (``swapFileBytes``).
        public var swapPeakBytes = 0
        /// The swap file's capacity, bytes (0: no swap file).
        public var swapFileBytes = 0

        /// Counters of a workload (all 0: nothing swapped, no collection).
        public init(backgroundCollections: Int = 0, collectionPageIns: Int = 0, collectionPageInBytes: Int = 0,
                    swappedOutBytes: Int = 0, swapPeakBytes: Int = 0, swapFileBytes: Int = 0) {
            (self.backgroundCollections, self.collectionPageIns) = (backgroundCollections, collectionPageIns)
            (self.collectionPageInBytes, self.swappedOutBytes) = (collectionPageInBytes, swappedOutBytes)
            (self.swapPeakBytes, self.swapFileBytes) = (swapPeakBytes, swapFileBytes)
        }

        // Decoded from older results as well: the swap file's peak and capacity came later (0).
        private enum CodingKeys: String, CodingKey {
            case backgroundCollections, collectionPageIns, collectionPageInBytes, swappedOutBytes, swapPeakBytes, swapFileBytes
        }

        /// Decodes a result's counters; the swap file's two figures default to 0 when absent.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            backgroundCollections = try container.decode(Int.self, forKey: .backgroundCollections)
            collectionPageIns = try container.decode(Int.self, forKey: .collectionPageIns)
            collectionPageInBytes = try container.decode(Int.self, forKey: .collectionPageInBytes)
            swappedOutBytes = try container.decode(Int.self, forKey: .swappedOutBytes)
            swapPeakBytes = try container.decodeIfPresent(Int.self, forKey: .swapPeakBytes) ?? 0
            swapFileBytes = try container.decodeIfPresent(Int.self, forKey: .swapFileBytes) ?? 0
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
                                                     swappedOutBytes: metrics.swappedOutBytes,
                                                     swapPeakBytes: device.swapSpace?.peakBytes ?? 0,
                                                     swapFileBytes: device.swapSpace?.capacityBytes ?? 0)
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
