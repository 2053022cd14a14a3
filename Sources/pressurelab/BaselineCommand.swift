import ArgumentParser
import Foundation
import PressureLab
import PressureLabHarness
import PressureLabHeap

/// `pressurelab baseline save|check NAME`: footprint and latency gates.
struct BaselineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baseline", abstract: "Save results as a baseline, or check a run against one (exit 2 on a regression).",
        subcommands: [Save.self, Check.self])

    /// Options shared by save and check.
    struct Common: ParsableArguments {
        @Argument(help: "The baseline's name (a file NAME.json in --dir) or a path to a .json file.")
        var name: String

        @Argument(help: "Scenario files or bundled names (default: all bundled).")
        var scenarioFiles: [String] = []

        @Option(name: .long, help: "Cleanup policy (repeatable; default: ios6).")
        var policy: [String] = []

        @Option(name: .long, help: "Where baselines live.")
        var dir = "baselines"

        @OptionGroup var run: RunOptions

        var path: String { name.hasSuffix(".json") ? name : "\(dir)/\(name).json" }
        var policies: [String] { policy.isEmpty ? ["ios6"] : policy }

        mutating func validate() throws {
            for name in policy where CleanupPolicies.named(name) == nil {
                throw ValidationError("unknown policy '\(name)'; valid policies are \(CleanupPolicies.builtInNames.joined(separator: ", "))")
            }
        }
    }

    struct Save: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "save", abstract: "Run and save a baseline.")
        @OptionGroup var common: Common

        func run() throws {
            Heap.requireJemalloc()
            let scenarios = try loadScenarios(common.scenarioFiles, library: common.run.library)
            let runs = try runAll(scenarios, policies: common.policies, options: common.run)
            let baseline = try Baseline(name: (common.name as NSString).lastPathComponent, runs: runs)
            do {
                try baseline.write(to: common.path)
            } catch {
                StandardError.write("pressurelab: \(common.path): cannot write the baseline: \(error.localizedDescription)\n")
                throw ExitCodes.runFailed
            }
            print("saved baseline '\(baseline.name)' to \(common.path): \(baseline.entries.count) entries, "
                + "\(common.run.repeat) repeats each, \(baseline.allocator)")
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "check",
                                                        abstract: "Run and compare with a baseline; exit 2 on a regression.")
        @OptionGroup var common: Common

        @Option(name: .long, help: "Thresholds file (JSON: bytes, latency, counts, metrics).")
        var thresholds: String?

        @Option(name: .long, help: "Write a Markdown summary (for a pull-request comment) to this file.")
        var markdown: String?

        @Option(name: .long, help: "Write the run's metrics as customSmallerIsBetter JSON to this file.")
        var export: String?

        func run() throws {
            Heap.requireJemalloc()
            let baseline: Baseline
            let limits: Thresholds
            do {
                baseline = try Baseline.read(from: common.path)
                limits = try thresholds.map { path throws(GateError) in try Thresholds.read(from: path) } ?? .default
            } catch {
                StandardError.write("pressurelab: \(error.description)\n")
                throw ExitCodes.runFailed
            }
            let scenarios = try loadScenarios(common.scenarioFiles, library: common.run.library)
            let policies = common.policy.isEmpty ? Array(Set(baseline.entries.map(\.policy))).sorted() : common.policies
            let runs = try runAll(scenarios, policies: policies, options: common.run)
            let allocator = try Heap.allocatorInfo()
            let report = GateReport.check(runs, against: baseline, thresholds: limits, allocator: allocator.name,
                                          allocatorOptions: allocator.options)
            print(report.text, terminator: "")
            do {
                if let markdown { try report.markdown.write(toFile: markdown, atomically: true, encoding: .utf8) }
                if let export { try GateReport.customSmallerIsBetter(runs).write(toFile: export, atomically: true, encoding: .utf8) }
            } catch {
                StandardError.write("pressurelab: cannot write a report: \(error.localizedDescription)\n")
                throw ExitCodes.runFailed
            }
            if !report.passed { throw ExitCodes.regression }
        }
    }
}
