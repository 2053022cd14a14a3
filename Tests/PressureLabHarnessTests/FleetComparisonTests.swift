import PressureLab
import PressureLabHarness
import Testing

@Suite("Fleet-style app switching")
struct FleetComparisonTests {
    @Test("freezing keeps more apps cached than killing; every policy launches every app; nothing is lost")
    func comparison() throws {
        let comparison = DeviceComparison(appCount: 12, appsThatFit: 5, revisits: 1)
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
}
