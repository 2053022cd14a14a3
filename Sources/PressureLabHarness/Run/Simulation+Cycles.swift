import PressureLab

/// A run played to the end, its cycles recorded (docs/formats.md, "Growth per cycle").
extension Simulation {
    /// Plays the scenario's script and returns the result (``finish(repeatIndex:)``). The
    /// bytes retained at the end of each cycle of the script's `repeat:` (``CycleGrowth``)
    /// are recorded for the growth per cycle.
    public func run(repeatIndex: Int = 0) throws -> RunResult {
        let cycleStep = CycleGrowth.cycleStep(in: scenario.script)
        for (index, step) in scenario.script.enumerated() {
            guard index == cycleStep, case .repeatSteps(let times, let inner) = step else {
                try play([step])
                continue
            }
            for _ in 0..<times {
                try play(inner)
                cycles.record(total: device.usedBytes, apps: device.apps.map { ($0.name, $0.bytes) },
                              owners: Self.owners(Self.balances(device)))
            }
        }
        return finish(repeatIndex: repeatIndex)
    }

    /// Adds the growth per cycle to `result` (its metrics, its owners, the series), from the
    /// cycles recorded; 0 without them.
    func addGrowth(to result: inout RunResult) {
        let growth = CycleGrowth(series: cycles.totals)
        result.metrics.growthPerCycleBytes = growth.bytesPerCycle
        guard !cycles.totals.isEmpty else { return }
        result.metrics.cycles = cycles.totals.count
        result.metrics.growthFit = (growth.fit * 10_000).rounded() / 10_000
        let ownerGrowth = cycles.ownerGrowth()
        for index in result.owners.indices {
            result.owners[index].growthPerCycleBytes = ownerGrowth["\(result.owners[index].app)/\(result.owners[index].controller)"]
        }
        result.cycleRetainedBytes = cycles.totals
        result.cycleRetainedBytesByApp = cycles.apps
    }
}
