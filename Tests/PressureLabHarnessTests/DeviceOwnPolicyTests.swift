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
              "apps": ["a", "b"], "aliveAfterLaunch": { "android-no-swap": [1, 2, 2, 2], "android-swap": [1, 1, 2, 2] },
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
        #expect(publishedAlive(0) == [1, 2, 2, 2])   // android-no-swap's: the same memory
        #expect(publishedAlive(1) == nil)            // nothing published with zram
        #expect(publishedAlive(2) == [1, 1, 2, 2])   // android-swap's
        for configuration in configurations { #expect((configuration["aliveAfterLaunch"] as? [Int])?.count == 4) }

        let unknown = try Executable.run(["device", "--scenario", workload, "--only", "largest-cached-first"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("--only largest-cached-first: no configuration of that name; configurations: android-no-swap"))
    }
}
