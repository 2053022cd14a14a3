import PressureLab
import PressureLabHarness
import Testing

/// Fleet's workload (ASPLOS 2024) in small: apps launched in sequence on a device that holds
/// only some of them, then revisited in the same order; written in Swift and run on the engine.
@Suite("Fleet-style app switching")
struct FleetComparisonTests {
    /// An app of about 5 MiB in front plus its model: a feed table and a detail screen.
    static func app(_ index: Int, modelBytes: Int) throws -> Scenario.AppSpec {
        let screens = [
            try ScreenSpec.table("feed", rows: 500, visibleRows: 8, cellViews: 4, cellBytes: 4096,
                                 backing: Layer.bitmapBytes(width: 750, height: 1334), cache: 2 << 20),
            try ScreenSpec.plain("detail", tree: .levels(depth: 2, fanout: 4, bytes: 2048), outlets: 4,
                                 backing: Layer.bitmapBytes(width: 750, height: 1334), cache: 1 << 20, model: modelBytes),
        ]
        return .init(name: "app\(index)", screens: screens, root: .navigation(["feed", "detail"]))
    }

    /// `apps` apps on a device with room for `fit` of them, launched in sequence `passes` times.
    static func workload(apps: Int, fit: Double, passes: Int, modelBytes: Int) throws -> Scenario {
        let one = try Simulation(try Scenario(name: "one", device: .init(memoryBytes: 1 << 30),
                                              apps: [app(1, modelBytes: modelBytes)], script: [.launch("app1")]))
        try one.play(one.scenario.script)
        let perApp = one.device.usedBytes
        _ = one.finish()
        let names = (1...apps).map { "app\($0)" }
        return try Scenario(name: "fleet-small", device: .init(memoryBytes: Int(Double(perApp) * fit)),
                            apps: (1...apps).map { try app($0, modelBytes: modelBytes) },
                            script: Array(repeating: names.map { Scenario.Step.switchTo($0) }, count: passes).flatMap { $0 })
    }

    @Test("freezing keeps more apps cached than killing; every policy launches every app; nothing is lost")
    func comparison() throws {
        // Apps of about 13 MiB, over XNU's freezer minimum (FREEZE_PAGES_MIN, 8 MB), and room for more
        // than 4 suspended ones (FREEZE_SUSPENDED_THRESHOLD_DEFAULT).
        let scenario = try Self.workload(apps: 12, fit: 8, passes: 2, modelBytes: 7 << 20)
        var runs: [String: RunResult] = [:]
        for termination in [Termination.jetsam, .lmk, .largestFirst, .freeze] {
            runs[termination.name] = try Simulation(scenario, termination: termination).run()
        }
        for run in runs.values {
            #expect(run.metrics.coldLaunches + run.metrics.resumes + run.metrics.thaws == 24)
            #expect(run.metrics.dataLossBytes == 0)
            #expect(run.metrics.outOfMemoryCrashes == 0)
        }
        #expect(runs["jetsam"]!.metrics.kills > 0)
        #expect(runs["freeze"]!.metrics.freezes > 0)
        #expect(runs["freeze"]!.metrics.cachedAppsMean > runs["jetsam"]!.metrics.cachedAppsMean)
        #expect(runs["freeze"]!.metrics.coldLaunches < runs["jetsam"]!.metrics.coldLaunches)
    }

    @Test("apps under XNU's freezer minimum (FREEZE_PAGES_MIN, 8 MB; memorystatus_is_process_eligible_for_freeze) are never frozen")
    func smallAppsAreNotFrozen() throws {
        let scenario = try Self.workload(apps: 12, fit: 5, passes: 2, modelBytes: 1 << 20)
        let run = try Simulation(scenario, termination: .freeze).run()
        #expect(scenario.device.memoryBytes / 5 < 8 << 20)
        #expect(run.metrics.freezes == 0)
        #expect(run.metrics.kills > 0)
    }
}
