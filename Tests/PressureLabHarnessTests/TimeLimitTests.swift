import Foundation
@testable import PressureLabHarness
import PressureLabSweep
import Testing
import TestSupport

/// Time limits (docs/limits.md, "Time") and policy mistakes through a program of one's own,
/// `pressurelab-hostile` (Tests/HostileLab): policies that loop in `plan(for:)` and in
/// `nextAction(_:)`, and one that kills an app that is not installed.
@Suite("Every run and every cell has a time limit; a policy's mistake ends the run")
struct TimeLimitTests {
    static let hostile = URL(fileURLWithPath: Executable.path).deletingLastPathComponent()
        .appendingPathComponent("pressurelab-hostile").path

    /// Two apps: `b`, then `a` in front (b in the background from step 2).
    static func twoApps(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("two.yaml").path
        try """
            scenario: 1
            name: two
            device: { memory: 64MiB }
            apps:
              a: { screens: { s: { tree: { depth: 0, bytes: 1KiB } } }, root: { nav: s } }
              b: { screens: { s: { tree: { depth: 0, bytes: 1KiB } } }, root: { nav: s } }
            script:
              - launch: b
              - launch: a
              - home

            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a step that began after the watchdog read the clock has run 0 s, not the wrapped-around difference (a false timeout seen under load)")
    func stepStartedAfterTheClockRead() {
        #expect(RunWatchdog.elapsedSeconds(from: 2_000_000_000, to: 1_999_999_000) == 0)
        #expect(RunWatchdog.elapsedSeconds(from: 1_000_000_000, to: 3_500_000_000) == 2.5)
        #expect(RunWatchdog.elapsedSeconds(from: 7, to: 7) == 0)
    }

    @Test("seconds are written 5 or 5s")
    func seconds() {
        #expect(TimeLimits.seconds("5") == 5 && TimeLimits.seconds("5s") == 5 && TimeLimits.seconds("0.5s") == 0.5)
        #expect(TimeLimits.seconds("5m") == nil && TimeLimits.seconds("0") == nil && TimeLimits.seconds("-1") == nil)
        let derived = TimeLimits.derived(for: try! ScenarioLoader().load(path: Executable.small))
        #expect(derived == TimeLimits(stepSeconds: 60, cellSeconds: 60 * 9))
        // A sweep file's limits: read, or refused at their line.
        let file = try! SweepFile.parse("sweep: 1\nstep_timeout: 5\ncell_timeout: 90s\n", path: "g.yaml")
        #expect(file.timeLimits == TimeLimits(stepSeconds: 5, cellSeconds: 90))
        #expect(throws: SweepError.invalidFile(path: "g.yaml", problems: ["g.yaml:2:15: cell_timeout: expected seconds above zero, '5' or '5s'"])) {
            try SweepFile.parse("sweep: 1\ncell_timeout: soon\n", path: "g.yaml")
        }
    }

    @Test("run: a loop in plan(for:) ends at --step-timeout, naming the scenario, step, policy and call")
    func loopInPlan() throws {
        let outcome = try Executable.run(["run", Executable.small, "--policy", "loops-in-plan", "--step-timeout", "1s"],
                                         executable: Self.hostile)
        #expect(outcome.status == 1 && !outcome.crashed)
        #expect(outcome.stderr.contains("pressurelab: small / loops-in-plan / jetsam: step 6 (warning warning) has not finished "
            + "in 1 s (--step-timeout), in the policy 'loops-in-plan''s plan(for:); the run is ended"), "\(outcome.stderr)")
    }

    @Test("run: a loop in nextAction(_:) ends at --step-timeout; --cell-timeout ends the run when it is shorter")
    func loopInNextAction() throws {
        let directory = try Executable.temporaryDirectory("loop-next-action")
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = try Self.twoApps(in: directory)
        let step = try Executable.run(["run", scenario, "--termination", "loops-in-next-action", "--step-timeout", "1"],
                                      executable: Self.hostile)
        #expect(step.status == 1)
        #expect(step.stderr.contains("two / ios6 / loops-in-next-action: step 2 (launch a) has not finished in 1 s (--step-timeout), "
            + "in the policy 'loops-in-next-action''s nextAction(_:)"), "\(step.stderr)")
        let cell = try Executable.run(["run", scenario, "--termination", "loops-in-next-action", "--cell-timeout", "1s"],
                                      executable: Self.hostile)
        #expect(cell.status == 1)
        #expect(cell.stderr.contains("two / ios6 / loops-in-next-action: the run has not finished (at step 2, launch a) in 1 s "
            + "(--cell-timeout), in the policy 'loops-in-next-action''s nextAction(_:)"), "\(cell.stderr)")
    }

    @Test("sweep --jobs 2: the looping cells fail at the sweep file's cell_timeout, the others' results are kept, --resume offered")
    func sweep() throws {
        let directory = try Executable.temporaryDirectory("sweep-timeout")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try SweepFixtures.file(in: directory, seeds: 2, policies: "[ios6, loops-in-plan]", extra: "cell_timeout: 2s")
        let outcome = try Executable.run(["sweep", file, "--jobs", "2"], executable: Self.hostile)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("loops-in-plan") && outcome.stderr.contains("(--cell-timeout), in the policy 'loops-in-plan''s plan(for:)"),
                "\(outcome.stderr)")
        #expect(outcome.stderr.contains("2 cells have no result; '") && outcome.stderr.contains("--resume' runs them again"))
        let cells = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("results/cells").path)
        #expect(cells.filter { !$0.contains("failed") }.sorted() == ["000000.json", "000001.json"], "\(cells)")
        // --resume runs the failed cells again (and they fail again, at their limit).
        let resumed = try Executable.run(["sweep", file, "--jobs", "2", "--resume"], executable: Self.hostile)
        #expect(resumed.status == 1)
        #expect(resumed.stdout.contains("4 cells: 0 run now, 2 finished before, 2 failed"), "\(resumed.stdout)")
        // The same loop in `run --jobs 2` (the sweep engine): the run fails with the cell's reason.
        let run = try Executable.run(["run", Executable.small, "--policy", "ios6", "--policy", "loops-in-plan", "--jobs", "2",
                                      "--step-timeout", "1"], executable: Self.hostile)
        #expect(run.status == 1)
        #expect(run.stderr.contains("step 6 (warning warning) has not finished in 1 s (--step-timeout)"), "\(run.stderr)")
    }

    @Test("a termination policy's mistake ends the run, exit 1; --lenient-policies counts it and says so")
    func mistakeThroughTheBinary() throws {
        let strict = try Executable.run(["run", Executable.small, "--termination", "kills-a-ghost"], executable: Self.hostile)
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("small / ios6 / kills-a-ghost: the run failed: the termination policy 'kills-a-ghost', "
            + "step 1 (launch notes): nextAction(_:) returned kill no-such-app (policy): no app named 'no-such-app' is installed"),
                "\(strict.stderr)")
        let lenient = try Executable.run(["run", Executable.small, "--termination", "kills-a-ghost", "--lenient-policies"],
                                         executable: Self.hostile)
        #expect(lenient.status == 0)
        #expect(lenient.stderr.contains("pressurelab: warning: small / ios6 / kills-a-ghost: 8 policy mistakes counted "
            + "(--lenient-policies; policyMistakes in the results); the first: the termination policy 'kills-a-ghost', step 1"),
                "\(lenient.stderr)")
    }
}
