import PressureLab

/// A run simulated at 1/N of its memory (`device.memory_scale: N`, docs/importing.md,
/// "Processes bigger than the host") is reported at the process's size.
extension RunResult {
    /// The result with every byte figure multiplied by `memoryScale` and the scale said
    /// (``memoryScale``): retained bytes (peak, final, mean, by owner, at the peak, by step, by cycle, growth per cycle),
    /// data lost, the compressed pool's peak, clean memory resident and dropped, the platform's
    /// footprint, and the bytes of the work counted. Counts, ratios and times are as run:
    /// device time already charges each byte `memoryScale` times (`CostModel/chargingBytes(atScale:)`);
    /// host time is the simulation's own. A scale of 1 leaves the result as it is.
    public func atFullSize(memoryScale scale: Int) -> RunResult {
        guard scale > 1 else { return self }
        func full(_ bytes: Int) -> Int { bytes.multipliedSaturating(by: scale) }
        var result = self
        result.memoryScale = scale
        result.metrics.peakRetainedBytes = full(metrics.peakRetainedBytes)
        result.metrics.finalRetainedBytes = full(metrics.finalRetainedBytes)
        result.metrics.meanRetainedBytes = full(metrics.meanRetainedBytes)
        result.metrics.dataLossBytes = full(metrics.dataLossBytes)
        result.metrics.compressedBytesPeak = metrics.compressedBytesPeak.map(full)
        result.metrics.cleanResidentBytesPeak = metrics.cleanResidentBytesPeak.map(full)
        result.metrics.cleanResidentBytesMean = metrics.cleanResidentBytesMean.map(full)
        result.metrics.cleanBytesDropped = metrics.cleanBytesDropped.map(full)
        result.metrics.platformFootprintBytesPeak = metrics.platformFootprintBytesPeak.map(full)
        result.metrics.work = metrics.work?.bytesMultiplied(by: scale)
        result.owners = owners.map {
            Owner(app: $0.app, controller: $0.controller, retainedBytes: full($0.retainedBytes),
                  growthPerCycleBytes: $0.growthPerCycleBytes.map(full))
        }
        result.metrics.growthPerCycleBytes = metrics.growthPerCycleBytes.map(full)
        result.cycleRetainedBytes = cycleRetainedBytes?.map(full)
        result.cycleRetainedBytesByApp = cycleRetainedBytesByApp?.mapValues { $0.map(full) }
        result.peakOwners = peakOwners?.map { Owner(app: $0.app, controller: $0.controller, retainedBytes: full($0.retainedBytes)) }
        result.timeline = timeline.map {
            TimelineEntry(step: $0.step, event: $0.event, retainedBytes: full($0.retainedBytes), level: $0.level, marks: $0.marks,
                          aliveApps: $0.aliveApps)
        }
        return result
    }

    /// How a label (a table's scenario cell, a report's heading) says the scale: `tally
    /// (memory_scale 8: simulated at 1/8, figures at full size)`; the label alone at 1.
    public static func labelled(_ scenario: String, memoryScale: Int?) -> String {
        guard let scale = memoryScale, scale > 1 else { return scenario }
        return "\(scenario) (memory_scale \(scale))"
    }
}
