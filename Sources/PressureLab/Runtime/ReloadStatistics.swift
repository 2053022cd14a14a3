import Histogram

/// What it costs to get memory back: each reload path, timed with the monotonic clock.
public enum ReloadKind: String, CaseIterable, Sendable, Codable {
    /// Read and decode the view description file, rebuild the tree (`loadView` again).
    case viewReload
    /// Redraw a purged backing store.
    case backingStoreRedraw
    /// Refill a purged cache.
    case cacheRefill
    /// Read a released model back from disk.
    case modelReload
}

/// The measured latencies of reloads: a histogram per kind (for distributions) and a mean
/// per screen and kind (for policies that weigh expected reload costs).
public final class ReloadStatistics {
    /// Percentiles of one kind's latencies, in nanoseconds.
    public struct Summary: Sendable, Equatable, Codable {
        public var count: Int
        public var p50: UInt64
        public var p90: UInt64
        public var p99: UInt64
        public var max: UInt64

        /// The percentiles of a histogram (zeros when it is empty or missing).
        init(_ histogram: Histogram<UInt64>?) {
            guard let histogram, histogram.totalCount > 0 else {
                self.init(count: 0, p50: 0, p90: 0, p99: 0, max: 0)
                return
            }
            self.init(count: Int(histogram.totalCount), p50: histogram.valueAtPercentile(50),
                      p90: histogram.valueAtPercentile(90), p99: histogram.valueAtPercentile(99), max: histogram.max)
        }

        init(count: Int, p50: UInt64, p90: UInt64, p99: UInt64, max: UInt64) {
            self.count = count
            self.p50 = p50
            self.p90 = p90
            self.p99 = p99
            self.max = max
        }
    }

    private var histograms: [ReloadKind: Histogram<UInt64>] = [:]
    private var totals: [ReloadKind: UInt64] = [:]
    private var means: [ScreenReload: RunningMean] = [:]
    private var firstBuilds: [ScreenReload: RunningMean] = [:]

    private struct ScreenReload: Hashable {
        var screen: String
        var kind: ReloadKind
    }

    private struct RunningMean {
        var count: UInt64 = 0
        var total: UInt64 = 0
        var mean: UInt64 { count == 0 ? 0 : total / count }
    }

    public init() {}

    /// Records a reload of `kind` for `screen` that took `nanoseconds`.
    public func record(_ kind: ReloadKind, screen: String, nanoseconds: UInt64) {
        _ = histograms[kind, default: Self.makeHistogram()].record(max(nanoseconds, 1))
        totals[kind, default: 0] &+= nanoseconds
        means[ScreenReload(screen: screen, kind: kind), default: RunningMean()].count += 1
        means[ScreenReload(screen: screen, kind: kind), default: RunningMean()].total += nanoseconds
    }

    /// Records a first build (a first view load, first draw, first fill, first model read):
    /// not a reload, but the best estimate of one until a reload is measured.
    public func recordFirstBuild(_ kind: ReloadKind, screen: String, nanoseconds: UInt64) {
        firstBuilds[ScreenReload(screen: screen, kind: kind), default: RunningMean()].count += 1
        firstBuilds[ScreenReload(screen: screen, kind: kind), default: RunningMean()].total += nanoseconds
    }

    /// The number of reloads of `kind` so far.
    public func count(_ kind: ReloadKind) -> Int { Int(histograms[kind]?.totalCount ?? 0) }

    /// The total nanoseconds spent reloading `kind`.
    public func totalNanoseconds(_ kind: ReloadKind) -> UInt64 { totals[kind] ?? 0 }

    /// The total nanoseconds spent on every kind of reload.
    public var totalNanoseconds: UInt64 { totals.values.reduce(0, &+) }

    /// The number of reloads of every kind.
    public var totalCount: Int { ReloadKind.allCases.reduce(0) { $0 + count($1) } }

    /// The distribution of `kind`'s latencies.
    public func summary(_ kind: ReloadKind) -> Summary {
        Summary(histograms[kind])
    }

    /// The expected cost of reloading `kind` for `screen`: its reloads' mean, else its first
    /// builds' mean, else the mean of that kind's reloads over all screens, else nil.
    public func expectedCost(_ kind: ReloadKind, screen: String) -> UInt64? {
        let key = ScreenReload(screen: screen, kind: kind)
        if let mean = means[key], mean.count > 0 { return mean.mean }
        if let first = firstBuilds[key], first.count > 0 { return first.mean }
        let all = means.filter { $0.key.kind == kind }.values
        let count = all.reduce(0) { $0 + $1.count }
        return count > 0 ? all.reduce(0) { $0 + $1.total } / count : nil
    }

    /// Forgets everything measured.
    public func removeAll() {
        histograms = [:]
        totals = [:]
        means = [:]
        firstBuilds = [:]
    }

    static func makeHistogram() -> Histogram<UInt64> {
        // 1 ns to 1 minute, three significant digits.
        Histogram(highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
    }
}
