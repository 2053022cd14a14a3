import PressureLab

/// Growth per cycle (docs/formats.md, "Growth per cycle"): the bytes retained at the end of
/// each cycle of a scenario's `repeat:` (the script's top-level `repeat` with the most
/// iterations, the first of equals), and their least-squares slope over the cycles after the
/// first (the first builds what later cycles reuse), in bytes a cycle. Fewer than three
/// cycles give 0: one cycle after the first is no trend.
public struct CycleGrowth: Sendable, Equatable {
    /// The slope, rounded to whole bytes a cycle (0 with fewer than three cycles).
    public var bytesPerCycle: Int
    /// How well a line fits the cycles after the first: the coefficient of determination
    /// (R²) from 0 to 1; 1 for a perfect line, and for a flat series.
    public var fit: Double

    /// The slope and fit of `series`, one value a cycle; the first value is left out.
    ///
    /// ```swift
    /// CycleGrowth(series: [900, 1_000, 1_064, 1_128]).bytesPerCycle   // 64
    /// ```
    /// - Complexity: O(n) in the cycles.
    public init(series: [Int]) {
        let points = Array(series.dropFirst())
        guard series.count >= 3 else {
            (bytesPerCycle, fit) = (0, 1)
            return
        }
        let n = Double(points.count)
        let meanX = (n - 1) / 2
        let meanY = points.reduce(0.0) { $0 + Double($1) } / n
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for (index, value) in points.enumerated() {
            let dx = Double(index) - meanX, dy = Double(value) - meanY
            sxy += dx * dy
            sxx += dx * dx
            syy += dy * dy
        }
        let slope = sxx == 0 ? 0 : sxy / sxx
        bytesPerCycle = slope.isFinite && abs(slope) < 9e18 ? Int(slope.rounded()) : 0
        fit = syy == 0 ? 1 : min(1, max(0, (sxy * sxy) / (sxx * syy)))
    }

    /// The step of `script` whose iterations are the cycles: its index among the script's
    /// top-level steps (nil without a top-level `repeat`).
    public static func cycleStep(in script: [Scenario.Step]) -> Int? {
        var best: (index: Int, times: Int)?
        for (index, step) in script.enumerated() {
            guard case .repeatSteps(let times, _) = step, times > (best?.times ?? -1) else { continue }
            best = (index, times)
        }
        return best?.index
    }
}

/// What a run records at the end of each cycle: all apps' bytes, each app's, and each owner's
/// while the samples stay under ``ownerSampleLimit`` (a long run of a scenario with many
/// controllers keeps its totals, not every owner's series).
struct CycleRecorder {
    /// The most owner samples (owners times cycles) a run keeps for per-owner growth.
    static let ownerSampleLimit = 2_000_000

    private(set) var totals: [Int] = []
    private(set) var apps: [String: [Int]] = [:]
    private var owners: [[String: Int]] = []
    private var ownerSamples = 0
    private var ownersComplete = true

    /// Records one cycle's end: `total` bytes, each app's, and each owner's (`app/controller`).
    mutating func record(total: Int, apps installed: [(String, Int)], owners current: [RunResult.Owner]) {
        let cycle = totals.count
        totals.append(total)
        for (app, bytes) in installed {
            apps[app, default: Array(repeating: 0, count: cycle)].append(bytes)
        }
        for (app, series) in apps where series.count == cycle { apps[app] = series + [0] }
        guard ownersComplete, ownerSamples + current.count <= Self.ownerSampleLimit else {
            ownersComplete = false
            return
        }
        ownerSamples += current.count
        owners.append(Dictionary(current.map { ("\($0.app)/\($0.controller)", $0.retainedBytes) }, uniquingKeysWith: +))
    }

    /// Each owner's growth a cycle, by `app/controller`, where it is not 0 (empty when the
    /// owners' samples were not all kept).
    func ownerGrowth() -> [String: Int] {
        guard ownersComplete, totals.count >= 3 else { return [:] }
        let keys = Set(owners.flatMap(\.keys))
        var growth: [String: Int] = [:]
        for key in keys {
            let slope = CycleGrowth(series: owners.map { $0[key] ?? 0 }).bytesPerCycle
            if slope != 0 { growth[key] = slope }
        }
        return growth
    }
}
