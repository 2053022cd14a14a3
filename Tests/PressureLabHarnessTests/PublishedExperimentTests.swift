import Foundation
import PressureLab
import PressureLabHarness
import Testing
import TestSupport

/// Fleet's published figures beside the modelled ones (`pressurelab device`).
@Suite("Published beside modelled: Fleet's experiment", .serialized)
struct PublishedExperimentTests {
    static let experiments = Executable.packageRoot.appendingPathComponent("scenarios/experiments").path

    @Test("the data file names its source and holds 36 counts a configuration; fleet-18 launches Fleet's apps in Fleet's order, twice")
    func dataFile() throws {
        let published = try PublishedExperiment.read(from: Self.experiments + "/fleet-published.json")
        #expect(published.source.repository == "jiachengh/Fleet")
        #expect(published.source.commit == "32f22f7afa9f5e2c07608b9de00d8fd944df713b")
        for configuration in ["android-no-swap", "android-swap", "marvin", "fleet"] {
            #expect(published.aliveAfterLaunch[configuration]?.count == 36, "\(configuration)")
        }
        #expect(Set(published.hotLaunchMs["android"]?.keys.map { $0 } ?? []) == Set(published.apps))
        let workload = try ScenarioLoader().load(path: Self.experiments + "/fleet-18.yaml")
        func launches(_ steps: [Scenario.Step]) -> [String] {
            steps.flatMap { step -> [String] in
                switch step {
                case .action(.launch(let app)): return [app]
                case .repeatSteps(let count, let inner): return Array(repeating: launches(inner), count: count).flatMap { $0 }
                default: return []
                }
            }
        }
        let launches = launches(workload.script)
        #expect(launches == published.apps + published.apps)
        #expect(workload.apps.map(\.name) == published.apps)
    }

    @Test("relative errors and medians as the table prints them")
    func arithmetic() {
        #expect(PublishedComparison.relativeError(9, 12) == -0.25)
        #expect(PublishedComparison.relativeError(1, 0) == nil)
        #expect(PublishedComparison.median([3, 1, 2]) == 2)
        #expect(PublishedComparison.median([4, 1, 2, 3]) == 2.5)
        #expect(PublishedComparison.median([]) == nil)
        #expect(PublishedComparison.mean([2, 3, 4]) == 3)
        #expect(LatencySummary(samples: [5, 1, 3, 2, 4]).p50 == 3)
        #expect(LatencySummary(samples: [5, 1, 3, 2, 4]).max == 5)
    }

    @Test("pressurelab device --format json writes every configuration's alive counts (one a launch), hot launches and the published figures")
    func jsonOutput() throws {
        let directory = try Executable.temporaryDirectory("device-json")
        defer { try? FileManager.default.removeItem(at: directory) }
        let workload = directory.appendingPathComponent("tiny.yaml").path
        try """
            scenario: 1
            name: tiny
            device: { memory: 64MiB, profile: pixel-3-2018 }
            apps:
              a: { data: 4MiB, clean: 1MiB, screens: { s: { backing: 2MiB } }, root: s }
              b: { data: 4MiB, screens: { s: { backing: 2MiB } }, root: s }
            script:
              - repeat: { times: 2, steps: [ home, { idle: 2s }, { launch: a }, { idle: 30s }, home, { launch: b } ] }

            """.write(toFile: workload, atomically: true, encoding: .utf8)
        let publishedPath = directory.appendingPathComponent("tiny-published.json").path
        try """
            { "published": "test", "source": { "repository": "example/tiny", "commit": "0", "files": {} },
              "apps": ["a", "b"], "aliveAfterLaunch": { "android-no-swap": [1, 2, 2, 2], "android-swap": [1, 2, 2, 2] },
              "hotLaunchMs": { "android": { "a": [100, 120], "b": [80] } }, "notes": {} }
            """.write(toFile: publishedPath, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("device.json").path
        let outcome = try Executable.run(["device", "--scenario", workload, "--hot-launch-scenario", workload,
                                          "--published", publishedPath, "--format", "json", "--output", output])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any])
        #expect(report["experiment"] as? String == "tiny")
        let configurations = try #require(report["configurations"] as? [[String: Any]])
        #expect(configurations.map { $0["name"] as? String } == ["android-no-swap", "android-swap", "fleet", "freezer", "stock-lmkd",
                                                                  "stock-lmkd-zram"])
        for configuration in configurations {
            #expect((configuration["aliveAfterLaunch"] as? [Int])?.count == 4)
            #expect(configuration["hotLaunchDeviceNs"] is [String: Any])
        }
        let published = try #require(configurations[0]["published"] as? [String: Any])
        #expect(published["aliveAfterLaunch"] as? [Int] == [1, 2, 2, 2])
        #expect(configurations[2]["published"] == nil)
        // Both apps fit: every second launch is hot, and the counts include the app launched.
        #expect(configurations[0]["aliveAfterLaunch"] as? [Int] == [1, 2, 2, 2])
        let hot = try #require(configurations[0]["hotLaunchDeviceNs"] as? [String: [String: Any]])
        #expect(hot["a"]?["count"] as? Int == 1 && hot["b"]?["count"] as? Int == 1)
    }

    @Test("the device experiment's configurations in worker processes (--jobs) give the same output as in one process, a configuration of another policy included")
    func workersAgree() throws {
        let directory = try Executable.temporaryDirectory("device-jobs")
        defer { try? FileManager.default.removeItem(at: directory) }
        let workload = directory.appendingPathComponent("pair.yaml").path
        try """
            scenario: 1
            name: pair
            device: { memory: 48MiB, profile: pixel-3-2018 }
            apps:
              a: { data: 12MiB, clean: 2MiB, screens: { s: { backing: 4MiB } }, root: s }
              b: { data: 12MiB, clean: 1MiB, screens: { s: { backing: 4MiB } }, root: s }
              c: { data: 12MiB, screens: { s: { backing: 4MiB } }, root: s }
            script:
              - repeat: { times: 2, steps: [ { launch: a }, { idle: 30s }, home, { launch: b }, home, { launch: c }, home ] }

            """.write(toFile: workload, atomically: true, encoding: .utf8)
        var outputs: [String] = []
        for jobs in ["1", "3"] {
            let output = directory.appendingPathComponent("device-\(jobs).json").path
            let run = try Executable.run(["device", "--scenario", workload, "--hot-launch-scenario", workload,
                                          "--termination", "largest-first", "--jobs", jobs, "--format", "json", "--output", output])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains(jobs == "1" ? "7 configurations in this process" : "7 configurations, 3 at a time in worker processes"))
            // The bound a configuration keeps within: 48 MiB of budget, 3 MiB of clean files, 768 MiB of overhead.
            #expect(run.stderr.contains("bound a configuration: the budget 48.00 MiB + the apps' clean files 3.00 MiB "
                + "+ 768.00 MiB overhead = 819.00 MiB, within it"), "\(run.stderr)")
            outputs.append(try String(contentsOfFile: output, encoding: .utf8))
        }
        // Identical, but for the background means' resident clean pages: those are the host's page
        // cache, read when it changes and again 250 ms later (docs/limits.md, "The device experiment's
        // memory and time"), so a worker process may see a page of another timing: within one page.
        func parsed(_ text: String) throws -> [[String: Any]] {
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            return object?["configurations"] as? [[String: Any]] ?? []
        }
        let (inProcess, inWorkers) = (try parsed(outputs[0]), try parsed(outputs[1]))
        #expect(inProcess.count == 7 && inWorkers.count == 7)
        for (one, other) in zip(inProcess, inWorkers) {
            var (a, b) = (one, other)
            let (meansA, meansB) = (a.removeValue(forKey: "backgroundMeanBytes") as? [String: Int] ?? [:],
                                    b.removeValue(forKey: "backgroundMeanBytes") as? [String: Int] ?? [:])
            #expect(NSDictionary(dictionary: a).isEqual(to: b), "\(one["name"] ?? "?")")
            #expect(meansA.keys.sorted() == meansB.keys.sorted())
            for (app, bytes) in meansA { #expect(abs(bytes - (meansB[app] ?? 0)) <= 4096, "\(app)") }
        }
        #expect(outputs[0].contains("\"name\" : \"largest-first\""))
    }

    @Test("a worker that dies names the configuration it was running, its status and its last lines; the others' outcomes are not printed")
    func workerDies() throws {
        let directory = try Executable.temporaryDirectory("device-worker-dies")
        defer { try? FileManager.default.removeItem(at: directory) }
        let workload = directory.appendingPathComponent("one.yaml").path
        try """
            scenario: 1
            name: one
            device: { memory: 48MiB, profile: pixel-3-2018 }
            apps:
              a: { data: 4MiB, screens: { s: { backing: 1MiB } }, root: s }
            script:
              - launch: a
              - home

            """.write(toFile: workload, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("out.json").path
        let run = try Executable.run(["device", "--scenario", workload, "--hot-launch-scenario", workload, "--jobs", "2",
                                      "--format", "json", "--output", output],
                                     environment: ["PRESSURELAB_DEVICE_FAULT": "fleet", "SWIFT_BACKTRACE": "enable=no"])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("pressurelab: the configuration fleet: the worker failed (killed by signal 6):"), "\(run.stderr)")
        #expect(run.stderr.contains("fleet: aborting as PRESSURELAB_DEVICE_FAULT asks"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
