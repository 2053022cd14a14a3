import ArgumentParser
import Foundation
import PressureLab
import PressureLabHarness
import PressureLabHeap
import PressureLabSweep

/// Options shared by the commands that run scenarios.
struct RunOptions: ParsableArguments {
    @Option(name: .long, help: "Termination policy (docs/fidelity.md: jetsam and lmk follow XNU and lmkd; freeze is XNU's freezer; lmk-without-lmkd and fleet are the device experiment's configurations of lmk). A policy of your own runs from your own executable, PressureLab's command line with it registered (docs/extending.md).")
    var termination: Termination = .jetsam

    @Option(name: .long, help: "Runs of each scenario and policy.")
    var `repeat` = 1

    @Option(name: .long, help: "Seed for everything random (default: the scenario's).")
    var seed: UInt64?

    @Option(name: .long, help: "Write the results (pressurelab.results/1 JSON) to this file.")
    var output: String?

    @Option(name: .long, help: "Write every lifecycle callback and state change to this file (see --trace-format).")
    var trace: String?

    @Option(name: .long, help: "The trace's format: jsonl (one JSON object a line) or chrome (Trace Event Format, for Perfetto and chrome://tracing).")
    var traceFormat: TraceFormat = .jsonl

    @Option(name: .long, help: "Also write an HTML report (SVG charts) to this file.")
    var html: String?

    @Option(name: .long, help: "Output format (standard output).")
    var format: ResultFormat = .table

    @Flag(name: .long, help: "Print every column of the table (default: the columns that decide, in 120 characters).")
    var wide = false

    @Option(name: .long, help: "The directory of bundled scenarios (default: ./scenarios).")
    var scenarios: String?

    @Option(name: .long, help: "Device profile for device time: a bundled name or a file (default: the scenario's, else \(ProfileLibrary.defaultName)).")
    var profile: ProfileReference?

    @Option(name: .long, help: "In-RAM compressor of suspended apps' memory (default: the profile's).")
    var compressor: Compressor?

    @Option(name: .long, help: "Run through the sweep engine: each scenario and policy in a worker process of its own, N at a time (default: every run in this process).")
    var jobs: Int?

    @Flag(name: .long, help: "Count the policies' mistakes (an action or a plan the device cannot carry out) instead of failing the run at the first (exit 1).")
    var lenientPolicies = false

    @OptionGroup var timeLimits: TimeLimitOptions

    mutating func validate() throws {
        guard (1...ScenarioLimits.repeats).contains(`repeat`) else {
            throw ValidationError("--repeat must be from 1 to \(ScenarioLimits.repeats) (got \(`repeat`))")
        }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more (got \(jobs))") }
        if jobs != nil, trace != nil { throw ValidationError("--trace streams the runs of this process; leave out --jobs to write one") }
        try OutputOptions.requireDistinct(outputs)
        if let output { try OutputOptions.requireResultsFile(output) }
    }

    /// The output options, for the check that they name different files.
    var outputs: [(option: String, path: String?)] {
        [("--output", output), ("--trace", trace), ("--html", html)]
    }

    var library: ScenarioLibrary? {
        scenarios.map { ScenarioLibrary(directory: $0) } ?? ScenarioLibrary.locate()
    }
}

/// Runs scenarios under policies through the harness's ``RunPlan``, with progress on a
/// terminal, streaming the trace. A run that fails, or a trace that cannot be written, exits
/// 1 (an invalid profile 65) and leaves no trace file.
func runAll(_ scenarios: [Scenario], policies: [Cleanup], options: RunOptions) throws -> CompletedPlan {
    var plan = RunPlan(scenarios: scenarios, policies: policies, termination: options.termination, repeats: options.repeat,
                       seed: options.seed, profile: options.profile, compressor: options.compressor)
    plan.lenientPolicies = options.lenientPolicies
    plan.timeLimits = (options.timeLimits.limits, TimeLimitOptions.endProcess())
    switch Result(catching: { () throws(RunPlan.Failure) in try plan.profiles() }) {
    case .failure(let failure):
        StandardError.write(failure.description + "\n")
        throw ExitCodes.invalidScenario
    case .success(let profiles):
        // A policy of the other platform's on this device is a what-if: say so once a release,
        // naming the scenarios it is about.
        let scenariosByRelease = Dictionary(grouping: profiles.keys, by: { profiles[$0]!.release })
        for (release, scenarios) in scenariosByRelease.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            guard let note = options.termination.whatIfNote(on: release) else { continue }
            StandardError.write("note: \(scenarios.sorted().joined(separator: ", ")): \(note)\n")
        }
    }
    let progress = Progress(enabled: Progress.isTerminal)
    if let jobs = options.jobs { return warnOfSaturatedFigures(try runInWorkers(plan, jobs: jobs, progress: progress)) }
    let writer = try OutputOptions.openTrace(options.trace, format: options.traceFormat)
    do throws(RunPlan.Failure) {
        let outcome = try plan.execute(trace: writer, cellStarted: { progress.show($0.label) },
                                       stepProgress: { cell, done, total in progress.show("\(cell.label): step \(done)/\(total)") })
        progress.clear()
        return warnOfSaturatedFigures(CompletedPlan(runs: outcome.runs, trace: writer, profile: outcome.profile))
    } catch {
        progress.clear()
        writer?.discard()
        switch error {
        case .invalidProfile:
            StandardError.write(error.description + "\n")
            throw ExitCodes.invalidScenario
        case .invalidPolicy:
            StandardError.write("pressurelab: \(error)\n")
            throw ExitCodes.badUsage
        case .runFailed:
            StandardError.write("pressurelab: \(error)\n")
            throw ExitCodes.runFailed
        case .traceFailed(let failure):
            throw OutputOptions.failed(failure, what: "the trace")
        }
    }
}

/// Says on standard error which runs have figures reported at a bound (a latency over the
/// histograms' hour, a total at its maximum): they are lower bounds, flagged in the results.
func warnOfSaturatedFigures(_ completed: CompletedPlan) -> CompletedPlan {
    for run in completed.runs {
        if let count = run.metrics.policyMistakes {
            StandardError.write("pressurelab: warning: \(run.scenario) / \(run.policy) / \(run.termination): \(count) policy "
                + "mistake\(count == 1 ? "" : "s") counted (--lenient-policies; policyMistakes in the results); the first: "
                + "\(run.metrics.firstPolicyMistake ?? "")\n")
        }
        guard let names = run.metrics.saturatedMetrics else { continue }
        StandardError.write("pressurelab: warning: \(run.scenario) / \(run.policy) / \(run.termination): "
            + "\(names.joined(separator: ", ")) hit their bound and are reported at it (lower bounds; "
            + "saturatedMetrics in the results)\n")
    }
    return completed
}

/// Runs a plan through the sweep engine (``ParallelRuns``): worker processes in a temporary
/// directory, removed at exit. A failed run exits 1 with the worker's reason.
func runInWorkers(_ plan: RunPlan, jobs: Int, progress: Progress) throws -> CompletedPlan {
    let profiles: [String: DeviceProfile]
    do {
        profiles = try plan.profiles()
    } catch {
        StandardError.write(error.description + "\n")
        throw ExitCodes.invalidScenario
    }
    let directory: SweepDirectory
    do {
        directory = SweepDirectory(path: try TemporaryFiles.makeDiskDirectory(prefix: "runs"))
    } catch {
        StandardError.write("pressurelab: \(error)\n")
        throw ExitCodes.runFailed
    }
    let total = plan.scenarios.count * plan.policies.count
    let counter = Counter(done: 0)
    let worker = SweepRunner.Worker(executable: SweepCommand.executablePath, arguments: SweepCommand.workerArguments(lenientPolicies: plan.lenientPolicies)
                                                + TimeLimitOptions.workerArguments(plan.timeLimits?.limits ?? TimeLimits()))
    let outcome = waitFor { () async -> Result<[RunResult], SweepError> in
        do throws(SweepError) {
            return .success(try await ParallelRuns.execute(plan, jobs: jobs, worker: worker, directory: directory) { event in
                if case .ended(let cell, _) = event { progress.show("[\(counter.increment())/\(total)] \(cell.label)") }
            })
        } catch {
            return .failure(error)
        }
    }
    progress.clear()
    switch outcome {
    case .success(let runs):
        let shared = Set(profiles.values.map(\.hash)).count == 1 ? profiles.values.first : nil
        return CompletedPlan(runs: runs, profile: shared)
    case .failure(let error):
        StandardError.write("pressurelab: \(error)\n")
        throw ExitCodes.runFailed
    }
}

/// Prints runs in the chosen format (then `trailer`) and writes the trace, the results
/// and the HTML report: all of them, or, on any failure, none.
func report(_ completed: CompletedPlan, options: RunOptions, trailer: String = "") throws {
    let (batch, text) = try completed.report(results: options.output, html: options.html, format: options.format,
                                             wide: options.wide)
    try OutputOptions.commit(batch) { try StandardOutput.print(text + trailer, terminator: "") }
}
