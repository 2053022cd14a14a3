import Foundation

/// A sweep's results aggregated over its axes: per configuration (a cleanup policy, a
/// termination policy and a profile), across scenarios and seeds, the spread of each
/// headline figure; per scenario, which configuration wins each figure and by how much; and
/// the configurations that another beats on two figures together (the frontier).
///
/// Quantiles are nearest-rank: the q-quantile of n sorted values is the value at rank
/// ceil(q x n) (the median of 1, 2, 3, 4 is 2), so every figure shown is one a cell had.
public struct SweepSummary: Sendable {
    /// What a sweep varies besides scenarios and seeds.
    public struct Configuration: Hashable, Sendable, Comparable {
        /// The cleanup policy's name.
        public var policy: String
        /// The termination policy's name.
        public var termination: String
        /// The device profile's name (nil: none).
        public var profile: String?

        /// The configuration by what the sweep varies (`ios6`, `ios6 / jetsam`, ...): the
        /// policy, and the termination policy and profile where they vary.
        public func label(_ axes: Axes) -> String {
            var parts: [String] = []
            if axes.policy || (!axes.termination && !axes.profile) { parts.append(policy) }
            if axes.termination { parts.append(termination) }
            if axes.profile { parts.append(profile ?? "no profile") }
            return parts.joined(separator: " / ")
        }

        public static func < (lhs: Configuration, rhs: Configuration) -> Bool {
            (lhs.policy, lhs.termination, lhs.profile ?? "") < (rhs.policy, rhs.termination, rhs.profile ?? "")
        }
    }

    /// Which parts of a configuration the sweep varies.
    public struct Axes: Sendable, Equatable {
        /// Whether the cleanup policy varies.
        public var policy: Bool
        /// Whether the termination policy varies.
        public var termination: Bool
        /// Whether some scenario ran under several profiles (a profile a scenario names for
        /// itself is not an axis).
        public var profile: Bool
    }

    /// A headline figure of a run.
    public enum Metric: String, CaseIterable, Sendable {
        /// Mean and peak footprint, reload time, cold and hot launch device time, kills by the
        /// termination policy, kills by the system's limits, out-of-memory crashes, cold launches,
        /// cached apps, data lost and growth per cycle (``RunMetrics/growthPerCycleBytes``).
        case meanFootprint, peakFootprint, reloadTime, coldLaunch, hotLaunch, kills, limitKills, crashes, coldLaunches, cachedApps, dataLost,
             growthPerCycle

        /// Its column title.
        public var title: String {
            switch self {
            case .meanFootprint: "mean footprint"
            case .peakFootprint: "peak footprint"
            case .reloadTime: "reload time"
            case .coldLaunch: "cold launch p50"
            case .hotLaunch: "hot launch p50"
            case .kills: "kills"
            case .limitKills: "limit kills"
            case .crashes: "oom crashes"
            case .coldLaunches: "cold launches"
            case .cachedApps: "cached apps"
            case .dataLost: "data lost"
            case .growthPerCycle: "growth/cycle"
            }
        }

        /// Cached apps are better when more; every other figure when less.
        public var largerIsBetter: Bool { self == .cachedApps }

        /// The run's figure: device time where the run has it (modelled), else host time for
        /// reload time; nil when the run has none (no launch of that kind).
        public func value(in run: RunResult) -> Double? {
            let metrics = run.metrics
            switch self {
            case .meanFootprint: return Double(metrics.meanRetainedBytes)
            case .peakFootprint: return Double(metrics.peakRetainedBytes)
            case .reloadTime: return Double(metrics.reloadDeviceTimeNs ?? metrics.reloadTimeNs)
            case .coldLaunch:
                guard let device = metrics.coldLaunchDeviceNs else { return nil }
                return device.count > 0 ? Double(device.p50) : nil
            case .hotLaunch:
                guard let device = metrics.resumeDeviceNs else { return nil }
                return device.count > 0 ? Double(device.p50) : nil
            case .kills: return Double(metrics.policyKills)
            case .limitKills: return Double(metrics.limitKills ?? 0)
            case .crashes: return Double(metrics.outOfMemoryCrashes)
            case .coldLaunches: return Double(metrics.coldLaunches)
            case .cachedApps: return metrics.cachedAppsMean
            case .dataLost: return Double(metrics.dataLossBytes)
            case .growthPerCycle: return Double(metrics.growthPerCycleBytes ?? 0)
            }
        }

        /// A value for people: MiB, a duration, a count.
        public func format(_ value: Double) -> String {
            switch self {
            case .meanFootprint, .peakFootprint: return Units.mebibytes(Int(value))
            case .reloadTime, .coldLaunch, .hotLaunch: return Units.duration(UInt64(max(0, value)))
            case .cachedApps: return String(format: "%.2f", value)
            case .dataLost, .growthPerCycle: return "\(Int(value)) B"
            case .kills, .limitKills, .crashes, .coldLaunches: return String(format: value == value.rounded() ? "%.0f" : "%.1f", value)
            }
        }
    }

    /// Nearest-rank quantiles of a figure over cells.
    public struct Spread: Sendable, Equatable {
        /// How many values.
        public var count: Int
        /// The smallest.
        public var minimum: Double
        /// The 0.25-quantile.
        public var lowerQuartile: Double
        /// The 0.5-quantile.
        public var median: Double
        /// The 0.75-quantile.
        public var upperQuartile: Double
        /// The largest.
        public var maximum: Double

        /// The spread of `values` (nil when there are none).
        public init?(_ values: [Double]) {
            guard !values.isEmpty else { return nil }
            let sorted = values.sorted()
            func rank(_ quantile: Double) -> Double { sorted[max(0, Int((quantile * Double(sorted.count)).rounded(.up)) - 1)] }
            count = sorted.count
            minimum = sorted[0]
            lowerQuartile = rank(0.25)
            median = rank(0.5)
            upperQuartile = rank(0.75)
            maximum = sorted[sorted.count - 1]
        }
    }

    /// Which configuration wins a figure in one scenario (the median over its seeds), and by
    /// how much against the runner-up, in percent of the runner-up (nil when only one
    /// configuration has the figure, or the runner-up's is 0).
    public struct Win: Sendable, Equatable {
        /// The scenario.
        public var scenario: String
        /// The figure.
        public var metric: Metric
        /// The best configurations (several when they tie).
        public var best: [Configuration]
        /// How much better than the runner-up, in percent of the runner-up's figure.
        public var marginPercent: Double?
    }

    /// Every configuration, in order.
    public var configurations: [Configuration]
    /// Every scenario, in order.
    public var scenarios: [String]
    /// What the configurations vary.
    public var axes: Axes
    /// Per configuration, the spread of each figure over every scenario and seed.
    public var spreads: [Configuration: [Metric: Spread]]
    /// Who wins each figure in each scenario.
    public var wins: [Win]
    /// The seeds the sweep ran (one scenario, one configuration).
    public var seedsPerCell: Int

    /// Aggregates `runs` (a sweep's cells, in any order).
    public init(_ runs: [RunResult]) {
        let profileIsAxis = Dictionary(grouping: runs, by: \.scenario).values.contains { Set($0.map(\.profile)).count > 1 }
        func configuration(_ run: RunResult) -> Configuration {
            Configuration(policy: run.policy.description, termination: run.termination.description,
                          profile: profileIsAxis ? run.profile : nil)
        }
        configurations = Array(Set(runs.map(configuration))).sorted()
        scenarios = runs.map(\.scenario).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        axes = Axes(policy: Set(runs.map(\.policy)).count > 1, termination: Set(runs.map(\.termination)).count > 1,
                    profile: profileIsAxis)
        let byConfiguration = Dictionary(grouping: runs, by: configuration)
        spreads = byConfiguration.mapValues { cells in
            var figures: [Metric: Spread] = [:]
            for metric in Metric.allCases { figures[metric] = Spread(cells.compactMap { metric.value(in: $0) }) }
            return figures
        }
        seedsPerCell = Dictionary(grouping: runs) { "\($0.scenario)\u{0}\($0.policy)\u{0}\($0.termination)\u{0}\($0.profile ?? "")" }
            .values.map(\.count).max() ?? 0
        var wins: [Win] = []
        for scenario in scenarios {
            let cells = Dictionary(grouping: runs.filter { $0.scenario == scenario }, by: configuration)
            for metric in Metric.allCases {
                let medians = cells.compactMap { configuration, runs in
                    Spread(runs.compactMap { metric.value(in: $0) }).map { (configuration, $0.median) }
                }.sorted { metric.largerIsBetter ? $0.1 > $1.1 : $0.1 < $1.1 }
                guard let first = medians.first else { continue }
                let best = medians.filter { $0.1 == first.1 }.map(\.0).sorted()
                let runnerUp = medians.first { $0.1 != first.1 }?.1
                let margin = runnerUp.flatMap { other -> Double? in
                    guard other != 0 else { return nil }
                    return abs(other - first.1) / abs(other) * 100
                }
                wins.append(Win(scenario: scenario, metric: metric, best: best, marginPercent: margin))
            }
        }
        self.wins = wins
    }

    /// The configurations another beats on both figures (less or equal on both, strictly
    /// less on one; "less" is "more" for a figure where larger is better), by the medians.
    public func dominated(_ x: Metric, _ y: Metric) -> Set<Configuration> {
        func better(_ metric: Metric, _ a: Double, _ b: Double) -> Bool { metric.largerIsBetter ? a > b : a < b }
        let points = configurations.compactMap { configuration -> (Configuration, Double, Double)? in
            guard let px = spreads[configuration]?[x]?.median, let py = spreads[configuration]?[y]?.median else { return nil }
            return (configuration, px, py)
        }
        var dominated: Set<Configuration> = []
        for (configuration, px, py) in points {
            if points.contains(where: { other in
                other.0 != configuration && !better(x, px, other.1) && !better(y, py, other.2)
                    && (better(x, other.1, px) || better(y, other.2, py))
            }) { dominated.insert(configuration) }
        }
        return dominated
    }

    /// Whether a results file is a sweep to aggregate rather than a few runs to list: some
    /// scenario and configuration ran with several seeds, or there are more runs than a page
    /// of charts can show.
    public static func isSweep(_ runs: [RunResult]) -> Bool {
        if runs.count > 40 { return true }
        let cells = Dictionary(grouping: runs) { "\($0.scenario)\u{0}\($0.policy)\u{0}\($0.termination)\u{0}\($0.profile ?? "")" }
        return cells.values.contains { Set($0.map(\.seed)).count > 1 }
    }
}
