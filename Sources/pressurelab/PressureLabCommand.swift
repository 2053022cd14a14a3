import ArgumentParser
import PressureLab
import PressureLabHarness
import PressureLabHeap

/// `pressurelab`: simulate an app runtime under memory pressure, with real memory.
@main
struct PressureLabCommand: ParsableCommand {
    /// Runs the command. Bad usage exits 64 (docs/formats.md), not ArgumentParser's default.
    /// SIGINT and SIGTERM are handled first (``SignalCleanup``), the temporary
    /// directories of crashed runs are swept, and every way out removes this process's
    /// temporaries before it exits.
    static func main() {
        SignalCleanup.install()
        TemporaryFiles.sweepStaleParents()
        var status: Int32 = 0
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            status = exitStatus(reporting: error)
        }
        TemporaryFiles.finishProcess(status: status)
    }

    /// Prints what ArgumentParser would for `error` (help and the version on standard
    /// output, checked; messages on standard error) and returns the exit status.
    static func exitStatus(reporting error: any Error) -> Int32 {
        let code = exitCode(for: error)
        let message = fullMessage(for: error)
        if code == .validationFailure {
            StandardError.write(message + "\n")
            return ExitCodes.badUsage.rawValue
        }
        if code == .success {
            guard !message.isEmpty else { return code.rawValue }
            do {
                try StandardOutput.print(message)
            } catch {
                return ExitCodes.runFailed.rawValue
            }
            return code.rawValue
        }
        if !message.isEmpty { StandardError.write(message + "\n") }
        return code.rawValue
    }

    static let configuration = CommandConfiguration(
        commandName: "pressurelab",
        abstract: "Simulate an app runtime under memory pressure with real memory, and measure what cleanup costs and saves.",
        version: PressureLabVersion.current,
        subcommands: [SuiteCommand.self, RunCommand.self, CompareCommand.self, ValidateCommand.self, ListCommand.self, ReportCommand.self,
                      BaselineCommand.self, GenerationsCommand.self, PoliciesCommand.self, DeviceCommand.self, HeapCommand.self,
                      SweepCommand.self, SweepWorkerCommand.self, MergeCommand.self, ImportCommand.self],
        defaultSubcommand: SuiteCommand.self
    )
}

/// The version of the tool: the one constant, ``ScenarioRunner/toolVersion``, that results,
/// baselines and sweeps record.
enum PressureLabVersion {
    static let current = ScenarioRunner.toolVersion
}
