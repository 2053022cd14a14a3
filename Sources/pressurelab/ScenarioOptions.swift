import ArgumentParser
import Foundation
import PressureLab
import PressureLabHarness
import PressureLabHeap

/// Exit codes of design.md section 5.
enum ExitCodes {
    static let runFailed = ExitCode(1)
    static let regression = ExitCode(2)
    static let badUsage = ExitCode(64)
    static let invalidScenario = ExitCode(65)
}

/// Options shared by the commands that run scenarios.
struct RunOptions: ParsableArguments {
    @Option(name: .long, help: "Termination policy: none, jetsam, lmk, largest-first, freeze.")
    var termination: TerminationKind = .jetsam

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

    @Option(name: .long, help: "Output format: table, json, csv, markdown.")
    var format: ResultFormat = .table

    @Option(name: .long, help: "The directory of bundled scenarios (default: ./scenarios).")
    var scenarios: String?

    @Option(name: .long, help: "Device profile for device time: a bundled name or a file (default: the scenario's, else \(ProfileLibrary.defaultName)).")
    var profile: ProfileReference?

    @Option(name: .long, help: "In-RAM compressor of suspended apps' memory: none, lz4, zstd (default: the profile's).")
    var compressor: Compressor?

    mutating func validate() throws {
        guard `repeat` >= 1 else { throw ValidationError("--repeat must be 1 or more (got \(`repeat`))") }
        try OutputOptions.requireDistinct(outputs)
    }

    /// The output options, for the check that they name different files.
    var outputs: [(option: String, path: String?)] {
        [("--output", output), ("--trace", trace), ("--html", html)]
    }

    var library: ScenarioLibrary? {
        scenarios.map(ScenarioLibrary.init(directory:)) ?? ScenarioLibrary.locate()
    }
}

/// Loads every file first; prints every problem of every invalid file and exits 65.
func loadScenarios(_ arguments: [String], library: ScenarioLibrary?) throws -> [Scenario] {
    do {
        return try ScenarioLibrary.loadScenarios(arguments, library: library)
    } catch .noneGiven {
        StandardError.write("pressurelab: no scenario given and no bundled scenarios found (use --scenarios DIR)\n")
        throw ExitCodes.badUsage
    } catch .invalid(let errors) {
        for error in errors { StandardError.write(error.description + "\n") }
        throw ExitCodes.invalidScenario
    }
}

/// Runs scenarios under policies through the harness's ``RunPlan``, with progress on a
/// terminal, streaming the trace. A run that fails, or a trace that cannot be written, exits
/// 1 (an invalid profile 65) and leaves no trace file.
func runAll(_ scenarios: [Scenario], policies: [CleanupKind], options: RunOptions) throws -> CompletedPlan {
    let plan = RunPlan(scenarios: scenarios, policies: policies, termination: options.termination, repeats: options.repeat,
                       seed: options.seed, profile: options.profile, compressor: options.compressor)
    if case .failure(let failure) = Result(catching: { () throws(RunPlan.Failure) in try plan.profiles() }) {
        StandardError.write(failure.description + "\n")
        throw ExitCodes.invalidScenario
    }
    let writer = try OutputOptions.openTrace(options.trace, format: options.traceFormat)
    let progress = Progress(enabled: Progress.isTerminal)
    do throws(RunPlan.Failure) {
        let outcome = try plan.execute(trace: writer, cellStarted: { progress.show($0.label) },
                                       stepProgress: { cell, done, total in progress.show("\(cell.label): step \(done)/\(total)") })
        progress.clear()
        return CompletedPlan(runs: outcome.runs, trace: writer, profile: outcome.profile)
    } catch {
        progress.clear()
        writer?.discard()
        switch error {
        case .invalidProfile:
            StandardError.write(error.description + "\n")
            throw ExitCodes.invalidScenario
        case .runFailed:
            StandardError.write("pressurelab: \(error)\n")
            throw ExitCodes.runFailed
        case .traceFailed(let failure):
            throw OutputOptions.failed(failure, what: "the trace")
        }
    }
}

/// Prints runs in the chosen format (then `trailer`) and writes the trace, the results
/// and the HTML report: all of them, or, on any failure, none.
func report(_ completed: CompletedPlan, options: RunOptions, trailer: String = "") throws {
    let (batch, text) = try completed.report(results: options.output, html: options.html, format: options.format)
    try OutputOptions.commit(batch) { try StandardOutput.print(text + trailer, terminator: "") }
}

extension CleanupKind: ExpressibleByArgument {}
extension Compressor: ExpressibleByArgument {}
extension ProfileReference: ExpressibleByArgument {
    public init?(argument: String) {
        guard !argument.isEmpty else { return nil }
        self.init(argument)
    }
}
extension ResultFormat: ExpressibleByArgument {}
extension TerminationKind: ExpressibleByArgument {}
