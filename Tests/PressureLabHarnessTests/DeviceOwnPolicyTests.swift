import Foundation
import Testing
import TestSupport

/// A termination policy of one's own in the device experiment (docs/device-experiments.md, "Your
/// own policy in the experiment"): under each memory it asks for, alone if asked, beside the
/// published figures of the same memory where the experiment has them.
@Suite("device: a policy of your own under the memory you ask for")
struct DeviceOwnPolicyTests {
    @Test("--compressor, --swap-file and --only: one configuration each, alone, published beside where published")
    func memoryConfigurations() throws {
        let directory = try Executable.temporaryDirectory("device-own-policy")
        defer { try? FileManager.default.removeItem(at: directory) }
        let workload = directory.appendingPathComponent("tiny.yaml").path
        try """
            scenario: 1
            name: tiny
            device: { memory: 28MiB, profile: pixel-3-2018 }
            apps:
              a: { data: 9MiB, clean: 1MiB, screens: { s: { backing: 2MiB } }, root: s }
              b: { data: 9MiB, screens: { s: { backing: 2MiB } }, root: s }
              c: { data: 9MiB, screens: { s: { backing: 2MiB } }, root: s }
            script:
              - repeat: { times: 2, steps: [ home, { idle: 2s }, { launch: a }, { idle: 30s }, home, { launch: b }, home, { launch: c } ] }

            """.write(toFile: workload, atomically: true, encoding: .utf8)
        let publishedPath = directory.appendingPathComponent("tiny-published.json").path
        try """
            { "published": "test", "source": { "repository": "example/tiny", "commit": "0", "files": {} },
              "apps": ["a", "b"], "aliveAfterLaunch": { "android-no-swap": [1, 2, 2, 2, 2, 2], "android-swap": [1, 2, 3, 3, 3, 3] },
              "hotLaunchMs": { "android": { "a": [100, 120], "b": [80] } }, "notes": {} }
            """.write(toFile: publishedPath, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("device.json").path
        // largest-first stands for a policy of your own: --termination takes either alike.
        let outcome = try Executable.run(["device", "--scenario", workload, "--hot-launch-scenario", workload,
                                          "--published", publishedPath, "--termination", "largest-first",
                                          "--compressor", "none", "--compressor", "lz4", "--swap-file",
                                          "--only", "largest-first", "--only", "largest-first-zram-lz4", "--only", "largest-first-swap",
                                          "--jobs", "1", "--format", "json", "--output", output])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("3 configurations in this process"), "\(outcome.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any])
        let configurations = try #require(report["configurations"] as? [[String: Any]])
        #expect(configurations.map { $0["name"] as? String } == ["largest-first", "largest-first-zram-lz4", "largest-first-swap"])
        func publishedAlive(_ index: Int) -> [Int]? {
            (configurations[index]["published"] as? [String: Any])?["aliveAfterLaunch"] as? [Int]
        }
        #expect(publishedAlive(0) == [1, 2, 2, 2, 2, 2])   // android-no-swap's: the same memory
        #expect(publishedAlive(1) == nil)                  // nothing published with zram
        #expect(publishedAlive(2) == [1, 2, 3, 3, 3, 3])   // android-swap's
        for configuration in configurations { #expect((configuration["aliveAfterLaunch"] as? [Int])?.count == 6) }
        // The memory matters: without compression the policy kills more (4 kills, 6 cold launches
        // against 1 and 4 with lz4 zram), which is why a sweep must name the same compressor.
        #expect(configurations.prefix(2).map { $0["kills"] as? Int } == [4, 1])
        #expect(configurations.prefix(2).map { $0["coldLaunches"] as? Int } == [6, 4])

        // The same policy and workload in a sweep, cell by cell: the same kills, cold launches and
        // apps alive after each launch (docs/device-experiments.md, "The same cell in a sweep").
        let sweepFile = directory.appendingPathComponent("same.yaml").path
        try "sweep: 1\nscenarios: [tiny.yaml]\npolicy: [ios6]\ntermination: [largest-first]\ncompressor: [none, lz4]\n"
            .write(toFile: sweepFile, atomically: true, encoding: .utf8)
        let swept = try Executable.run(["sweep", sweepFile, "--jobs", "1", "--output", directory.appendingPathComponent("swept").path])
        #expect(swept.status == 0, "\(swept.stderr)")
        let results = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: directory.appendingPathComponent("swept/results.json"))) as? [String: Any])
        let runs = try #require(results["runs"] as? [[String: Any]])
        #expect(runs.count == 2)
        for (run, configuration) in zip(runs, configurations.prefix(2)) {   // none, then lz4, in both
            let metrics = try #require(run["metrics"] as? [String: Any])
            #expect(metrics["kills"] as? Int == configuration["kills"] as? Int)
            #expect(metrics["coldLaunches"] as? Int == configuration["coldLaunches"] as? Int)
            let timeline = try #require(run["timeline"] as? [[String: Any]])
            let alive = timeline.filter { ($0["event"] as? String).map { $0.hasPrefix("launch ") || $0.hasPrefix("switch ") } ?? false }
                .compactMap { $0["aliveApps"] as? Int }
            #expect(alive == configuration["aliveAfterLaunch"] as? [Int])
        }

        let unknown = try Executable.run(["device", "--scenario", workload, "--only", "largest-cached-first"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("--only largest-cached-first: no configuration of that name; configurations: android-no-swap"))
    }
}
