import Foundation
import PressureLab
@testable import PressureLabHarness
import Testing

@Suite("The sweep report: aggregates, frontier, wins")
struct SweepReportTests {
    /// A template run (one small scenario), its headline figures then set by each cell.
    static let template: RunResult = {
        let scenario = try! ScenarioLoader().parse("""
            scenario: 1
            name: t
            device: { memory: 64MiB }
            apps:
              a:
                screens: { s: { tree: { depth: 1, fanout: 2, bytes: 1KiB } } }
                root: s
            script: [ { launch: a } ]
            """, path: "t.yaml")
        return try! Simulation(scenario, cleanup: .ios6, termination: .jetsam).run()
    }()

    static func cell(_ scenario: String, _ policy: Cleanup, seed: UInt64, meanMiB: Int, reloadMs: UInt64, cached: Double) -> RunResult {
        var run = template
        run.scenario = scenario
        run.policy = policy
        run.seed = seed
        run.profile = "p"
        run.metrics.meanRetainedBytes = meanMiB << 20
        run.metrics.peakRetainedBytes = (meanMiB * 2) << 20
        run.metrics.reloadDeviceTimeNs = reloadMs * 1_000_000
        run.metrics.cachedAppsMean = cached
        return run
    }

    /// Two scenarios x three policies x two seeds.
    static let cells: [RunResult] = [
        cell("a", .ios3, seed: 1, meanMiB: 10, reloadMs: 100, cached: 1.5), cell("a", .ios3, seed: 2, meanMiB: 30, reloadMs: 100, cached: 1.5),
        cell("b", .ios3, seed: 1, meanMiB: 20, reloadMs: 100, cached: 1.5), cell("b", .ios3, seed: 2, meanMiB: 40, reloadMs: 100, cached: 1.5),
        cell("a", .ios6, seed: 1, meanMiB: 12, reloadMs: 200, cached: 2.5), cell("a", .ios6, seed: 2, meanMiB: 12, reloadMs: 200, cached: 2.5),
        cell("b", .ios6, seed: 1, meanMiB: 50, reloadMs: 200, cached: 2.5), cell("b", .ios6, seed: 2, meanMiB: 14, reloadMs: 200, cached: 2.5),
        cell("a", .lru, seed: 1, meanMiB: 25, reloadMs: 150, cached: 2.5), cell("a", .lru, seed: 2, meanMiB: 25, reloadMs: 150, cached: 2.5),
        cell("b", .lru, seed: 1, meanMiB: 25, reloadMs: 150, cached: 2.5), cell("b", .lru, seed: 2, meanMiB: 25, reloadMs: 150, cached: 2.5),
    ]

    @Test("per configuration, nearest-rank quantiles over scenarios and seeds, computed by hand")
    func aggregates() throws {
        #expect(SweepSummary.isSweep(Self.cells))
        let summary = SweepSummary(Self.cells)
        #expect(summary.axes == .init(policy: true, termination: false, profile: false))
        #expect(summary.configurations.map { $0.label(summary.axes) } == ["ios3", "ios6", "lru"])
        #expect(summary.seedsPerCell == 2)
        let ios3 = try #require(summary.spreads[summary.configurations[0]]?[.meanFootprint])
        // 10, 20, 30, 40 MiB: ranks ceil(0.25 x 4) = 1, ceil(0.5 x 4) = 2, ceil(0.75 x 4) = 3.
        #expect(ios3 == SweepSummary.Spread([10, 20, 30, 40].map { Double($0 << 20) }))
        let mebibyte = Double(1 << 20)
        #expect(ios3.count == 4)
        #expect([ios3.minimum, ios3.lowerQuartile, ios3.median, ios3.upperQuartile, ios3.maximum] == [10, 10, 20, 30, 40].map { $0 * mebibyte })
        let ios6 = try #require(summary.spreads[summary.configurations[1]]?[.meanFootprint])
        #expect([ios6.lowerQuartile, ios6.median, ios6.upperQuartile] == [12, 12, 14].map { $0 * mebibyte })
        #expect(summary.spreads[summary.configurations[1]]?[.peakFootprint]?.median == Double(24 << 20))
    }

    @Test("the frontier marks what another configuration beats on both figures; cached apps count more as better")
    func frontier() {
        let summary = SweepSummary(Self.cells)
        // Medians: ios3 (20 MiB, 100 ms), ios6 (12 MiB, 200 ms), lru (25 MiB, 150 ms): ios3 beats lru on both.
        #expect(summary.dominated(.meanFootprint, .reloadTime).map { $0.policy } == ["lru"])
        // Cached apps (more is better) against reload time: ios3 (1.5, 100 ms) beats no one; lru (2.5, 150 ms) beats ios6 (2.5, 200 ms).
        #expect(summary.dominated(.cachedApps, .reloadTime).map { $0.policy } == ["ios6"])
    }

    @Test("who wins where: the best median over a scenario's seeds, ties together, the margin in percent of the runner-up")
    func wins() throws {
        let summary = SweepSummary(Self.cells)
        let mean = try #require(summary.wins.first { $0.scenario == "a" && $0.metric == .meanFootprint })
        // a: ios3 (10, 30) median 10; ios6 (12, 12) 12; lru 25: ios3 by (12 - 10) / 12.
        #expect(mean.best.map(\.policy) == ["ios3"])
        #expect(abs(try #require(mean.marginPercent) - 100.0 * 2 / 12) < 1e-9)
        let cached = try #require(summary.wins.first { $0.scenario == "b" && $0.metric == .cachedApps })
        #expect(cached.best.map(\.policy) == ["ios6", "lru"])
        #expect(abs(try #require(cached.marginPercent) - 100.0 * (2.5 - 1.5) / 1.5) < 1e-9)
        let kills = try #require(summary.wins.first { $0.scenario == "a" && $0.metric == .kills })
        #expect(kills.best.count == 3 && kills.marginPercent == nil)
        #expect(SweepReport.winText(kills, summary, of: 3) == "all 3 tie")
        #expect(SweepReport.winText(cached, summary, of: 3) == "ios6 = lru (66.7%)")
    }

    @Test("the page: one self-contained HTML file with the aggregate, two frontier charts, box plots, the win matrix and the cells folded away")
    func page() throws {
        let file = try ResultsFile(version: "t", runs: Self.cells)
        let html = HTMLReport.render(file)
        #expect(html.contains("<h1>PressureLab sweep report</h1>"))
        #expect(html.contains("id=\"aggregate\"") && html.contains("id=\"wins\""))
        #expect(html.components(separatedBy: "<svg class=\"frontier\"").count - 1 == 2)
        #expect(html.components(separatedBy: "<svg class=\"boxes\"").count - 1 == 2)
        #expect(html.contains("<details><summary>All 12 cells"))
        #expect(html.contains("device time modelled with p"))
        #expect(!html.contains("<script") && !html.contains("http://") && !html.contains("https://"))
        let markdown = MarkdownReport.render(file)
        #expect(markdown.contains("| ~~lru~~ | 4 | 25.00 MiB [25.00 MiB–25.00 MiB] |"))
        #expect(markdown.contains("| a | ios3 (16.7%) |"))
    }
}
