import CustomPolicies
import Foundation
import PressureLabTesting
import Testing

/// Footprint gates on our own policies, with PressureLab's test product: bytes and device
/// time are deterministic, so the limits can be tight.
@Suite("Our policies' footprint")
struct FootprintGateTests {
    @Test func photoBrowserStaysSmall() throws {
        let run = try Footprint.run(bundled: "photo-browser", policy: Cleanup(DropModelsFirst()))
        Footprint.expect(run, .peakRetainedBytes, atMost: 64 << 20)
        Footprint.expect(run, .coldLaunchDeviceP50, atMost: 500_000_000)   // 500 ms of device time
        Footprint.expect(run, .dataLossBytes, atMost: 0)
    }

    @Test func dropsModelsWhereIOS6PurgesBitmaps() throws {
        let mine = try Footprint.run(bundled: "photo-browser", policy: Cleanup(DropModelsFirst()))
        let ios6 = try Footprint.run(bundled: "photo-browser", policy: .ios6)
        #expect(mine.timeline.map(\.event) == ios6.timeline.map(\.event))   // the same trace
        #expect(mine.metrics.modelReleases > 0 && mine.metrics.backingStorePurges == 0)
        #expect(ios6.metrics.backingStorePurges > 0)
        #expect(mine.metrics.meanRetainedBytes > ios6.metrics.meanRetainedBytes)   // bitmaps kept
        #expect(mine.metrics.reloadDeviceTimeNs! < ios6.metrics.reloadDeviceTimeNs!)   // none redrawn
    }

    @Test func oldestFirstKillsByAgeNotSize() throws {
        let run = try Footprint.run(bundled: "day-of-apps", policy: Cleanup(DropModelsFirst()), termination: Termination(OldestFirst()))
        #expect(run.termination.name == "oldest-first")
        Footprint.expect(run, .kills, atMost: 20)
        Footprint.expect(run, .dataLossBytes, atMost: 0)
    }

    @Test func matchesItsBaseline() throws {
        let runs = try ["photo-browser", "day-of-apps"].map {
            try Footprint.run(bundled: $0, policy: Cleanup(DropModelsFirst()), termination: Termination(OldestFirst()))
        }
        let baseline = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("baselines/drop-models-first.json").path
        try Footprint.expect(runs, matchBaselineAt: baseline)
    }
}
