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
    var profile: String?

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
    var paths = arguments.map { library?.resolve($0) ?? $0 }
    if paths.isEmpty {
        guard let library, !library.files.isEmpty else {
            StandardError.write("pressurelab: no scenario given and no bundled scenarios found (use --scenarios DIR)\n")
            throw ExitCodes.badUsage
        }
        paths = library.files
    }
    let loader = ScenarioLoader()
    var scenarios: [Scenario] = []
    var failed = false
    for path in paths {
        do {
            scenarios.append(try loader.load(path: path))
        } catch {
            failed = true
            StandardError.write(error.description + "\n")
        }
    }
    if failed { throw ExitCodes.invalidScenario }
    return scenarios
}

/// Runs that completed, and their trace (written, not yet in place).
struct CompletedRuns {
    var runs: [RunResult]
    var trace: (any TraceOutput)?
    /// The profile every run used, when they share one.
    var profile: DeviceProfile?

    /// A batch of outputs that starts with the trace.
    func outputs() -> OutputBatch {
        let batch = OutputBatch()
        if let trace {
            trace.finish()
            batch.add(trace.file, as: "the trace")
        }
        return batch
    }
}

/// Runs scenarios under policies through the harness's ``RunPlan``, with progress on a
/// terminal, streaming the trace. A run that fails, or a trace that cannot be written, exits
/// 1 (an invalid profile 65) and leaves no trace file.
func runAll(_ scenarios: [Scenario], policies: [String], options: RunOptions) throws -> CompletedRuns {
    let plan = RunPlan(scenarios: scenarios, policies: policies, termination: options.termination.rawValue, repeats: options.repeat,
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
        return CompletedRuns(runs: outcome.runs, trace: writer, profile: outcome.profile)
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
func report(_ completed: CompletedRuns, options: RunOptions, trailer: String = "") throws {
    let file = try ResultsFile(version: ScenarioRunner.toolVersion, runs: completed.runs, profile: completed.profile)
    let batch = completed.outputs()
    if let output = options.output { batch.add(try ResultFormatter.json(file), to: output, as: "the results") }
    if let html = options.html { batch.add(HTMLReport.render(file), to: html, as: "the HTML report") }
    let rows = ResultFormatter.comparison(completed.runs)
    let text: String
    switch options.format {
    case .table: text = ResultFormatter.table(rows)
    case .csv: text = ResultFormatter.csv(rows)
    case .markdown: text = ResultFormatter.markdown(rows)
    case .json: text = try ResultFormatter.json(file)
    }
    try OutputOptions.commit(batch) { try StandardOutput.print(text + trailer, terminator: "") }
}

extension Compressor: ExpressibleByArgument {}
extension ResultFormat: ExpressibleByArgument {}
extension TerminationKind: ExpressibleByArgument {}
