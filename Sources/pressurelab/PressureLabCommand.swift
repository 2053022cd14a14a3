import ArgumentParser
import PressureLabHarness
import PressureLabHeap

/// `pressurelab`: simulate an app runtime under memory pressure, with real memory.
@main
struct PressureLabCommand: ParsableCommand {
    /// Bad usage exits 64 (design.md), not ArgumentParser's default.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                StandardError.write(fullMessage(for: error) + "\n")
                exit(withError: ExitCodes.badUsage)
            }
            exit(withError: error)
        }
    }

    static let configuration = CommandConfiguration(
        commandName: "pressurelab",
        abstract: "Simulate an app runtime under memory pressure with real memory, and measure what cleanup costs and saves.",
        version: PressureLabVersion.current,
        subcommands: [SuiteCommand.self, RunCommand.self, CompareCommand.self, ValidateCommand.self, ListCommand.self, ReportCommand.self,
                      BaselineCommand.self, GenerationsCommand.self, PoliciesCommand.self, DeviceCommand.self, HeapCommand.self],
        defaultSubcommand: SuiteCommand.self
    )
}

/// The version of the tool, reported in results.
enum PressureLabVersion {
    static let current = "0.1.0"
}
