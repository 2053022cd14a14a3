import Foundation
import PressureLab
import PressureLabHarness
import Testing

/// A termination policy that returns what its closure says (a user's policy with a mistake).
struct ScriptedTermination: TerminationPolicy, Sendable {
    let name: String
    let next: @Sendable (DeviceSnapshot) -> ReclaimAction?
    func nextAction(_ device: DeviceSnapshot) -> ReclaimAction? { next(device) }
}

/// A cleanup policy that releases the cache of a controller no app has.
struct ReleasesAStranger: CleanupPolicy, Sendable {
    let name = "releases-a-stranger"
    func plan(for context: CleanupContext) -> CleanupPlan {
        var plan = CleanupPlan()
        plan.release(.cache, of: ControllerID(screen: "nowhere", instance: 1))
        return plan
    }
}

@Suite("A policy's mistakes are located errors (docs/extending.md, \"A policy's mistakes\")")
struct PolicyMistakeTests {
    /// Two apps: `b` launched first, then `a` in front (b in the background), a warning, a push.
    static let scenario = """
        scenario: 1
        name: mistakes
        device: { memory: 64MiB }
        apps:
          a: { screens: { s: { tree: { depth: 0, bytes: 1KiB }, cache: 64KiB } }, root: { nav: s } }
          b: { screens: { s: { tree: { depth: 0, bytes: 1KiB } } }, root: { nav: s } }
        script:
          - launch: b
          - launch: a
          - warning: warning
          - push: s

        """

    static func simulation(_ termination: Termination, cleanup: Cleanup = .ios6, lenient: Bool = false) throws -> Simulation {
        let scenario = try ScenarioLoader(hostLimitBytes: 8 << 30).parse(Self.scenario, path: "mistakes.yaml")
        let simulation = try Simulation(scenario, cleanup: cleanup, termination: termination)
        simulation.device.lenientPolicies = lenient
        return simulation
    }

    /// The error the run ends with, or nil when it finishes.
    static func mistake(_ name: String, cleanup: Cleanup = .ios6, _ next: @escaping @Sendable (DeviceSnapshot) -> ReclaimAction?)
    throws -> PolicyMistake? {
        let simulation = try simulation(Termination(ScriptedTermination(name: name, next: next)), cleanup: cleanup)
        do {
            _ = try simulation.run()
            return nil
        } catch PolicyError.mistake(let mistake) {
            return mistake
        }
    }

    static func inBackground(_ name: String, _ device: DeviceSnapshot) -> Bool {
        device.apps.contains { $0.name == name && $0.isKillableInBackground }
    }

    @Test("a kill of an app that is not installed: the policy, step, call, action and why")
    func notInstalled() throws {
        let mistake = try #require(try Self.mistake("kills-a-ghost") { _ in .kill("no-such-app", .policy) })
        #expect(mistake == PolicyMistake(kind: .termination, policy: "kills-a-ghost", call: .nextAction,
                                         action: "kill no-such-app (policy)", reason: .notInstalled(app: "no-such-app"),
                                         step: 1, stepText: "launch b"))
        #expect(PolicyError.mistake(mistake).description == "the termination policy 'kills-a-ghost', step 1 (launch b): "
            + "nextAction(_:) returned kill no-such-app (policy): no app named 'no-such-app' is installed")
    }

    @Test("a kill of an app already killed in this step, of one not alive, and of the app in front")
    func deadOrInFront() throws {
        let twice = try #require(try Self.mistake("kills-twice") { device in
            device.apps.contains { $0.name == "b" && !$0.isForeground } ? .kill("b", .policy) : nil
        })
        #expect(twice.reason == .killedInThisStep(app: "b") && twice.step == 2)
        let notAlive = try #require(try Self.mistake("kills-the-unlaunched") { _ in .kill("a", .policy) })
        #expect(notAlive.reason == .notAlive(app: "a") && notAlive.step == 1)
        let inFront = try #require(try Self.mistake("kills-in-front") { _ in .kill("b", .policy) })
        #expect(inFront.reason == .inFront(app: "b") && inFront.step == 1)
        #expect(inFront.description.hasSuffix("'b' is in front: .kill is for apps in the background (use .killForeground)"))
    }

    @Test("a freeze of an app not suspended, a compaction without a compressor, a crash with nothing in front")
    func mayNotTakeIt() throws {
        let freeze = try #require(try Self.mistake("freezes-in-front") { _ in .freeze("b") })
        #expect(freeze.reason == .notSuspended(app: "b") && freeze.action == "freeze b")
        let compact = try #require(try Self.mistake("compacts") { device in Self.inBackground("b", device) ? .compact("b") : nil })
        #expect(compact.reason == .noCompressor && compact.step == 2)
        let crash = try #require(try Self.mistake("crashes-every-front") { _ in .killForeground(.policy) })
        #expect(crash.reason == .nothingInFront && crash.step == 1 && crash.action == "kill-foreground (policy)")
    }

    @Test("a policy that never returns nil ends at the documented bound with the same kind of error")
    func neverDone() throws {
        let mistake = try #require(try Self.mistake("warns-for-ever") { _ in .warnRunningApps })
        #expect(Device.actionsPerReclaimBound(apps: 2) == 10)
        #expect(mistake.reason == .neverDone(bound: 10) && mistake.step == 1 && mistake.action == "warn-running-apps")
    }

    @Test("a cleanup plan that names a controller the app was not asked about")
    func foreignController() throws {
        let mistake = try #require(try Self.mistake("no-kills", cleanup: Cleanup(ReleasesAStranger())) { _ in nil })
        #expect(mistake == PolicyMistake(kind: .cleanup, policy: "releases-a-stranger", call: .plan, action: "release cache of nowhere#1",
                                         reason: .foreignController(ControllerID(screen: "nowhere", instance: 1), app: "a"),
                                         step: 3, stepText: "warning warning"))
    }

    @Test("--lenient-policies: every mistake counted, the first reported, the run finished")
    func lenient() throws {
        let simulation = try Self.simulation(Termination(ScriptedTermination(name: "kills-a-ghost") { _ in .kill("ghost", .policy) }),
                                             lenient: true)
        let run = try simulation.run()
        #expect(run.metrics.steps == 4)
        #expect(simulation.policyMistakes.map(\.step) == [1, 2, 3, 4])
        #expect(run.metrics.policyMistakes == 4)
        #expect(run.metrics.firstPolicyMistake == "the termination policy 'kills-a-ghost', step 1 (launch b): "
            + "nextAction(_:) returned kill ghost (policy): no app named 'ghost' is installed")
    }

    @Test("the built-in policies make no mistake on the bundled suite")
    func builtInsMakeNone() throws {
        for termination in Termination.builtIns {
            let plan = RunPlan(scenarios: [try ScenarioLoader().load(path: "scenarios/music-switching.yaml")], policies: [.ios6],
                               termination: termination)
            let runs = try plan.execute().runs
            #expect(runs.allSatisfy { $0.metrics.policyMistakes == nil }, "\(termination.name)")
        }
    }
}
