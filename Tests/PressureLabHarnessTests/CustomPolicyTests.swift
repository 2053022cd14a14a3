import Foundation
import PressureLab
import PressureLabHarness
import Testing
import TestSupport

/// A cleanup policy of a user's: drops models first, then caches (README, "Your own policy").
struct DropModelsFirst: CleanupPolicy, Sendable {
    let name = "drop-models-first"
    func plan(for context: CleanupContext) -> CleanupPlan {
        var plan = CleanupPlan()
        for state in context.controllers where !state.isOnScreen {
            if state.holds(.model) { plan.release(.model, of: state.id) }
            if state.holds(.cache) { plan.release(.cache, of: state.id) }
        }
        return plan
    }
}

/// A termination policy of a user's: the least recently used background app, whatever its size.
struct OldestFirst: TerminationPolicy, Sendable {
    let name = "oldest-first"
    func nextAction(_ device: DeviceSnapshot) -> ReclaimAction? {
        guard device.isAboveClearTarget else { return nil }
        if let victim = device.apps.filter(\.isKillableInBackground).min(by: { $0.useOrder < $1.useOrder }) {
            return .kill(victim.name, .policy)
        }
        return device.usedBytes > device.budgetBytes ? .killForeground(.policy) : nil
    }
}

@Suite("Policies written in Swift, wherever a built-in one is accepted")
struct CustomPolicyTests {
    static func scenario() throws -> Scenario { try ScenarioLoader().load(path: "scenarios/photo-browser.yaml") }

    @Test("a plan runs a policy of one's own beside the built-ins; results name it; its figures are its own")
    func plans() throws {
        let plan = RunPlan(scenarios: [try Self.scenario()], policies: [.ios6, Cleanup(DropModelsFirst())],
                           termination: Termination(OldestFirst()))
        #expect(plan.cells.map(\.label) == ["photo-browser / ios6 / oldest-first", "photo-browser / drop-models-first / oldest-first"])
        let runs = try plan.execute().runs
        #expect(runs.map(\.policy.name) == ["ios6", "drop-models-first"])
        #expect(runs.allSatisfy { $0.termination.name == "oldest-first" })
        // ios6 purges bitmaps; this policy never does, and releases models instead.
        #expect(runs[0].metrics.backingStorePurges > 0 && runs[1].metrics.backingStorePurges == 0)
        #expect(runs[1].metrics.modelReleases > 0)
        #expect(runs[0].metrics.meanRetainedBytes != runs[1].metrics.meanRetainedBytes)
        // Written under its name, read back as that name.
        let file = try CompletedPlan(runs: runs).resultsFile()
        let decoded = try JSONDecoder().decode(ResultsFile.self, from: try JSONEncoder().encode(file))
        #expect(decoded.runs.map(\.policy.name) == ["ios6", "drop-models-first"])
        #expect(decoded.runs[1].termination.name == "oldest-first")
    }

    @Test("a policy of one's own that takes a built-in name, or an invalid one, is refused before anything runs")
    func clashes() throws {
        struct Impostor: CleanupPolicy, Sendable {
            let name = "ios6"
            func plan(for context: CleanupContext) -> CleanupPlan { CleanupPlan() }
        }
        struct Badly: TerminationPolicy, Sendable {
            let name = "Not A Name"
            func nextAction(_ device: DeviceSnapshot) -> ReclaimAction? { nil }
        }
        let scenario = try Self.scenario()
        func refusal(_ plan: RunPlan) -> PolicyError? {
            guard case .failure(.invalidPolicy(let refusal)) = Result(catching: { () throws(RunPlan.Failure) in try plan.execute() })
            else { return nil }
            return refusal
        }
        #expect(refusal(RunPlan(scenarios: [scenario], policies: [Cleanup(Impostor())])) == .clashesWithBuiltIn(.cleanup, name: "ios6"))
        #expect(refusal(RunPlan(scenarios: [scenario], policies: [.ios6], termination: Termination(Badly())))
            == .invalidName(.termination, name: "Not A Name"))
        #expect(throws: PolicyError.clashesWithBuiltIn(.cleanup, name: "ios6")) { try Simulation(scenario, cleanup: Cleanup(Impostor())) }
        #expect(throws: PolicyError.clashesWithBuiltIn(.termination, name: "lmk-without-lmkd")) {
            try PolicyRegistry.register(Termination(name: "lmk-without-lmkd") { OldestFirst() })
        }
        #expect(PolicyError.clashesWithBuiltIn(.cleanup, name: "ios6").description
            == "the cleanup policy 'ios6' has a built-in policy's name: results could not tell them apart; give it a name of its own")
    }

    @Test("a baseline saved with a policy of one's own gates the same runs, and fails when they regress")
    func baselines() throws {
        let runs = try RunPlan(scenarios: [try Self.scenario()], policies: [Cleanup(DropModelsFirst())]).execute().runs
        let baseline = try Baseline(name: "mine", runs: runs)
        #expect(baseline.entries.map(\.policy.name) == ["drop-models-first"])
        let read = try JSONDecoder().decode(Baseline.self, from: try JSONEncoder().encode(baseline))
        #expect(GateReport.check(runs, against: read).passed)
        var worse = runs
        worse[0].metrics.peakRetainedBytes += 4 << 20
        #expect(!GateReport.check(worse, against: read).passed)
    }

    @Test("the device experiment takes a termination policy of one's own as a configuration")
    func deviceExperiment() throws {
        let scenario = try Scenario(name: "two-apps", device: .init(memoryBytes: 64 << 20),
                                    apps: ["a", "b", "c"].map { .init(name: $0, dataBytes: 20 << 20, screens: [try .plain("s")], root: .screen("s")) },
                                    script: [.launch("a"), .switchTo("b"), .switchTo("c"), .switchTo("a")])
        let configuration = DeviceExperiment.Configuration(name: "mine", termination: Termination(OldestFirst()),
                                                           cleanup: Cleanup(DropModelsFirst()), compressor: .none, note: "a user's")
        let outcome = try DeviceExperiment.run(scenario, configuration: configuration, profile: try ProfileLibrary.load(nil),
                                               published: nil)
        #expect(outcome.run.termination.name == "oldest-first" && outcome.run.policy.name == "drop-models-first")
        #expect(outcome.aliveAfterLaunch == [1, 2, 2, 2])
        #expect(outcome.killsByReason == ["policy": 2])
    }
}
