import Foundation
import Testing
import TestSupport


@Suite("End to end: the pressurelab executable", .serialized)
struct EndToEndTests {
    static let bundled = ["day-of-apps", "fleet-switching", "leaking-drafts", "long-random", "mail-compose", "modal-wizard",
                          "music-switching", "photo-browser", "settings-deep", "seven-tabs", "social-feed", "steady-drafts"]

    @Test("every bundled scenario validates")
    func bundledValidate() throws {
        let outcome = try Executable.run(["validate"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        for name in Self.bundled { #expect(outcome.stdout.contains("scenarios/\(name).yaml: ok")) }
    }

    @Test("every bundled scenario runs, and its JSON has the fields of pressurelab.results/1", arguments: bundled)
    func bundledRuns(name: String) throws {
        let output = Executable.temporary("\(name).json")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let outcome = try Executable.run(["run", name, "--policy", "ios6", "--policy", "cost-aware", "--output", output,
                                          "--format", "csv"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        let results = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        try SchemaCheck.results(results, runs: 2)
        #expect(outcome.stdout.hasPrefix("scenario,policy,termination,peak_bytes"))
    }

    @Test("the trace has every callback, in order, one JSON object a line")
    func trace() throws {
        let tracePath = Executable.temporary("trace.jsonl")
        defer { try? FileManager.default.removeItem(atPath: tracePath) }
        let outcome = try Executable.run(["run", Executable.small, "--policy", "ios3", "--trace", tracePath])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = try String(contentsOfFile: tracePath, encoding: .utf8).split(separator: "\n")
        var events: [String] = []
        var lastStep = 0
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["step", "app", "controller", "event"])
            let step = try #require(object["step"] as? Int)
            #expect(step >= lastStep)
            lastStep = step
            let controller = object["controller"] as? String ?? ""
            events.append(controller.isEmpty ? "\(object["event"]!)" : "\(object["event"]!)(\(controller))")
        }
        // The push of the first detail, in UIKit's order, then its unload under ios3 (iOS 3 callbacks).
        let expected = ["willMoveToParent(detail#1)", "viewWillDisappear(list#1)", "loadView(detail#1)", "viewDidLoad(detail#1)",
                        "viewWillAppear(detail#1)", "viewDidDisappear(list#1)", "viewDidAppear(detail#1)",
                        "didMoveToParent(detail#1)", "applicationDidReceiveMemoryWarning", "didReceiveMemoryWarning(detail#1)",
                        "viewDidUnload(detail#1)", "didEnterBackground"]
        var index = events.startIndex
        for event in expected {
            guard let found = events[index...].firstIndex(of: event) else {
                Issue.record("\(event) missing or out of order in \(events)")
                return
            }
            index = found + 1
        }
        // Each launch is bracketed by launchBegan and launchEnded (durations in a Chrome trace).
        #expect(events.first == "launchBegan")
        #expect(events.dropFirst().first == "didFinishLaunching" || events.dropFirst().first?.hasPrefix("willMoveToParent") == true)
    }

    @Test("two runs with the same seed give identical traces and byte counts")
    func deterministic() throws {
        var traces: [Data] = []
        var bytes: [[Int]] = []
        for index in 0..<2 {
            let tracePath = Executable.temporary("seed-\(index).jsonl")
            let output = Executable.temporary("seed-\(index).json")
            defer {
                try? FileManager.default.removeItem(atPath: tracePath)
                try? FileManager.default.removeItem(atPath: output)
            }
            let outcome = try Executable.run(["run", "long-random", "--policy", "lru", "--seed", "5", "--trace", tracePath,
                                              "--output", output, "--format", "json"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            traces.append(try Data(contentsOf: URL(fileURLWithPath: tracePath)))
            let results = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as! [String: Any]
            let run = (results["runs"] as! [[String: Any]])[0]
            let metrics = run["metrics"] as! [String: Any]
            let timeline = (run["timeline"] as! [[String: Any]]).map { $0["retainedBytes"] as! Int }
            bytes.append([metrics["peakRetainedBytes"] as! Int, metrics["finalRetainedBytes"] as! Int,
                          metrics["meanRetainedBytes"] as! Int] + timeline)
        }
        #expect(traces[0].count > 10_000)
        #expect(traces[0] == traces[1])
        #expect(bytes[0] == bytes[1])
    }

    @Test("every broken scenario exits 65 with its file, line and column, and none crashes")
    func brokenCorpus() throws {
        let directory = Executable.fixtures.appendingPathComponent("broken").path
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(files.count >= 30)
        for file in files {
            let path = "\(directory)/\(file)"
            let outcome = try Executable.run(["validate", path])
            #expect(!outcome.crashed, "\(file) crashed")
            #expect(outcome.status == 65, "\(file): exit \(outcome.status), \(outcome.stderr)")
            let located = outcome.stderr.range(of: #"broken/[a-z-]+\.yaml:[0-9]+:[0-9]+: "#, options: .regularExpression)
            #expect(located != nil, "\(file): no line and column in \(outcome.stderr)")
            // Nothing runs on an invalid file either.
            let run = try Executable.run(["run", path])
            #expect(run.status == 65, "\(file): run exit \(run.status)")
        }
    }

    @Test("every error of a file is reported, not only the first")
    func allErrors() throws {
        let path = Executable.temporary("many.yaml")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = try String(contentsOfFile: Executable.small, encoding: .utf8)
            .replacingOccurrences(of: "seed: 1", with: "seed: 1\ncolour: blue")
            .replacingOccurrences(of: "cache: 1MiB", with: "cache: lots")
            .replacingOccurrences(of: "  - home", with: "  - jump")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try Executable.run(["validate", path])
        #expect(outcome.status == 65)
        #expect(outcome.stderr.split(separator: "\n").count == 3, "\(outcome.stderr)")
    }

    @Test("bad usage exits 64")
    func badUsage() throws {
        #expect(try Executable.run(["run", Executable.small, "--policy", "nonsense"]).status == 64)
        #expect(try Executable.run(["run", Executable.small, "--format", "xml"]).status == 64)
        #expect(try Executable.run(["compare", Executable.small, "--policy", "ios6"]).status == 64)
        #expect(try Executable.run(["run", Executable.small, "--termination", "nuke"]).status == 64)
    }

    @Test("list names the bundled scenarios and the policies")
    func list() throws {
        let scenarios = try Executable.run(["list", "scenarios"])
        #expect(scenarios.status == 0)
        #expect(scenarios.stdout.split(separator: "\n").count == Self.bundled.count)
        let policies = try Executable.run(["list", "policies"])
        #expect(policies.stdout.contains("cost-aware") && policies.stdout.contains("freeze"))
    }
}

/// Checks the fields of `pressurelab.results/1` (docs/formats.md, "Results").
enum SchemaCheck {
    static func keys(_ object: [String: Any], _ required: [String], _ where_: String) {
        for key in required { #expect(object[key] != nil, "\(where_): missing '\(key)'") }
    }

    static func results(_ results: [String: Any], runs count: Int) throws {
        #expect(results["schema"] as? String == "pressurelab.results/1")
        keys(results, ["schema", "tool", "host", "runs"], "results")
        keys(results["tool"] as? [String: Any] ?? [:], ["version"], "tool")
        let host = try #require(results["host"] as? [String: Any])
        keys(host, ["cpus", "memoryBytes", "allocator", "allocatorOptions"], "host")
        #expect((host["allocator"] as? String)?.hasPrefix("jemalloc") == true)
        let runs = try #require(results["runs"] as? [[String: Any]])
        #expect(runs.count == count)
        for run in runs {
            keys(run, ["scenario", "policy", "termination", "seed", "repeat", "metrics", "owners", "timeline"], "run")
            let metrics = try #require(run["metrics"] as? [String: Any])
            keys(metrics, ["peakRetainedBytes", "finalRetainedBytes", "meanRetainedBytes", "warnings", "viewUnloads",
                           "viewReloads", "backingStorePurges", "cachePurges", "kills", "freezes", "coldLaunches", "resumes",
                           "outOfMemoryCrashes", "dataLossBytes", "cachedAppsMean", "viewReloadLatencyNs",
                           "coldLaunchLatencyNs", "resumeLatencyNs"], "metrics")
            for latency in ["viewReloadLatencyNs", "coldLaunchLatencyNs", "resumeLatencyNs"] {
                keys(metrics[latency] as? [String: Any] ?? [:], ["count", "p50", "p90", "p99", "max"], latency)
            }
            #expect((metrics["peakRetainedBytes"] as? Int ?? 0) > 0)
            for owner in run["owners"] as? [[String: Any]] ?? [] { keys(owner, ["app", "controller", "retainedBytes"], "owner") }
            let timeline = try #require(run["timeline"] as? [[String: Any]])
            #expect(!timeline.isEmpty)
            for entry in timeline.prefix(50) { keys(entry, ["step", "event", "retainedBytes", "level"], "timeline") }
        }
    }
}
