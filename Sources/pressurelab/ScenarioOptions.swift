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
    var termination = "jetsam"

    @Option(name: .long, help: "Runs of each scenario and policy.")
    var `repeat` = 1

    @Option(name: .long, help: "Seed for everything random (default: the scenario's).")
    var seed: UInt64?

    @Option(name: .long, help: "Write the results (pressurelab.results/1 JSON) to this file.")
    var output: String?

    @Option(name: .long, help: "Write every lifecycle callback and state change as JSON lines to this file.")
    var trace: String?

    @Option(name: .long, help: "Also write an HTML report (SVG charts) to this file.")
    var html: String?

    @Option(name: .long, help: "Output format: table, json, csv, markdown.")
    var format: String = "table"

    @Option(name: .long, help: "The directory of bundled scenarios (default: ./scenarios).")
    var scenarios: String?

    mutating func validate() throws {
        guard ResultFormat(rawValue: format) != nil else {
            throw ValidationError("unknown format '\(format)'; valid formats are table, json, csv, markdown")
        }
        guard `repeat` >= 1 else { throw ValidationError("--repeat must be 1 or more (got \(`repeat`))") }
        guard TerminationPolicies.named(termination) != nil else {
            throw ValidationError("unknown termination policy '\(termination)'; valid policies are \(TerminationPolicies.builtInNames.joined(separator: ", "))")
        }
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

/// Runs scenarios under policies, with progress on a terminal, trace and results files.
func runAll(_ scenarios: [Scenario], policies: [String], options: RunOptions) throws -> [RunResult] {
    let writer = try options.trace.map { path throws(HarnessError) in try TraceJSONLinesWriter(path: path) }
    let progress = Progress(enabled: Progress.isTerminal)
    var runs: [RunResult] = []
    let runner = ScenarioRunner()
    for scenario in scenarios {
        for policy in policies {
            for index in 0..<options.repeat {
                let label = "\(scenario.name) / \(policy) / \(options.termination)"
                progress.show(label)
                do {
                    runs.append(try runner.run(scenario, policy: policy, termination: options.termination, seed: options.seed,
                                               repeatIndex: index, trace: writer.map { writer in { writer.write($0) } },
                                               progress: { done, total in progress.show("\(label): step \(done)/\(total)") }))
                } catch {
                    progress.clear()
                    StandardError.write("pressurelab: \(label): the run failed: \(error)\n")
                    throw ExitCodes.runFailed
                }
            }
        }
    }
    progress.clear()
    writer?.close()
    return runs
}

/// Prints runs in the chosen format and writes the results file.
func report(_ runs: [RunResult], options: RunOptions) throws {
    let file = try ResultsFile(version: ScenarioRunner.toolVersion, runs: runs)
    if let output = options.output {
        do {
            try ResultFormatter.json(file).write(toFile: output, atomically: true, encoding: .utf8)
        } catch {
            StandardError.write("pressurelab: \(output): cannot write the results: \(error.localizedDescription)\n")
            throw ExitCodes.runFailed
        }
    }
    if options.html != nil { try writeReports(file, html: options.html, markdown: nil) }
    let rows = ResultFormatter.comparison(runs)
    switch ResultFormat(rawValue: options.format) ?? .table {
    case .table: print(ResultFormatter.table(rows), terminator: "")
    case .csv: print(ResultFormatter.csv(rows), terminator: "")
    case .markdown: print(ResultFormatter.markdown(rows), terminator: "")
    case .json: print(try ResultFormatter.json(file), terminator: "")
    }
}

enum StandardError {
    static func write(_ text: String) { FileHandleStandardError.write(text) }
}
