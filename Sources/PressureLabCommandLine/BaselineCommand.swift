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
        var policy: [Cleanup] = []

        @Option(name: .long, help: "Where baselines live.")
        var dir = "baselines"

        @OptionGroup var run: RunOptions

        var path: String { name.hasSuffix(".json") ? name : "\(dir)/\(name).json" }
        var policies: [Cleanup] { policy.isEmpty ? [.ios6] : policy }
    }

    struct Save: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "save", abstract: "Run and save a baseline.")
        @OptionGroup var common: Common

        func validate() throws {
            try OutputOptions.requireDistinct([("the baseline file", common.path)] + common.run.outputs)
        }

        func run() throws {
            try requireJemalloc()
            let scenarios = try loadScenarios(common.scenarioFiles, library: common.run.library)
            let completed = try runAll(scenarios, policies: common.policies, options: common.run)
            let baseline = try Baseline(name: (common.name as NSString).lastPathComponent, runs: completed.runs)
            let batch = completed.outputs()
            batch.add(try Self.json(baseline), to: common.path, as: "the baseline")
            let directory = (common.path as NSString).deletingLastPathComponent
            do throws(HarnessError) {
                if !directory.isEmpty { try OutputDirectory.create(directory) }
            } catch {
                batch.discard()
                throw OutputOptions.failed(error, what: "the baseline's directory")
            }
            try OutputOptions.commit(batch) {
                try StandardOutput.print("saved baseline '\(baseline.name)' to \(common.path): \(baseline.entries.count) entries, "
                    + "\(common.run.repeat) repeats each, \(baseline.allocator)")
            }
        }

        /// The baseline file's text: JSON, pretty-printed with sorted keys (as `Baseline.write`).
        static func json(_ baseline: Baseline) throws -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            return String(decoding: try encoder.encode(baseline), as: UTF8.self)
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "check",
                                                        abstract: "Run and compare with a baseline; exit 2 on a regression.")
        @OptionGroup var common: Common

        @Option(name: .long, help: "Thresholds file (JSON: bytes, latency, counts, deviceTime, metrics); host latencies are gated only when it names them, with --repeat 3 or more.")
        var thresholds: String?

        /// The fewest repeats a host latency is gated over.
        static let latencyRepeats = 3

        @Option(name: .long, help: "Write a Markdown summary (for a pull-request comment) to this file.")
        var markdown: String?

        @Option(name: .long, help: "Write the run's metrics as customSmallerIsBetter JSON to this file.")
        var export: String?

        func validate() throws {
            try OutputOptions.requireDistinct(common.run.outputs + [("--markdown", markdown), ("--export", export)])
        }

        func run() throws {
            try requireJemalloc()
            let baseline: Baseline
            let limits: Thresholds
            do {
                baseline = try Baseline.read(from: common.path)
                limits = try thresholds.map { path throws(GateError) in try Thresholds.read(from: path) } ?? .default
            } catch {
                StandardError.write("pressurelab: \(error.description)\n")
                throw ExitCodes.runFailed
            }
            // A host latency is gated over repeats, a median and its spread: never one run's
            // timing (docs/gating.md, "What is gated").
            if let named = limits.hostLatencies, !named.isEmpty, common.run.repeat < Self.latencyRepeats {
                StandardError.write("pressurelab: \(thresholds ?? "the thresholds file") gates host latencies "
                    + "(\(named.joined(separator: ", "))), which are gated on their median over repeats: "
                    + "give --repeat \(Self.latencyRepeats) or more (got \(common.run.repeat)), or leave them out of the thresholds file\n")
                throw ExitCodes.badUsage
            }
            let scenarios = try loadScenarios(common.scenarioFiles, library: common.run.library)
            // The baseline's own policies, in the order this program lists them (one it names
            // that this program lacks fails its check as missing).
            let policies = common.policy.isEmpty
                ? PolicyRegistry.cleanupPolicies.filter { policy in baseline.entries.contains { $0.policy == policy } }
                : common.policies
            let completed = try runAll(scenarios, policies: policies, options: common.run)
            let allocator = try Heap.allocatorInfo()
            let report = GateReport.check(completed.runs, against: baseline, thresholds: limits, allocator: allocator.name,
                                          allocatorOptions: allocator.options, compressors: PageCodec.libraries)
            // A regression is a result, not a failure: the summary and the export are written either way.
            let batch = completed.outputs()
            if let markdown { batch.add(report.markdown, to: markdown, as: "the gate summary") }
            if let export { batch.add(try GateReport.customSmallerIsBetter(completed.runs), to: export, as: "the export") }
            try OutputOptions.commit(batch) { try StandardOutput.print(report.text, terminator: "") }
            if !report.passed { throw ExitCodes.regression }
        }
    }
}
