import Foundation
@testable import PressureLab
@testable import PressureLabHarness
import PressureLabHeap
import PressureLabSweep
import SystemPackage
import Testing
import TestSupport

/// The work a scenario declares (views described and built, app-steps, model files, repeats)
/// counted before a run and bounded at validate: each failed before its fix.
@Suite("Declared work: views, app-steps, models and repeats counted and bounded before a run", .serialized)
struct DeclaredWorkTests {
    @Test("the views the screens describe are counted before their trees are built; one error, at the tree over")
    func describedViews() {
        let screens = (1...6).map { "      s\($0): { tree: { views: 1000000, bytes: 1B } }" }.joined(separator: "\n")
        let found = ScenarioTexts.diagnostics(ScenarioTexts.scenario(screens: "      home: {}\n" + screens, script: "  - launch: a0"))
        #expect(found == ["h.yaml:13:19: apps.a0.screens.s5.tree: the screens describe 5000000 views with this tree "
            + "(1000000 views), more than the 4000000 a scenario may describe; use smaller trees or fewer screens"])
    }

    @Test("the views a script builds count pushes times repeats, with the launch")
    func viewsBuilt() throws {
        let screens = "      home: {}\n      big: { tree: { views: 1000000, bytes: 1B } }"
        let found = ScenarioTexts.diagnostics(ScenarioTexts.scenario(screens: screens,
                                                   script: "  - launch: a0\n  - repeat: { times: 60, steps: [ { push: big } ] }"))
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("h.yaml:12:3: script: the script builds up to 60000001 views") == true)
        // 49 pushes are within the limit, and the count is exact: 49 x 1,000,000 + the launch.
        let ok = try ScenarioLoader().parse(ScenarioTexts.scenario(screens: screens, script: "  - launch: a0\n  - repeat: { times: 49, steps: [ { push: big } ] }"),
                                            path: "h.yaml")
        #expect(ok.declaredWork.viewsBuilt == 49_000_001)
        #expect(ok.declaredWork.describedViews == 1_000_001)
    }

    @Test("apps times expanded steps is capped, named at the apps")
    func appSteps() {
        let found = ScenarioTexts.diagnostics(ScenarioTexts.scenario(screens: "      home: {}", script:
            "  - launch: a0\n  - repeat: { times: 4, steps: [ { repeat: { times: 1000000, steps: [ { idle: 1s } ] } } ] }", apps: 3))
        #expect(found == ["h.yaml:6:3: apps: 3 apps and 4000001 steps make 12000003 app-steps (the device looks over every "
            + "app at each step), more than the 10000000 a run may take; declare fewer apps or steps"])
    }

    @Test("the shipped workloads are within every limit: Benchmarks/Scale/scale-100 and the grid sweep's scenarios")
    func shippedWorkloadsFit() throws {
        let scale = try ScenarioLoader().load(path: Executable.packageRoot.appendingPathComponent("Benchmarks/Scale/scale-100.yaml").path)
        let work = scale.declaredWork
        #expect(work.viewsBuilt == 10_000_000 && work.appSteps == 5_010_000)
        let grid = try SweepPlan(try SweepFile.load(path: Executable.packageRoot.appendingPathComponent("sweeps/grid-1120.yaml").path))
        #expect(grid.cells.count == 1120)
    }

    @Test("outlets nested in a chain are walked once: the outermost of nested subtrees")
    func nestedOutlets() throws {
        // A chain of 2,000 views with 1,999 outlets: each outlet's subtree holds the next.
        let runtime = try RuntimeContext(app: "chain", generation: .iOS6, trace: TraceRecorder(isEnabled: false))
        let screen = ScreenSpec(name: "chain", view: try ViewDescription.tree(depth: 1999, fanout: 1, bytes: 16, rootBacking: 0),
                                outlets: 1999)
        try runtime.register(screen)
        var controller: ViewController? = try runtime.makeController(screen: "chain")
        _ = try controller?.view
        controller?.connectOutlets()
        #expect(controller?.outlets.count == 1999)
        controller?.purgeBackingStores(evenOnScreen: true)
        controller?.releaseView()
        controller?.releaseOutlets()
        controller = nil
        #expect(runtime.ledger.liveTotal == 0)
    }

    @Test("--repeat is capped (64, bad usage) instead of allocating for every repeat")
    func repeatCap() throws {
        let outcome = try Executable.run(["run", Executable.small, "--repeat", "100000000"])
        #expect(outcome.status == 64 && !outcome.crashed)
        #expect(outcome.stderr.contains("--repeat must be from 1 to 1000 (got 100000000)"))
    }

    @Test("the disk check counts the models of the screens the script can show, not the unshown")
    func modelFilesInTheHostCheck() throws {
        let screens = "      home: {}\n      shown: { model: 2MiB }\n      never: { model: 3GiB }"
        let scenario = try ScenarioLoader().parse(ScenarioTexts.scenario(screens: screens, script: "  - launch: a0\n  - push: shown"), path: "h.yaml")
        #expect(scenario.declaredModelFileBytes == 2 << 20)
        let random = try ScenarioLoader().parse(ScenarioTexts.scenario(screens: screens,
            script: "  - launch: a0\n  - random: { steps: 10, mix: { push: 1, pop: 1 } }", memory: "4GiB"), path: "h.yaml")
        #expect(random.declaredModelFileBytes == (2 << 20) + (3 << 30))
    }

    @Test("views rebuilt after unloads count too: a random mix of switches counts whole launch hierarchies")
    func randomWork() throws {
        let screens = "      home: { tree: { views: 1000, bytes: 1B } }\n      big: { tree: { views: 100000, bytes: 1B } }"
        let scenario = try ScenarioLoader().parse(ScenarioTexts.scenario(screens: screens, script:
            "  - launch: a0\n  - random: { steps: 100, mix: { switch: 1, idle: 3 } }\n  - pop", apps: 2), path: "h.yaml")
        // Launch 1,000; 25 switches of a 1,000-view hierarchy; the pop may reload the largest screen.
        #expect(scenario.declaredWork.viewsBuilt == 1_000 + 25 * 1_000 + 100_000)
    }
}
