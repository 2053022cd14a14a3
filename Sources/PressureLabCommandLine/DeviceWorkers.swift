import ArgumentParser
import Dispatch
import Foundation
import PressureLab
import PressureLabHarness
import PressureLabHeap
import PressureLabSweep
import SystemPackage

/// The device experiment's configurations in worker processes, `jobs` at a time: each
/// worker is this program again (`device-worker`), reads the same inputs, runs one
/// configuration and writes its outcome, whole, to a file of the parent's temporary
/// directory (atomically); the parent reads them back in configuration order. A worker that
/// fails fails the command with its reason (its status and its last lines on standard error).
enum DeviceWorkers {
    static func run(_ experiment: DeviceInputs, inputs: DeviceInputOptions, jobs: Int, progress: Progress) throws
    -> [DeviceExperiment.Outcome] {
        let directory: String
        do {
            directory = try TemporaryFiles.makeDiskDirectory(prefix: "device")
        } catch {
            StandardError.write("pressurelab: \(error)\n")
            throw ExitCodes.runFailed
        }
        let names = experiment.configurations.map(\.name)
        let failures = FailureList()
        let counter = Counter(done: 0)
        let slots = DispatchSemaphore(value: jobs)
        DispatchQueue.concurrentPerform(iterations: names.count) { index in
            slots.wait()
            defer { slots.signal() }
            if let failure = runWorker(configuration: names[index], inputs: inputs,
                                       result: "\(directory)/\(index).json", log: "\(directory)/\(index).stderr") {
                failures.append("\(names[index]): \(failure)")
            }
            progress.show("[\(counter.increment())/\(names.count)] \(names[index])")
        }
        if let failure = failures.first {
            progress.clear()
            StandardError.write("pressurelab: the configuration \(failure)\n")
            throw ExitCodes.runFailed
        }
        return try names.indices.map { index in
            do {
                let data = try HostFiles.contents(of: FilePath("\(directory)/\(index).json"))
                return try JSONDecoder().decode(DeviceExperiment.TransportedOutcome.self, from: Data(data)).outcome
            } catch {
                StandardError.write("pressurelab: the configuration \(names[index]): its outcome cannot be read: \(error)\n")
                throw ExitCodes.runFailed
            }
        }
    }

    /// Runs one worker; nil when it wrote its outcome, else why not.
    private static func runWorker(configuration: String, inputs: DeviceInputOptions, result: String, log: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: SweepCommand.executablePath)
        var arguments = ["device-worker", "--configuration", configuration, "--result", result,
                         "--experiment", inputs.experiment.rawValue, "--scenario", inputs.workloadPath]
        if let profile = inputs.profile { arguments += ["--profile", profile.description] }
        if let hot = inputs.hotLaunchScenario { arguments += ["--hot-launch-scenario", hot] }
        if let published = inputs.published { arguments += ["--published", published] }
        for policy in inputs.termination { arguments += ["--termination", policy.name] }
        for memory in inputs.compressor { arguments += ["--compressor", memory.rawValue] }
        if inputs.swapFile { arguments.append("--swap-file") }
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment[SweepRunner.parentVariable] = String(getpid())
        process.environment = environment
        guard FileManager.default.createFile(atPath: log, contents: nil), let errors = FileHandle(forWritingAtPath: log) else {
            return "cannot create \(log)"
        }
        defer { try? errors.close() }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return "the worker could not start: \(error)"
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0, FileManager.default.fileExists(atPath: result) else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n").suffix(10).joined(separator: "\n")
            let status = process.terminationReason == .exit ? "exit status \(process.terminationStatus)"
                : "killed by signal \(process.terminationStatus)"
            return "the worker failed (\(status))" + (lines.isEmpty ? "" : ":\n\(lines)")
        }
        return nil
    }

    /// Failures collected from concurrent workers.
    private final class FailureList: Sendable {
        private let items = Locked<[String]>([])
        func append(_ item: String) { items.withLock { $0.append(item) } }
        var first: String? { items.withLock { $0.first } }
    }
}

/// `pressurelab device-worker`: runs one configuration of the device experiment and writes its
/// outcome (started by `device --jobs`, one process per configuration).
struct DeviceWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "device-worker",
                                                    abstract: "Run one configuration of the device experiment (used by 'device').",
                                                    shouldDisplay: false)

    @OptionGroup var inputs: DeviceInputOptions

    @Option(name: .long, help: "The configuration's name.")
    var configuration: String

    @Option(name: .long, help: "Where to write its outcome (JSON).")
    var result: String

    func run() throws {
        try SweepWorkerCommand.startWorker()
        let experiment = try inputs.load()
        guard let chosen = experiment.configurations.first(where: { $0.name == configuration }) else {
            throw ValidationError("no configuration named '\(configuration)'; configurations: "
                + experiment.configurations.map(\.name).joined(separator: ", "))
        }
        do {
            let outcome = try experiment.run(chosen)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data = try encoder.encode(DeviceExperiment.TransportedOutcome(outcome))
            try HostFiles.writeAtomically(FilePath(result), contents: Array(data))
        } catch {
            StandardError.write("pressurelab: \(configuration): \(error)\n")
            throw ExitCodes.runFailed
        }
    }
}
