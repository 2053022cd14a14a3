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
    }

    private var histograms: [ReloadKind: Histogram<UInt64>] = [:]
    private var means: [ScreenReload: RunningMean] = [:]
    private var firstLoads: [String: RunningMean] = [:]

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
        means[ScreenReload(screen: screen, kind: kind), default: RunningMean()].count += 1
        means[ScreenReload(screen: screen, kind: kind), default: RunningMean()].total += nanoseconds
    }

    /// Records a first view load (not a reload, but an estimate of a view reload's cost).
    public func recordFirstLoad(screen: String, nanoseconds: UInt64) {
        firstLoads[screen, default: RunningMean()].count += 1
        firstLoads[screen, default: RunningMean()].total += nanoseconds
    }

    /// The number of reloads of `kind` so far.
    public func count(_ kind: ReloadKind) -> Int { Int(histograms[kind]?.totalCount ?? 0) }

    /// The distribution of `kind`'s latencies.
    public func summary(_ kind: ReloadKind) -> Summary {
        guard let histogram = histograms[kind], histogram.totalCount > 0 else {
            return Summary(count: 0, p50: 0, p90: 0, p99: 0, max: 0)
        }
        return Summary(count: Int(histogram.totalCount), p50: histogram.valueAtPercentile(50),
                       p90: histogram.valueAtPercentile(90), p99: histogram.valueAtPercentile(99),
                       max: histogram.max)
    }

    /// The expected cost of reloading `kind` for `screen`: its measured mean, else (for a
    /// view) its first loads' mean, else the mean over all screens, else nil.
    public func expectedCost(_ kind: ReloadKind, screen: String) -> UInt64? {
        if let mean = means[ScreenReload(screen: screen, kind: kind)], mean.count > 0 { return mean.mean }
        if kind == .viewReload, let first = firstLoads[screen], first.count > 0 { return first.mean }
        let all = means.filter { $0.key.kind == kind }.values
        let count = all.reduce(0) { $0 + $1.count }
        return count > 0 ? all.reduce(0) { $0 + $1.total } / count : nil
    }

    /// Forgets everything measured.
    public func removeAll() {
        histograms = [:]
        means = [:]
        firstLoads = [:]
    }

    private static func makeHistogram() -> Histogram<UInt64> {
        // 1 ns to 1 minute, three significant digits.
        Histogram(highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
    }
}
