import Foundation
import PressureLab
@testable import PressureLabHarness
import Testing
import TestSupport

@Suite("Step names: one list, from the actions' kinds")
struct StepNamesTests {
    @Test("the scenario reader knows every action's kind by its name, plus repeat, random and replay")
    func names() {
        #expect(Scenario.Step.names == UserAction.Kind.allCases.map(\.rawValue) + ["repeat", "random", "replay"])
        #expect(Scenario.randomStepKinds == ["push", "pop", "pop_to_root", "select_tab", "present", "dismiss", "type", "scroll",
                                             "warning", "home", "switch", "idle"])
    }

    @Test("docs/formats.md names every step a script may use")
    func documented() throws {
        let formats = try String(contentsOf: Executable.packageRoot.appendingPathComponent("docs/formats.md"), encoding: .utf8)
        for name in Scenario.Step.names {
            #expect(formats.contains("`\(name)") , "docs/formats.md does not name the step \(name)")
        }
    }

    @Test("an unknown step lists the valid ones, in the actions' order")
    func unknownStep() throws {
        let text = """
        scenario: 1
        name: s
        device: { memory: 64MiB }
        apps:
          a:
            screens: { s: { tree: { depth: 1, fanout: 2, bytes: 1KiB } } }
            root: s
        script:
          - launch: a
          - jump: s
        """
        #expect(throws: ScenarioError.self) { try ScenarioLoader().parse(text, path: "s.yaml") }
        do {
            _ = try ScenarioLoader().parse(text, path: "s.yaml")
        } catch {
            #expect(error.description.contains("unknown step 'jump'; valid steps are launch, push, pop, pop_to_root, select_tab, "
                + "present, dismiss, type, scroll, warning, home, grow, switch, idle, interrupt, launch_background, background_fetch, repeat, random, replay"))
        }
    }

    @Test("background_fetch reads an app's name and runs: the app is launched into the background, then suspended after 30 s")
    func backgroundFetchStep() throws {
        let text = """
        scenario: 1
        name: fetch
        device: { memory: 256MiB, os: "13" }
        apps:
          a:
            screens: { s: { tree: { depth: 1, fanout: 2, bytes: 1KiB } } }
            root: s
        script:
          - background_fetch: a
          - idle: 31s
          - background_fetch: nobody
        """
        #expect(throws: ScenarioError.self) { try ScenarioLoader().parse(text, path: "f.yaml") }
        let valid = try ScenarioLoader().parse(text.replacingOccurrences(of: "\n  - background_fetch: nobody", with: ""), path: "f.yaml")
        #expect(valid.script == [.action(.backgroundFetch("a")), .action(.idle(31))])
        let run = try Simulation(valid, cleanup: .ios6, termination: .jetsam).run()
        #expect(run.timeline.map(\.event) == ["background_fetch a", "idle 31.0s"])
        #expect(run.timeline[0].marks == ["background launch a"])
        #expect(run.timeline[1].marks == ["background time over"])
    }
}
