import Foundation
import PressureLabHarness
import PressureLabSweep
import Testing
import TestSupport

/// The sweep's own limit on a worker (Sources/PressureLabSweep/SweepRunner+Backstop.swift): a
/// worker that outlives its runs' time limits and the grace is killed by the sweep, its cell
/// fails with that reason, and the other cells are kept.
@Suite("Sweeps: the backstop on a worker that does not end itself", .serialized)
struct SweepBackstopTests {
    static func plan(in directory: URL) throws -> SweepPlan {
        let file = try SweepFixtures.file(in: directory, seeds: 1, policies: "[ios6, lru]")
        return try SweepPlan(try SweepFile.load(path: file))
    }

    @Test("the backstop is each run's limit (given, else derived from the scenario) times the repeats, plus the grace")
    func backstopSeconds() throws {
        let base = try Executable.temporaryDirectory("sweep-backstop-seconds")
        defer { try? FileManager.default.removeItem(at: base) }
        let plan = try Self.plan(in: base)
        let cell = try #require(plan.cells.first)
        var runner = SweepRunner(plan: plan, directory: SweepDirectory(path: base.appendingPathComponent("results").path),
                                 jobs: 1, worker: .init(executable: "/bin/true", arguments: []))
        #expect(runner.backstopGraceSeconds == 60)
        let scenario = try ScenarioLoader().load(path: cell.scenarioPath)
        let derived = try #require(TimeLimits.derived(for: scenario).cellSeconds)
        #expect(runner.backstopSeconds(for: cell) == derived * Double(cell.repeats) + 60)
        runner.cellTimeLimits = TimeLimits(cellSeconds: 5)
        runner.backstopGraceSeconds = 2
        #expect(runner.backstopSeconds(for: cell) == 5 * Double(cell.repeats) + 2)
    }

    @Test("a worker that never ends is killed after its limit and the grace; its cell fails saying so, the other finishes")
    func stuckWorkerKilled() async throws {
        let base = try Executable.temporaryDirectory("sweep-backstop")
        defer { try? FileManager.default.removeItem(at: base) }
        let plan = try Self.plan(in: base)
        #expect(plan.cells.count == 2)
        // A worker that ignores everything for its first cell (a stopped watchdog, say) and
        // runs the real worker for the other.
        let stuckCell = plan.cells[0].index
        let script = base.appendingPathComponent("worker.sh").path
        try """
            #!/bin/sh
            case "$*" in *'"index":\(stuckCell),'*) exec sleep 600 ;; esac
            exec "\(Executable.path)" sweep-worker "$@"
            """.write(toFile: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        let directory = SweepDirectory(path: base.appendingPathComponent("results").path)
        var runner = SweepRunner(plan: plan, directory: directory, jobs: 2, worker: .init(executable: script, arguments: []))
        runner.cellTimeLimits = TimeLimits(cellSeconds: 0.5)
        runner.backstopGraceSeconds = 0.5
        let prepared = try runner.prepare(resume: false)
        let started = Date()
        let summary = await runner.run(prepared.cells, alreadyFinished: 0) { _ in }
        let elapsed = Date().timeIntervalSince(started)
        #expect(summary.finished == 1 && summary.failures.count == 1)
        let failure = try #require(summary.failures.first)
        #expect(failure.cell.index == stuckCell)
        #expect(failure.status.hasPrefix("killed by the sweep (signal 9) after 1 s: its runs' time limit (--cell-timeout)"), "\(failure.status)")
        // Not the 600 s the worker would have slept (a bound, not a timing: any slow host passes).
        #expect(elapsed < 300, "\(elapsed) s")
    }
}
