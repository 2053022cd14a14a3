import PressureLab
import PressureLabHarness

/// A ``RunPlan`` run through the sweep engine: one worker process per scenario and policy,
/// `jobs` at a time, the results collected in the plan's order. What `run`, `compare`,
/// `baseline` and the bare suite do when given `--jobs`.
package enum ParallelRuns {
    /// The plan's cells as sweep cells (scenarios, then policies; a cell runs the repeats).
    package static func cells(of plan: RunPlan) -> [SweepCell] {
        var cells: [SweepCell] = []
        for scenario in plan.scenarios {
            for policy in plan.policies {
                cells.append(SweepCell(index: cells.count, scenario: scenario.name, scenarioPath: scenario.path, policy: policy,
                                       termination: plan.termination, profile: plan.profile?.description,
                                       compressor: plan.compressor, seed: plan.seed, user: nil, repeats: max(1, plan.repeats),
                                       fingerprint: nil))
            }
        }
        return cells
    }

    /// Runs the plan's cells in workers, writing their records into `directory` (a
    /// temporary one, usually), and returns every run in the plan's order. A failed cell
    /// fails the whole: ``SweepError/mergeRefused(_:)`` names the first.
    package static func execute(_ plan: RunPlan, jobs: Int, worker: SweepRunner.Worker, directory: SweepDirectory,
                               progress: @escaping @Sendable (SweepRunner.Progress) -> Void) async throws(SweepError) -> [RunResult] {
        let sweep = SweepPlan(cells: cells(of: plan), source: "run", output: directory.path)
        var configured = SweepRunner(plan: sweep, directory: directory, jobs: jobs, worker: worker)
        // The sweep's backstop on each worker (SweepRunner+Backstop.swift) from the plan's limits.
        if let limits = plan.timeLimits?.0 { configured.cellTimeLimits = limits }
        let runner = configured
        let prepared = try runner.prepare(resume: false)
        let summary = await runner.run(prepared.cells, alreadyFinished: prepared.alreadyFinished, progress: progress)
        if let failure = summary.failures.first {
            throw .io("\(failure.cell.label): the run failed: \(failure.status)"
                + (failure.standardError.isEmpty ? "" : "\n" + failure.standardError.joined(separator: "\n")))
        }
        var runs: [RunResult] = []
        for cell in sweep.cells { runs += try directory.record(cell.index).results.runs }
        return runs
    }
}
