import ArgumentParser
import Foundation
import PressureLab
import PressureLabHarness
import PressureLabHeap

/// PressureLab's command line, as a library: the `pressurelab` executable is this entry
/// point with no policies of its own, and a program of yours is the same command line with
/// yours registered: every subcommand (run, compare, policies, device, baseline, sweep with
/// its worker processes and shards, report, import) takes their names in `--policy` and
/// `--termination`, sweep files and baselines name them, and `list policies` lists them.
///
/// ```swift
/// import PressureLab
/// import PressureLabCommandLine
///
/// @main struct CustomLab {
///     static func main() {
///         PressureLabCommandLine.main(cleanup: [Cleanup(DropModelsFirst())], termination: [Termination(OldestFirst())])
///     }
/// }
/// ```
public enum PressureLabCommandLine {
    /// Registers the policies (`PolicyRegistry`), then parses the process's arguments and
    /// runs the command; exits with its status (docs/formats.md, "Exit codes"). A policy
    /// whose name is not `[a-z0-9-]+`, or is a built-in one's or another's, exits 64 before
    /// anything runs.
    ///
    /// SIGINT and SIGTERM are handled first (`SignalCleanup`), the temporary directories
    /// of crashed runs are swept, and every way out removes this process's temporaries.
    public static func main(cleanup: [Cleanup] = [], termination: [Termination] = []) -> Never {
        do {
            for policy in cleanup { try PolicyRegistry.register(policy) }
            for policy in termination { try PolicyRegistry.register(policy) }
        } catch {
            StandardError.write("pressurelab: \(error.description)\n")
            exit(ExitCodes.badUsage.rawValue)
        }
        PressureLabCommand.runProcess()
    }
}

/// The root command: its name is the executable's (`pressurelab`, or the name of a program
/// that is this command line with policies of its own).
struct PressureLabCommand: ParsableCommand {
    /// Runs the command and exits. Bad usage exits 64 (docs/formats.md), not ArgumentParser's default.
    static func runProcess() -> Never {
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

    static var configuration: CommandConfiguration {
        CommandConfiguration(
        commandName: executableName,
        abstract: "Simulate an app runtime under memory pressure with real memory, and measure what cleanup costs and saves.",
        version: PressureLabVersion.current,
        subcommands: [SuiteCommand.self, RunCommand.self, CompareCommand.self, ValidateCommand.self, ListCommand.self, ReportCommand.self,
                      BaselineCommand.self, GenerationsCommand.self, PoliciesCommand.self, DeviceCommand.self, DeviceWorkerCommand.self,
                      HeapCommand.self,
                      SweepCommand.self, SweepWorkerCommand.self, MergeCommand.self, ImportCommand.self],
        defaultSubcommand: SuiteCommand.self
        )
    }

    /// The executable's file name (`pressurelab` when run through a path it cannot read).
    static var executableName: String {
        CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? "pressurelab") } ?? "pressurelab"
    }
}
