import Foundation
import PressureLab
import PressureLabHarness
import Testing

/// Regression tests for the run-time classes of hostile input: limits enforced in the middle
/// of a step, pressure after every step, clean failure when the host has no memory, and the
/// peak owners of deep stacks.
@Suite("Hostile runs: limits mid-step, pressure every step, no traps")
struct HostileRunTests {
    static let loader = ScenarioLoader(hostLimitBytes: 8 << 30)

    static func run(_ text: String, policy: Cleanup = .ios6, termination: Termination = .jetsam) throws -> RunResult {
        try Simulation(try loader.parse(text, path: "t.yaml"), cleanup: policy, termination: termination).run()
    }

    @Test("class 6: a per-app limit kills the app at the push that crosses it, not at a later idle")
    func limitAtTheCrossing() throws {
        // keep-all: the warning at 80% of the limit (XNU's PHYS_FOOTPRINT_WARNING_LEVEL) frees nothing.
        let run = try Self.run("""
            scenario: 1
            name: limit
            device: { memory: 8MiB, app_limit: 4MiB }
            apps:
              a:
                screens: { big: { tree: { depth: 0, bytes: 1KiB }, backing: 1MiB } }
                root: { nav: big }
            script:
              - launch: a
              - repeat: { times: 200, steps: [ { push: big } ] }
              - idle: 1s

            """, policy: .keepAll)
        let timeline = run.timeline
        // Launch and two pushes fit under 4 MiB; the third push would cross it: killed there.
        #expect(timeline[3].marks == ["kill a (per-process-limit)", "oom"])
        #expect(timeline[3].retainedBytes == 0)
        #expect(timeline.allSatisfy { $0.retainedBytes <= 4 << 20 })
        #expect(run.metrics.outOfMemoryCrashes == 1)
        #expect(run.metrics.skippedSteps == 197)
    }

    @Test("class 5/6: a type larger than the device is refused before it allocates; the app dies, its input lost")
    func hugeType() throws {
        let run = try Self.run("""
            scenario: 1
            name: typebig
            device: { memory: 96MiB }
            apps:
              a:
                screens: { s: {} }
                root: { nav: s }
            script:
              - launch: a
              - type: 5GiB
              - launch: a

            """)
        #expect(run.metrics.peakRetainedBytes < 1 << 20)
        #expect(run.timeline[1].marks == ["kill a (vm-page-shortage)", "oom"])
        #expect(run.metrics.dataLossBytes == 5 << 30)
        #expect(run.metrics.coldLaunches == 2)
    }

    @Test("class 6: when the budget runs out mid-push, suspended apps are killed at once and the push completes")
    func budgetMidStep() throws {
        let perScreen = "{ tree: { depth: 0, bytes: 1KiB }, backing: 3MiB }"
        let run = try Self.run("""
            scenario: 1
            name: budget
            device:
              memory: 9MiB
              pressure: { warning: { rise: 0.99, clear: 0.98 }, critical: { rise: 1.0, clear: 0.995 } }
            apps:
              a: { screens: { s: \(perScreen) }, root: { nav: s } }
              b: { screens: { s: \(perScreen) }, root: { nav: s } }
            script:
              - launch: b
              - launch: a
              - push: s

            """)
        // b (suspended, about 3 MiB) was killed during a's push, which then fit.
        #expect(run.timeline[2].marks == ["kill b (vm-page-shortage)"])
        #expect(run.metrics.outOfMemoryCrashes == 0)
        #expect(run.timeline.allSatisfy { $0.retainedBytes <= 9 << 20 })
    }

    @Test("class 6: pressure is evaluated after a push, not only after launch, switch, home, idle and warnings")
    func pressureAfterPush() throws {
        let run = try Self.run("""
            scenario: 1
            name: pressure
            device: { memory: 14MiB }
            apps:
              a: { screens: { s: { tree: { depth: 0, bytes: 1KiB }, backing: 4MiB } }, root: { nav: s } }
            script:
              - launch: a
              - push: s
              - push: s

            """)
        // About 8.5 MiB of 14 after the first push (61%); 12.7 MiB (91%) after the second,
        // over the 80% rise: the device reclaims at the push itself (it warns the app, whose
        // ios6 cleanup purges the off-screen bitmaps), not at some later idle or switch.
        #expect(run.metrics.warnings == 1)
        #expect(run.metrics.backingStorePurges > 0)
        #expect(run.timeline[2].retainedBytes < 8 << 20)
    }

    @Test("class 5: the host having no memory is a clean failure, never a trap")
    func hostAllocationFailure() throws {
        let gate = MemoryGate()
        #expect(HeapBlock(count: Int.max / 2, pattern: 1, gate: gate) == nil)
        #expect(gate.refusal == .hostAllocationFailed(bytes: Int.max / 2))
        // Refused from then on: the app is dying.
        #expect(!gate.admit(16))
        // A budget the allocation fits, so the gate admits it and the host's malloc fails.
        let device = Device(model: .init(budgetBytes: Int.max), termination: JetsamPolicy())
        let runtime = try RuntimeContext(app: "a")
        try runtime.register(ScreenSpec(name: "s", view: try .single(bytes: 64)))
        let app = Application(name: "a", runtime: runtime, hierarchy: .screen("s"))
        device.install(app)
        try device.open("a")
        #expect(HeapBlock(count: Int.max / 2, pattern: 1, gate: runtime.memoryGate) == nil)
        #expect(throws: RuntimeError.self) { try device.finishStep() }
        app.kill()
    }

    @Test("class 7: peak owners of a deep stack are the owners at the peak (undo log), not at the end")
    func deepStackPeakOwners() throws {
        let run = try Self.run("""
            scenario: 1
            name: deep
            device: { memory: 1GiB }
            apps:
              a: { screens: { s: { tree: { depth: 0, bytes: 64B } } }, root: { nav: s } }
            script:
              - launch: a
              - repeat: { times: 3000, steps: [ { push: s } ] }
              - pop_to_root

            """)
        let peak = try #require(run.peakOwners)
        // The root, the navigation controller and 3,000 pushed controllers at the peak; two at the end.
        #expect(peak.count == 3002)
        #expect(run.owners.count == 2)
        #expect(peak.reduce(0) { $0 + $1.retainedBytes } == run.metrics.peakRetainedBytes)
    }

    @Test("the emergency reclaim counts what it frees once: it goes on killing until the allocation fits")
    func emergencyCountsOnce() throws {
        let run = try Self.run("""
            scenario: 1
            name: twice
            device:
              memory: 100MiB
              pressure: { warning: { rise: 0.99, clear: 0.98 }, critical: { rise: 1.0, clear: 0.995 } }
            apps:
              c: { screens: { s: { backing: 8MiB } }, root: s }
              b: { screens: { s: { backing: 24MiB } }, root: s }
              a: { screens: { s: { backing: 40MiB }, big: { backing: 40MiB } }, root: { nav: s } }
            script:
              - launch: c
              - launch: b
              - launch: a
              - push: big

            """, termination: .jetsam)
        // 72 MiB held (28% available: above jetsam's thresholds, nobody is killed; the sizes are
        // jemalloc size classes); the push needs 40: killing c (8) is not enough, b (24) must go too.
        #expect(run.timeline[2].marks == ["cold launch a"])
        #expect(run.timeline[3].marks == ["kill c (vm-page-shortage)", "kill b (vm-page-shortage)"])
        #expect(run.metrics.outOfMemoryCrashes == 0)
    }
}
