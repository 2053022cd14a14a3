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
        /// Latencies recorded.
        public var count: Int
        /// The median.
        public var p50: UInt64
        /// The 90th percentile.
        public var p90: UInt64
        /// The 99th percentile.
        public var p99: UInt64
        /// The largest.
        public var max: UInt64
        /// True when a value was over the histogram's range and was recorded at
        /// ``ReloadStatistics/highestTrackableNanoseconds``: the figures are lower bounds.
        public var saturated = false

        /// The percentiles of a histogram (zeros when it is empty or missing).
        init(_ histogram: Histogram<UInt64>?, saturated: Bool = false) {
            guard let histogram, histogram.totalCount > 0 else {
                self.init(count: 0, p50: 0, p90: 0, p99: 0, max: 0)
                return
            }
            let (p50, p90, p99) = Self.percentiles(of: histogram)
            self.init(count: Int(histogram.totalCount), p50: p50, p90: p90, p99: p99, max: histogram.max)
            self.saturated = saturated
        }

        /// `valueAtPercentile(50)`, `(90)` and `(99)` of a histogram with values, in one pass over
        /// its recorded values. The package's `valueAtPercentile` is not inlinable, so it runs
        /// unspecialized (a witness-table call for every conversion of a count) over all of the
        /// histogram's 33,792 counts, three times a summary: about 2.5% of a `long-random` run's
        /// samples (`perf`, 2026-11-24). The recorded-values iterator is inlinable; the value it
        /// gives at an index is the one `valueAtPercentile` returns there, and the first index
        /// whose running total reaches a percentile's count has a count of its own, so it is
        /// among the recorded values. Same arithmetic as the package's (Histogram.swift).
        static func percentiles(of histogram: Histogram<UInt64>) -> (UInt64, UInt64, UInt64) {
            let total = Double(histogram.totalCount)
            func countAt(_ percentile: Double) -> UInt64 {
                let requested = Swift.min(Swift.max(percentile.nextDown, 0.0), 100.0)
                return Swift.max(1, UInt64(((requested * total) / 100.0).rounded(.up)))
            }
            let counts = [countAt(50), countAt(90), countAt(99)]
            var values: [UInt64] = [0, 0, 0]
            var next = 0
            let highest = histogram.maxRecorded, lowest = histogram.min
            for recorded in histogram.recordedValues() {
                while next < counts.count, recorded.totalCountToThisValue >= counts[next] {
                    values[next] = Swift.max(Swift.min(recorded.value, highest), lowest)
                    next += 1
                }
                if next == counts.count { break }
            }
            return (values[0], values[1], values[2])
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
    /// The same, in device time (modelled: the work counted times a profile's costs).
    private var deviceHistograms: [ReloadKind: Histogram<UInt64>] = [:]
    private var deviceTotals: [ReloadKind: UInt64] = [:]
    private var deviceMeans: [ScreenReload: RunningMean] = [:]
    private var deviceFirstBuilds: [ScreenReload: RunningMean] = [:]
    /// Kinds with a value recorded at the histogram's top (host time, device time).
    private var saturatedKinds: Set<ReloadKind> = [], saturatedDeviceKinds: Set<ReloadKind> = []

    /// Whether expected costs (``expectedCost(_:screen:)``) are device times rather than
    /// host times: set when a device profile is in force, so that decisions taken from them
    /// (the `cost-aware` policy's) are deterministic.
    public var expectsDeviceTime = false

    private struct ScreenReload: Hashable {
        var screen: String
        var kind: ReloadKind
    }

    private struct RunningMean {
        var count: UInt64 = 0
        var total: UInt64 = 0
        var mean: UInt64 { count == 0 ? 0 : total / count }
        mutating func add(_ value: UInt64) {
            count += 1
            total = total.addingSaturating(value)
        }
    }

    /// No latency recorded yet.
    public init() {}

    /// Records a reload of `kind` for `screen` that took `nanoseconds` of host time and, when
    /// a profile is in force, `deviceNanoseconds` of device time.
    public func record(_ kind: ReloadKind, screen: String, nanoseconds: UInt64, deviceNanoseconds: UInt64? = nil) {
        if Self.record(nanoseconds, in: &histograms[kind, default: Self.makeHistogram()]) { saturatedKinds.insert(kind) }
        totals[kind, default: 0] = totals[kind, default: 0].addingSaturating(nanoseconds)
        means[ScreenReload(screen: screen, kind: kind), default: RunningMean()].add(nanoseconds)
        guard let deviceNanoseconds else { return }
        if Self.record(deviceNanoseconds, in: &deviceHistograms[kind, default: Self.makeHistogram()]) {
            saturatedDeviceKinds.insert(kind)
        }
        deviceTotals[kind, default: 0] = deviceTotals[kind, default: 0].addingSaturating(deviceNanoseconds)
        deviceMeans[ScreenReload(screen: screen, kind: kind), default: RunningMean()].add(deviceNanoseconds)
    }

    /// Records a first build (a first view load, first draw, first fill, first model read):
    /// not a reload, but the best estimate of one until a reload is measured.
    public func recordFirstBuild(_ kind: ReloadKind, screen: String, nanoseconds: UInt64, deviceNanoseconds: UInt64? = nil) {
        firstBuilds[ScreenReload(screen: screen, kind: kind), default: RunningMean()].add(nanoseconds)
        if let deviceNanoseconds {
            deviceFirstBuilds[ScreenReload(screen: screen, kind: kind), default: RunningMean()].add(deviceNanoseconds)
        }
    }

    /// The number of reloads of `kind` so far.
    public func count(_ kind: ReloadKind) -> Int { Int(histograms[kind]?.totalCount ?? 0) }

    /// The total nanoseconds spent reloading `kind`.
    public func totalNanoseconds(_ kind: ReloadKind) -> UInt64 { totals[kind] ?? 0 }

    /// The total nanoseconds spent on every kind of reload.
    public var totalNanoseconds: UInt64 { totals.values.reduce(0) { $0.addingSaturating($1) } }

    /// The number of reloads of every kind.
    public var totalCount: Int { ReloadKind.allCases.reduce(0) { $0 + count($1) } }

    /// The distribution of `kind`'s latencies (host time).
    public func summary(_ kind: ReloadKind) -> Summary {
        Summary(histograms[kind], saturated: saturatedKinds.contains(kind))
    }

    /// The distribution of `kind`'s latencies in device time (empty without a profile).
    public func deviceSummary(_ kind: ReloadKind) -> Summary {
        Summary(deviceHistograms[kind], saturated: saturatedDeviceKinds.contains(kind))
    }

    /// The total device time of every kind of reload.
    public var totalDeviceNanoseconds: UInt64 { deviceTotals.values.reduce(0) { $0.addingSaturating($1) } }

    /// The total device time of `kind`'s reloads.
    public func totalDeviceNanoseconds(_ kind: ReloadKind) -> UInt64 { deviceTotals[kind] ?? 0 }

    /// The expected cost of reloading `kind` for `screen`: its reloads' mean, else its first
    /// builds' mean, else the mean of that kind's reloads over all screens, else nil. In
    /// device time when ``expectsDeviceTime``, else host time.
    public func expectedCost(_ kind: ReloadKind, screen: String) -> UInt64? {
        let means = expectsDeviceTime ? deviceMeans : self.means
        let firstBuilds = expectsDeviceTime ? deviceFirstBuilds : self.firstBuilds
        let key = ScreenReload(screen: screen, kind: kind)
        if let mean = means[key], mean.count > 0 { return mean.mean }
        if let first = firstBuilds[key], first.count > 0 { return first.mean }
        // Screens in a fixed order, so that the mean is the same on every run.
        let all = means.filter { $0.key.kind == kind }.sorted { $0.key.screen < $1.key.screen }.map(\.value)
        let count = all.reduce(0) { $0 + $1.count }
        return count > 0 ? all.reduce(0) { $0.addingSaturating($1.total) } / count : nil
    }

    /// Forgets everything measured.
    public func removeAll() {
        histograms = [:]
        totals = [:]
        means = [:]
        firstBuilds = [:]
        deviceHistograms = [:]
        deviceTotals = [:]
        deviceMeans = [:]
        deviceFirstBuilds = [:]
        saturatedKinds = []
        saturatedDeviceKinds = []
    }

    /// A histogram as the statistics keep them (for tests that compute a reported value).
    public static func makeTestHistogram() -> Histogram<UInt64> { makeHistogram() }

    /// The longest latency a histogram tells apart: one hour. A longer one (a profile's costs
    /// times a large count can give any) is recorded at this value and flagged, so that its
    /// percentiles are lower bounds, never a dropped value reported as 0.
    public static let highestTrackableNanoseconds: UInt64 = 3_600_000_000_000

    static func makeHistogram() -> Histogram<UInt64> { emptyHistogram }

    /// An empty histogram, 1 ns to 1 hour, three significant digits, that each new one
    /// copies: its 33,792 counts are shared until the copy's first record, which copies them
    /// as one block. The package's initializer is generic and not inlinable, so it wrote each
    /// count through a witness table (about 10 instructions a count, 14 histograms a run with a
    /// profile; callgrind, 2026-11-24).
    private static let emptyHistogram = Histogram<UInt64>(highestTrackableValue: highestTrackableNanoseconds,
                                                          numberOfSignificantValueDigits: .three)

    /// Records `nanoseconds` (at least 1, at most ``highestTrackableNanoseconds``); true when
    /// it was over the range and clamped.
    static func record(_ nanoseconds: UInt64, in histogram: inout Histogram<UInt64>) -> Bool {
        let clamped = min(max(nanoseconds, 1), highestTrackableNanoseconds)
        _ = histogram.record(clamped)
        return clamped < nanoseconds
    }
}
