import Foundation
import PressureLab
import PressureLabHarness
import Testing
import TestSupport

@Suite("HTML and Markdown reports")
struct ReportTests {
    static func results() throws -> ResultsFile {
        let scenario = try ScenarioLoader().load(path: Executable.packageRoot.appendingPathComponent("scenarios/photo-browser.yaml").path)
        let runs = try [Cleanup.keepAll, .ios3, .costAware].map { try Simulation(scenario, cleanup: $0, termination: .jetsam).run() }
        return try ResultsFile(version: PressureLabVersion.current, runs: runs)
    }

    static func attributes(_ name: String, in html: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: "\(name)=\"([^\"]*)\"")
        return pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)).map {
            String(html[Range($0.range(at: 1), in: html)!])
        }
    }

    @Test("every chart is present, no series is empty, and the values match the results")
    func structure() throws {
        let results = try Self.results()
        let html = HTMLReport.render(results)
        // Self-contained: no network, no scripts.
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("<script"))
        #expect(!html.contains("NaN") && !html.contains("inf"))
        // Every chart.
        for id in ["comparison", "timeline-photo-browser", "latency-photo-browser-view-reload",
                   "latency-photo-browser-cold-launch", "owners-photo-browser-keep-all-0", "owners-photo-browser-ios3-0",
                   "owners-photo-browser-cost-aware-0"] {
            #expect(html.contains("id=\"\(id)\""), "missing \(id)")
        }
        // No empty series: every polyline has two points or more.
        let counts = Self.attributes("data-points", in: html).compactMap(Int.init)
        #expect(!counts.isEmpty)
        #expect(counts.allSatisfy { $0 >= 2 })
        for points in Self.attributes(" points", in: html) { #expect(points.split(separator: " ").count >= 2) }
        // Values: the table's and the timeline's peaks are the results' peaks; the owner bars are the peak owners.
        let peaks = Set(results.runs.map { String($0.metrics.peakRetainedBytes) })
        #expect(Set(Self.attributes("data-peak", in: html)) == peaks)
        let bars = Set(Self.attributes("data-bytes", in: html).compactMap(Int.init))
        for run in results.runs {
            let top = (run.peakOwners ?? []).filter { $0.retainedBytes > 0 }.map(\.retainedBytes).max()
            #expect(top.map { bars.contains($0) } ?? false)
        }
        // Each run's timeline polyline has one point per step, plus the origin.
        let timelinePoints = Self.attributes("data-points", in: html).prefix(results.runs.count).compactMap(Int.init)
        #expect(timelinePoints == results.runs.map { $0.timeline.count + 1 })
        // Kills and launches are marked.
        #expect(html.contains("class=\"mark launch\""))
        #expect(html.contains("class=\"level normal\""))
    }

    @Test("the markdown report has the comparison, latencies and owners of every scenario")
    func markdown() throws {
        let text = MarkdownReport.render(try Self.results())
        #expect(text.hasPrefix("# PressureLab report"))
        #expect(text.contains("| photo-browser | keep-all | jetsam |"))
        #expect(text.contains("## photo-browser"))
        #expect(text.contains("| ios3 | view reload |"))
        #expect(text.contains("Top owners at the peak under cost-aware: photos/grid#1"))
    }

    @Test("report reads a results file; run --html is the shortcut")
    func command() throws {
        let json = Executable.temporary("results.json"), html = Executable.temporary("report.html"), html2 = Executable.temporary("run.html")
        defer { for path in [json, html, html2] { try? FileManager.default.removeItem(atPath: path) } }
        let run = try Executable.run(["run", Executable.small, "--policy", "ios6", "--output", json, "--html", html2])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try Executable.run(["report", json, "--html", html, "--markdown", "-"])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.hasPrefix("# PressureLab report"))
        #expect(try String(contentsOfFile: html, encoding: .utf8).contains("id=\"timeline-small\""))
        #expect(try String(contentsOfFile: html2, encoding: .utf8).contains("id=\"timeline-small\""))
        #expect(try Executable.run(["report", "/nonexistent.json", "--html", html]).status == 1)
    }
}
