import Foundation
import PressureLab
import PressureLabHarness
import Testing

/// `DeviceExperiment.run`: one configuration of a workload, its alive counts and kills by cause.
@Suite("Device experiment: one configuration's outcome")
struct DeviceExperimentTests {
    /// Five apps of 6 MiB (4 MiB of data, a 2 MiB model) launched in turn on a 16 MiB
    /// device, as Fleet's phone ran: lmkd's kills off, so only the kernel's OOM killer and
    /// ActivityManager's cached limit kill.
    static let workload = """
        scenario: 1
        name: five
        device: { memory: 16MiB }
        apps:
          a: { data: 4MiB, screens: { s: { model: 2MiB } }, root: s }
          b: { data: 4MiB, screens: { s: { model: 2MiB } }, root: s }
          c: { data: 4MiB, screens: { s: { model: 2MiB } }, root: s }
          d: { data: 4MiB, screens: { s: { model: 2MiB } }, root: s }
          e: { data: 4MiB, screens: { s: { model: 2MiB } }, root: s }
        script:
          - launch: a
          - launch: b
          - launch: c
          - launch: d
          - launch: e

        """

    @Test("every kill of the workload is counted by its cause, and the alive counts follow the launches")
    func killsByCause() throws {
        let scenario = try ScenarioLoader().parse(Self.workload, path: "five.yaml")
        let profile = try ProfileLoader().load(path: "\(CompressedPoolTests.packageRoot)/profiles/pixel-3-2018.yaml")
        let configuration = DeviceExperiment.configurations(compressor: .none).first { $0.name == "android-no-swap" }!
        let outcome = try DeviceExperiment.run(scenario, configuration: configuration, profile: profile, published: nil)
        // Two 6 MiB apps fit beside a third's launch in 16 MiB: from the third launch on, the
        // kernel's OOM killer makes room, one app a launch.
        #expect(outcome.aliveAfterLaunch == [1, 2, 2, 2, 2])
        #expect(outcome.kills == 3)
        #expect(outcome.killsByReason == [KillReason.kernelOOM.rawValue: 3])
        let json = String(decoding: try JSONEncoder().encode(outcome), as: UTF8.self)
        #expect(json.contains(#""killsByReason":{"kernel-oom":3}"#))
    }

    @Test("memory locked away is taken from the budget before the workload starts: 8 of 16 MiB locked, one 6 MiB app fits beside a launch, not two")
    func lockedMemory() throws {
        let scenario = try ScenarioLoader().parse(Self.workload, path: "five.yaml")
        let profile = try ProfileLoader().load(path: "\(CompressedPoolTests.packageRoot)/profiles/pixel-3-2018.yaml")
        var configuration = DeviceExperiment.configurations(compressor: .none).first { $0.name == "android-no-swap" }!
        configuration.lockedBytes = 8 << 20
        let outcome = try DeviceExperiment.run(scenario, configuration: configuration, profile: profile, published: nil)
        #expect(outcome.aliveAfterLaunch == [1, 1, 1, 1, 1])
        #expect(outcome.killsByReason == [KillReason.kernelOOM.rawValue: 4])
    }

    @Test("a configuration's published background figures reach its outcome by their key, and the JSON keeps them")
    func publishedBackground() throws {
        let scenario = try ScenarioLoader().parse(Self.workload, path: "five.yaml")
        let profile = try ProfileLoader().load(path: "\(CompressedPoolTests.packageRoot)/profiles/pixel-3-2018.yaml")
        let published = PublishedExperiment(published: "test", source: .init(repository: "r", commit: "c", files: [:]),
                                            apps: ["a", "b"], aliveAfterLaunch: [:], hotLaunchMs: [:],
                                            backgroundKB: ["free": ["a": 6144]], notes: [:])
        let configuration = DeviceExperiment.Configuration(name: "free", termination: .lmkWithoutLmkd, compressor: .none,
                                                           note: "test", publishedBackground: "free")
        let outcome = try DeviceExperiment.run(scenario, configuration: configuration, profile: profile, published: published)
        #expect(outcome.published?.backgroundKB == ["a": 6144])
        let json = String(decoding: try JSONEncoder().encode(outcome), as: UTF8.self)
        #expect(json.contains(#""backgroundKB":{"a":6144}"#))
    }

    @Test("every bundled experiment names files that ship, and configurations of its own")
    func bundledExperiments() throws {
        let folder = "\(CompressedPoolTests.packageRoot)/scenarios/experiments"
        for experiment in BundledExperiment.allCases {
            for file in [experiment.workloadFile, experiment.publishedFile] + (experiment.hotLaunchFile.map { [$0] } ?? []) {
                #expect(FileManager.default.fileExists(atPath: "\(folder)/\(file)"), "\(experiment): \(file)")
                #expect(EmbeddedLibrary.files.contains { $0.folder == "scenarios/experiments" && $0.name == file }, "\(experiment): \(file)")
            }
            _ = try ScenarioLoader().load(path: "\(folder)/\(experiment.workloadFile)")
            _ = try PublishedExperiment.read(from: "\(folder)/\(experiment.publishedFile)")
            #expect(!experiment.configurations(compressor: .lz4).isEmpty)
        }
        #expect(BundledExperiment.pixel4.configurations(compressor: .lz4).map(\.name) == ["memory-free", "locked-flash-swap"])
    }
}
