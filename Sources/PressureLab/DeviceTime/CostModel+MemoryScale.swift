extension CostModel {
    /// The costs of a device simulated at 1/`scale` of its memory (a scenario's
    /// `device.memory_scale`, docs/importing.md, "Processes bigger than the host"): every
    /// throughput divided by `scale` (rounded down, at least 1 byte a second), so that the
    /// work on the simulation's bytes, 1/`scale` of the process's, takes the device time of
    /// the process's own; a cost per occurrence (a process start, a view laid out, a read's
    /// latency) is the same at any scale. A scale of 1 leaves the model as it is.
    public func chargingBytes(atScale scale: Int) -> CostModel {
        guard scale > 1 else { return self }
        var scaled = self
        let divisor = UInt64(scale)
        func divided(_ throughput: UInt64) -> UInt64 { throughput == 0 ? 0 : max(1, throughput / divisor) }
        for cost in Cost.allCases {
            var value = scaled[cost]
            value.bytesPerSecond = divided(value.bytesPerSecond)
            value.perCompressor = PerCompressor(lz4: divided(value.perCompressor.lz4), zstd: divided(value.perCompressor.zstd))
            scaled[cost] = value
        }
        return scaled
    }
}

extension WorkCounters {
    /// The counts with every byte count multiplied by `scale` (occurrences as they are): the
    /// work of a run simulated at 1/`scale` of its memory, reported at the process's size.
    public func bytesMultiplied(by scale: Int) -> WorkCounters {
        guard scale > 1 else { return self }
        var scaled = self
        for cost in Cost.allCases { scaled[bytes: cost] = self[bytes: cost].multipliedSaturating(by: scale) }
        return scaled
    }
}
