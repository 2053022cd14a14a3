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
}
