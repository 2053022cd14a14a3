@testable import PressureLab
import Testing

/// `ReloadStatistics.Summary` takes its percentiles in one pass over the recorded values; they
/// must be the package's `valueAtPercentile` figures.
@Suite("Summary percentiles: one pass against valueAtPercentile")
struct SummaryPercentileTests {
    @Test("random latencies, small and large counts, a saturated top", arguments: 0..<30)
    func samePercentiles(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var histogram = ReloadStatistics.makeTestHistogram()
        let count = [1, 2, 3, 10, 99, 100, 101, 1_000, 5_000][Int(seed) % 9]
        let spread = [UInt64(10), 2_048, 1_000_000, 1_000_000_000, ReloadStatistics.highestTrackableNanoseconds][Int(seed) % 5]
        for _ in 0..<count {
            let value = Bool.random(using: &random) ? UInt64.random(in: 0...spread, using: &random)
                                                    : UInt64.random(in: 0...(spread / 100 + 1), using: &random)
            _ = ReloadStatistics.record(value, in: &histogram)
        }
        let (p50, p90, p99) = ReloadStatistics.Summary.percentiles(of: histogram)
        #expect(p50 == histogram.valueAtPercentile(50))
        #expect(p90 == histogram.valueAtPercentile(90))
        #expect(p99 == histogram.valueAtPercentile(99))
    }
}
