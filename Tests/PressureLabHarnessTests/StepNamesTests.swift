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
                + "present, dismiss, type, scroll, warning, home, switch, idle, interrupt, launch_background, repeat, random, replay"))
        }
    }
}
