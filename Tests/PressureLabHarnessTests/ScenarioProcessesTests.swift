import PressureLab
import PressureLabHarness
import Testing

/// `processes:` and `grow:` in scenario files, and the device experiment counting kills by the
/// kind of process they took.
@Suite("Scenarios: processes and growth")
struct ScenarioProcessesTests {
    static func scenario(processes: String, script: String = "  - launch: browser") -> String {
        """
        scenario: 1
        name: p
        device: { memory: 512MiB }
        apps:
          browser:
            data: 8MiB
            screens: { main: { backing: 1MiB } }
            root: main
        \(processes)
        script:
        \(script)
        """
    }

    @Test("processes are read with their kind and data; errors name the key")
    func reading() throws {
        let text = Self.scenario(processes: """
                processes:
                  renderer: { kind: isolated, data: 60MiB }
                  gpu: { kind: bound, data: 90MiB }
                  mqtt: { kind: service, data: 32MiB }
            """, script: "  - launch: browser\n  - grow: 4MiB")
        let scenario = try ScenarioLoader().parse(text, path: "p.yaml")
        #expect(scenario.apps[0].processes == [ProcessSpec(name: "renderer", kind: .isolated, bytes: 60 << 20),
                                               ProcessSpec(name: "gpu", kind: .bound, bytes: 90 << 20),
                                               ProcessSpec(name: "mqtt", kind: .service, bytes: 32 << 20)])
        #expect(scenario.script.last == .action(.grow(4 << 20)))
        for (processes, key, message) in [
            ("    processes: { renderer: { kind: thread, data: 1MiB } }", "apps.browser.processes.renderer.kind",
             "unknown kind 'thread'; valid kinds are isolated, bound, service"),
            ("    processes: { renderer: { kind: bound } }", "apps.browser.processes.renderer.data", nil),
            ("    processes: [renderer]", "apps.browser.processes", nil),
            ("    processes: { Renderer: { kind: bound, data: 1MiB } }", "apps.browser.processes", nil),
        ] as [(String, String, String?)] {
            do {
                _ = try ScenarioLoader().parse(Self.scenario(processes: processes), path: "p.yaml")
                Issue.record("accepted: \(processes)")
            } catch {
                let found = error.diagnostics.first { $0.key == key }
                #expect(found != nil, "\(error.description)")
                if let message { #expect(found?.message == message) }
            }
        }
    }

    @Test("the device experiment counts kills by the kind of process: a renderer killed alone is secondary, its app lives on")
    func killsByProcessKind() throws {
        // Android 10's lmkd (stock) on the Pixel 3's profile: the browser in front with a 300 MiB
        // renderer (adj 100, visible) grows by 170 MiB: memory is critically short, and from adj
        // 1000 down the renderer is the first process found; the browser (adj 0) lives on.
        let text = """
        scenario: 1
        name: k
        device: { memory: 512MiB, profile: pixel-3-2018 }
        apps:
          browser:
            data: 8MiB
            screens: { main: { backing: 1MiB } }
            root: main
            processes: { renderer: { kind: isolated, data: 300MiB } }
          notes:
            data: 8MiB
            screens: { main: { backing: 1MiB } }
            root: main
        script:
          - launch: browser
          - grow: 170MiB
        """
        let scenario = try ScenarioLoader().parse(text, path: "k.yaml")
        let configuration = DeviceExperiment.Configuration(name: "stock", termination: .lmk, compressor: .none, note: "test")
        let outcome = try DeviceExperiment.run(scenario, configuration: configuration, profile: try ProfileLibrary.load(.bundled("pixel-3-2018")),
                                               published: nil)
        let marks = outcome.run.timeline.flatMap { $0.marks ?? [] }
        #expect(marks.contains { if case .killProcess(app: "browser", process: "renderer", _) = $0 { true } else { false } })
        #expect(outcome.killsByProcess["secondary"] == 1)
        #expect(outcome.killsByProcess["main"] == nil)
        #expect(outcome.aliveAfterLaunch == [1])
        // (A second later ActivityManager would start the renderer again, and memory would be as
        // short as before: ProcessTests/killedServiceRestarts.)
    }
}
