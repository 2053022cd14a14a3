import Foundation
import PressureLab
@testable import PressureLabHarness
import Testing

@Suite("Timeline charts that read at any length")
struct TimelineChartTests {
    /// A run of `steps` steps retaining a seeded zig-zag, with a kill at every step.
    static func longRun(_ policy: Cleanup, steps: Int) -> RunResult {
        var run = SweepReportTests.template
        run.policy = policy
        var random = SplitMix64(seed: 9)
        run.timeline = (1...steps).map { step in
            RunResult.TimelineEntry(step: step, event: "idle 1.0s", retainedBytes: Int(random.next() % (64 << 20)),
                                    level: step % 100 < 10 ? .warning : .normal,
                                    marks: [.kill(app: "a", reason: .idleExit)], aliveApps: 1)
        }
        run.metrics.peakRetainedBytes = run.timeline.map(\.retainedBytes).max()!
        return run
    }

    @Test("past one step a pixel column, each column's band holds its true minimum and maximum")
    func bands() {
        let run = Self.longRun(.ios6, steps: 5_000)
        let bands = HTMLReport.bands(run.timeline, steps: 5_000, columns: 710)
        #expect(bands.count == 710)
        #expect(bands.map(\.column) == Array(0..<710))
        var expected: [Int: (Int, Int)] = [:]
        for entry in run.timeline {
            let column = HTMLReport.column(of: entry.step, steps: 5_000, columns: 710)
            let (low, high) = expected[column] ?? (Int.max, Int.min)
            expected[column] = (min(low, entry.retainedBytes), max(high, entry.retainedBytes))
        }
        for band in bands {
            let truth = expected[band.column]!
            #expect(band.minimum == truth.0, "column \(band.column)")
            #expect(band.maximum == truth.1, "column \(band.column)")
        }
    }

    @Test("a long run is a band with its marks thinned to one a kind a column, with their count; coinciding runs are said to coincide")
    func page() throws {
        let runs = [Self.longRun(.ios3, steps: 5_000), Self.longRun(.ios6, steps: 5_000), Self.longRun(.lru, steps: 300)]
        let html = HTMLReport.timelineChart(runs, id: "t")
        #expect(html.components(separatedBy: "<polygon class=\"band\"").count - 1 == 2)
        #expect(html.contains("data-columns=\"710\" data-steps=\"5000\""))
        #expect(html.components(separatedBy: "<polyline class=\"series\" data-policy=\"lru\"").count - 1 == 1)
        #expect(html.contains(">ios3 = ios6<title>ios3 = ios6: the same retained bytes at every step</title></text>"))
        // Thinned: at most one kill marker a column per long run, the counts adding up to every kill.
        let pattern = try NSRegularExpression(pattern: "class=\"mark kill\"(?: data-count=\"([0-9]+)\")?")
        let matches = pattern.matches(in: html, range: NSRange(html.startIndex..., in: html))
        let counts = matches.map { match -> Int in
            Range(match.range(at: 1), in: html).map { Int(html[$0])! } ?? 1
        }
        let markers = counts.count, kills = counts.reduce(0, +)
        #expect(markers <= 2 * 710 + 300)
        #expect(kills == 10_300)
        #expect(html.contains("<title>steps 1-7: 7 marks: kill a (idle-exit), kill a (idle-exit)"))
    }
}
