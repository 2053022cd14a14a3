import ArgumentParser
import Foundation
import PressureLab
import PressureLabHarness
import PressureLabHeap
import PressureLabSweep

// What the commands share: exit codes, loading scenarios and profiles with their problems
// printed, writing reports, number formats, and the option values ArgumentParser reads.

/// Exit codes (docs/formats.md).
enum ExitCodes {
    static let runFailed = ExitCode(1)
    static let regression = ExitCode(2)
    static let badUsage = ExitCode(64)
    static let invalidScenario = ExitCode(65)
}

/// Checks that the process allocates through jemalloc (``Heap/requireJemalloc()``); when it
/// does not, prints why and what to install, and fails the command with exit status 1.
func requireJemalloc() throws {
    do {
        try Heap.requireJemalloc()
    } catch {
        StandardError.write("pressurelab: \(error.description)\n")
        throw ExitCodes.runFailed
    }
}

/// Loads every file first; prints every problem of every invalid file and exits 65.
func loadScenarios(_ arguments: [String], library: ScenarioLibrary?) throws -> [Scenario] {
    do {
        return try ScenarioLibrary.loadScenarios(arguments, library: library)
    } catch {
        switch error {
        case .noneGiven:
            StandardError.write("pressurelab: no scenario given and no bundled scenarios found (use --scenarios DIR)\n")
            throw ExitCodes.badUsage
        case .invalid(let errors):
            for error in errors { StandardError.write(error.description + "\n") }
            throw ExitCodes.invalidScenario
        }
    }
}

/// A figure with two decimals (the device experiment's tables).
func format2(_ value: Double) -> String { String(format: "%.2f", value) }

/// Loads a device profile (bundled name, file, or the default); prints its problems and
/// exits 65 when it is invalid.
func loadProfile(_ reference: ProfileReference?) throws -> DeviceProfile {
    do {
        return try ProfileLibrary.load(reference)
    } catch {
        StandardError.write(error.description + "\n")
        throw ExitCodes.invalidScenario
    }
}

/// Writes the HTML and Markdown reports that were asked for (Markdown `-` to standard
/// output): both, or, on a failure (which names the file), neither.
func writeReports(_ file: ResultsFile, html: String?, markdown: String?) throws {
    let batch = OutputBatch()
    if let html { batch.add(HTMLReport.render(file), to: html, as: "the HTML report") }
    var standardOutput = ""
    if let markdown {
        let text = MarkdownReport.render(file)
        if markdown == "-" { standardOutput = text } else { batch.add(text, to: markdown, as: "the Markdown report") }
    }
    try OutputOptions.commit(batch) {
        if !standardOutput.isEmpty { try StandardOutput.print(standardOutput, terminator: "") }
    }
}

/// A cleanup policy on the command line (`--policy NAME`): any registered name.
extension Cleanup: ExpressibleByArgument {
    /// A built-in policy's name, or one this program registered.
    public init?(argument: String) { self.init(named: argument) }
    public static var allValueStrings: [String] { PolicyRegistry.cleanupPolicies.map(\.name) }
    public var defaultValueDescription: String { name }
}
/// A compressor on the command line (`--compressor none|lz4|zstd`).
extension Compressor: ExpressibleByArgument {}
/// A device experiment on the command line (`device --experiment fleet|pixel4`).
extension BundledExperiment: ExpressibleByArgument {}
/// A device profile on the command line (`--profile NAME|FILE`).
extension ProfileReference: ExpressibleByArgument {
    /// A bundled profile's name or a file's path; nil for an empty argument.
    public init?(argument: String) {
        guard !argument.isEmpty else { return nil }
        self.init(argument)
    }
}
/// An output format on the command line (`--format table|json|csv|markdown`).
extension ResultFormat: ExpressibleByArgument {}
/// A termination policy on the command line (`--termination NAME`): any registered name.
extension Termination: ExpressibleByArgument {
    /// A built-in policy's name, or one this program registered.
    public init?(argument: String) { self.init(named: argument) }
    public static var allValueStrings: [String] { PolicyRegistry.terminationNames.map(\.name) }
    public var defaultValueDescription: String { name }
}
/// A trace format on the command line (`--trace-format jsonl|chrome`).
extension TraceFormat: ExpressibleByArgument {}
