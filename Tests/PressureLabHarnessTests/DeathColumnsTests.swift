import Foundation
import PressureLab
import PressureLabHarness
import Testing

@Suite("Every kind of death in every table: the policy's kills, the system's limits, crashes in front")
struct DeathColumnsTests {
    /// `b` grows past the inactive limit in front, then goes to the background (killed by the
    /// limit); `a` is crashed in front by the policy at every launch.
    static let scenario = """
        scenario: 1
        name: deaths
        device: { memory: 64MiB, app_limit: 8MiB, app_limit_inactive: 2MiB }
        apps:
          a: { screens: { s: { tree: { depth: 0, bytes: 1KiB } } }, root: { nav: s } }
          b: { screens: { s: { tree: { depth: 0, bytes: 1KiB }, backing: 3MiB } }, root: { nav: s } }
        script:
          - launch: b
          - launch: a
          - launch: a
          - launch: a

        """

    /// Crashes the app in front once a step when it is `a`.
    static let crashesA = Termination(ScriptedTermination(name: "crashes-a") { device in
        device.apps.contains { $0.name == "a" && $0.isForeground } ? .killForeground(.policy) : nil
    })

    @Test("the default table, --wide, CSV and JSON each show kills, limit kills and out-of-memory crashes apart")
    func everyTable() throws {
        let scenario = try ScenarioLoader(hostLimitBytes: 8 << 30).parse(Self.scenario, path: "deaths.yaml")
        let run = try Simulation(scenario, cleanup: .keepAll, termination: Self.crashesA).run()
        #expect(run.metrics.outOfMemoryCrashes == 3)
        #expect(run.metrics.limitKills == 1 && run.metrics.kills == 1 && run.metrics.policyKills == 0)
        let rows = ResultFormatter.comparison([run])
        #expect(rows.map { [$0.kills, $0.limitKills, $0.crashes] } == [[0, 1, 3]])
        let table = ResultFormatter.table(rows).split(separator: "\n")
        #expect(table[0].contains("kills  limit  oom  cold"))
        #expect(table[2].contains("    0      1    3     4"))
        #expect(ResultFormatter.table(rows, wide: true).contains("kills  limit kills  crashes"))
        let csv = ResultFormatter.csv(rows).split(separator: "\n")
        #expect(csv[0].contains(",kills,limit_kills,out_of_memory_crashes,cold_launches,"))
        #expect(csv[1].contains(",0,1,3,4,"))
        let json = String(decoding: try JSONEncoder().encode(run.metrics), as: UTF8.self)
        #expect(json.contains("\"limitKills\":1") && json.contains("\"outOfMemoryCrashes\":3") && json.contains("\"kills\":1"))
        let sweep = SweepSummary.Metric.allCases.map(\.title)
        #expect(sweep.contains("kills") && sweep.contains("limit kills") && sweep.contains("oom crashes"))
        #expect(SweepSummary.Metric.limitKills.value(in: run) == 1 && SweepSummary.Metric.crashes.value(in: run) == 3)
    }
}
