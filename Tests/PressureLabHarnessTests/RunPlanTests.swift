import Foundation
import PressureLab
import PressureLabHarness
import Testing
import TestSupport

/// The harness's one entry point: the command line and `Footprint` both run through it.
@Suite("Run plans")
struct RunPlanTests {
    @Test("cells in order (scenarios, policies, repeats), and the same figures as a direct run")
    func cellsAndRuns() throws {
        let scenario = try ScenarioLoader().load(path: Executable.small)
        let plan = RunPlan(scenarios: [scenario], policies: [.ios3, .ios6], repeats: 2)
        #expect(plan.cells.map { "\($0.policy.name)#\($0.repeatIndex)" } == ["ios3#0", "ios3#1", "ios6#0", "ios6#1"])
        #expect(plan.cells.first?.label == "small / ios3 / jetsam")
        var started: [String] = []
        let outcome = try plan.execute(cellStarted: { started.append("\($0.policy.name)#\($0.repeatIndex)") })
        #expect(started == ["ios3#0", "ios3#1", "ios6#0", "ios6#1"])
        #expect(outcome.runs.count == 4 && outcome.profile?.name == ProfileLibrary.defaultName)
        let direct = try Simulation(scenario, cleanup: .ios6, termination: .jetsam,
                                              profile: try ProfileLibrary.load(nil)).run()
        #expect(outcome.runs[2].metrics.peakRetainedBytes == direct.metrics.peakRetainedBytes)
        #expect(outcome.runs[2].timeline.map(\.retainedBytes) == direct.timeline.map(\.retainedBytes))
        #expect(try RunPlan(scenarios: [scenario], policies: [.ios6]).execute().runs[0].metrics.finalRetainedBytes == direct.metrics.finalRetainedBytes)
    }

    @Test("a profile that does not load is reported as such; policies and profiles are typed")
    func failures() throws {
        let scenario = try ScenarioLoader().load(path: Executable.small)
        do {
            _ = try RunPlan(scenarios: [scenario], policies: [.ios6], profile: .bundled("no-such-profile")).execute()
            Issue.record("an unknown profile ran")
        } catch {
            guard case .invalidProfile = error else { Issue.record("\(error)"); return }
        }
        // An unknown name is no policy of this program's.
        #expect(Cleanup(named: "no-such-policy") == nil)
        #expect(Cleanup.builtIns.map(\.name) == ["keep-all", "ios2", "ios3", "ios6", "aggressive", "lru", "cost-aware"])
        #expect(Cleanup.ios3.generation == .iPhoneOS3 && Cleanup.lru.generation == .iOS6)
        #expect(ProfileReference("pixel-3-2018") == .bundled("pixel-3-2018"))
        #expect(ProfileReference("profiles/pixel-3-2018.yaml") == .file("profiles/pixel-3-2018.yaml"))
        #expect(ProfileReference("my.yml") == .file("my.yml"))
    }
}
