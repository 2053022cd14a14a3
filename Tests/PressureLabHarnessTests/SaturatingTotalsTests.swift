import Foundation
@testable import PressureLab
@testable import PressureLabHarness
import PressureLabHeap
import PressureLabSweep
import SystemPackage
import Testing
import TestSupport

/// Totals that could overflow or be dropped: saturated at their bound and flagged.
@Suite("Totals saturate at their bound and are flagged, never wrap or drop", .serialized)
struct SaturatingTotalsTests {
    @Test("a latency over the histograms' hour is recorded at it and flagged, never dropped as 0")
    func saturatedLatency() {
        let statistics = ReloadStatistics()
        statistics.record(.viewReload, screen: "s", nanoseconds: 10, deviceNanoseconds: 61_000_000_000)
        #expect(statistics.deviceSummary(.viewReload).p50 >= 60_000_000_000)
        #expect(!statistics.deviceSummary(.viewReload).saturated)
        statistics.record(.viewReload, screen: "s", nanoseconds: 10, deviceNanoseconds: 7_200_000_000_000)
        let summary = statistics.deviceSummary(.viewReload)
        #expect(summary.saturated && summary.count == 2)
        #expect(summary.max >= ReloadStatistics.highestTrackableNanoseconds)
        statistics.record(.viewReload, screen: "s", nanoseconds: 10, deviceNanoseconds: .max)
        #expect(statistics.totalDeviceNanoseconds == .max)
    }

    @Test("device time saturates at UInt64.max, never wraps")
    func saturatedDeviceTime() {
        let costs = CostModel(processStartNanoseconds: 0, appInitNanoseconds: 3_600_000_000_000, firstFrameNanoseconds: 0,
                              storageRead: .init(bytesPerSecond: 1), storageWrite: .init(bytesPerSecond: 1),
                              viewDecodeNanoseconds: 3_600_000_000_000, viewLayoutNanoseconds: 0, bitmapDrawBytesPerSecond: 1,
                              cacheFillBytesPerSecond: 1, archiveDecodeBytesPerSecond: 1)
        var work = WorkCounters()
        work.viewsDecoded = Int.max / 2
        work.appInits = 1
        #expect(costs.nanoseconds(for: work) == .max)
    }

    @Test("a run whose cold launch is over an hour reports it at the bound, flagged in the results")
    func saturatedRunFlag() throws {
        var metrics = try HostileRunTests.run(ScenarioTexts.launchOnly).metrics
        metrics.coldLaunchDeviceNs = LatencySummary(count: 1, p50: 1, p90: 1, p99: 1, max: 1)
        metrics.coldLaunchDeviceNs?.saturated = true
        metrics.reloadDeviceTimeNs = .max
        let encoded = try JSONEncoder().encode(metrics)
        var decoded = try JSONDecoder().decode(RunMetrics.self, from: encoded)
        decoded.noteSaturatedMetrics()
        #expect(decoded.saturatedMetrics == ["coldLaunchDeviceNs", "reloadDeviceTimeNs"])
    }
}
