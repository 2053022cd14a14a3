import PressureLab
import PressureLabHarness
import Testing

@Suite("Fleet-style app switching")
struct FleetComparisonTests {
    @Test("freezing keeps more apps cached than killing; every policy launches every app; nothing is lost")
    func comparison() throws {
        // Apps of about 13 MiB, over XNU's freezer minimum (FREEZE_PAGES_MIN, 8 MB), and room for more
        // than 4 suspended ones (FREEZE_SUSPENDED_THRESHOLD_DEFAULT).
        let comparison = DeviceComparison(appCount: 12, appsThatFit: 8, revisits: 1, modelBytes: 7 << 20)
        var rows: [String: DeviceComparison.Row] = [:]
        for kind in [TerminationKind.jetsam, .lmk, .largestFirst, .freeze] { rows[kind.rawValue] = try comparison.run(policy: kind) }
        for row in rows.values {
            #expect(row.coldLaunches + row.resumes + row.thaws == 24)
            #expect(row.dataLossBytes == 0)
            #expect(row.outOfMemoryCrashes == 0)
        }
        #expect(rows["jetsam"]!.kills > 0)
        #expect(rows["freeze"]!.freezes > 0)
        #expect(rows["freeze"]!.cachedAppsMean > rows["jetsam"]!.cachedAppsMean)
        #expect(rows["freeze"]!.coldLaunches < rows["jetsam"]!.coldLaunches)
    }

    @Test("apps under XNU's freezer minimum (FREEZE_PAGES_MIN, 8 MB; memorystatus_is_process_eligible_for_freeze) are never frozen")
    func smallAppsAreNotFrozen() throws {
        let row = try DeviceComparison(appCount: 12, appsThatFit: 5, revisits: 1).run(policy: .freeze)
        #expect(try DeviceComparison.measureOneApp() < 8 << 20)
        #expect(row.freezes == 0)
        #expect(row.kills > 0)
    }
}
