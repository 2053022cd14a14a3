import ArgumentParser
import Dispatch
import Foundation
import PressureLab
import PressureLabHarness
import PressureLabHeap
import PressureLabSweep
import SystemPackage

/// The device experiment's configurations in worker processes, `jobs` of them: each worker is
/// this program again (`device-worker`), reads the same inputs and runs configurations one
/// after another, each the next one no worker has claimed yet (a claim is a file created
/// exclusively in the parent's temporary directory), writing each outcome, whole, to a file of
/// that directory (atomically); the parent reads them back in configuration order. A worker
/// keeps the memory one configuration freed for the next (the allocator's spare pages, within
/// the bound docs/limits.md states), so the pages are faulted in once a worker, not once a
/// configuration. A worker that fails fails the command with the configuration it was running
/// and its reason (its status and its last lines on standard error).
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
        let workers = min(jobs, names.count)
        let failures = FailureList()
        let finished = Locked(false)
        let watcher = Thread {
            // Progress: the outcomes written so far, polled while the workers run.
            var shown = -1
            while !finished.withLock({ $0 }) {
                let done = names.indices.filter { FileManager.default.fileExists(atPath: "\(directory)/\($0).json") }
                if done.count != shown {
                    shown = done.count
                    progress.show("[\(done.count)/\(names.count)]" + (done.last.map { " \(names[$0])" } ?? ""))
                }
                Thread.sleep(forTimeInterval: 0.25)
            }
        }
        watcher.start()
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            if let failure = runWorker(configurations: names, inputs: inputs, directory: directory,
                                       log: "\(directory)/worker-\(worker).stderr") {
                failures.append(failure)
            }
        }
        finished.withLock { $0 = true }
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

    /// Runs one worker until no configuration is left to claim; nil when it wrote the
    /// outcome of every configuration it claimed, else which one failed and why.
    private static func runWorker(configurations names: [String], inputs: DeviceInputOptions, directory: String,
                                  log: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: SweepCommand.executablePath)
        var arguments = ["device-worker", "--directory", directory,
                         "--experiment", inputs.experiment.rawValue, "--scenario", inputs.workloadPath]
        for name in names { arguments += ["--configuration", name] }
        if let profile = inputs.profile { arguments += ["--profile", profile.description] }
        if let hot = inputs.hotLaunchScenario { arguments += ["--hot-launch-scenario", hot] }
        if let published = inputs.published { arguments += ["--published", published] }
        for policy in inputs.termination { arguments += ["--termination", policy.name] }
        for memory in inputs.compressor { arguments += ["--compressor", memory.rawValue] }
        if inputs.swapFile { arguments.append("--swap-file") }
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment[SweepRunner.parentVariable] = String(getpid())
        environment[DeviceWorkerCommand.logVariable] = log
        process.environment = environment
        guard FileManager.default.createFile(atPath: log, contents: nil), let errors = FileHandle(forWritingAtPath: log) else {
            return "(none yet): cannot create \(log)"
        }
        defer { try? errors.close() }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return "(none yet): the worker could not start: \(error)"
        }
        process.waitUntilExit()
        // The configuration this worker claimed and has no outcome of: the one it was running.
        let unfinished = names.indices.first { index in
            (try? String(contentsOfFile: DeviceWorkerCommand.claimPath(directory, index), encoding: .utf8)) == log
                && !FileManager.default.fileExists(atPath: "\(directory)/\(index).json")
        }
        guard process.terminationReason == .exit, process.terminationStatus == 0, unfinished == nil else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n").suffix(10).joined(separator: "\n")
            let status = process.terminationReason == .exit ? "exit status \(process.terminationStatus)"
                : "killed by signal \(process.terminationStatus)"
            let name = unfinished.map { names[$0] } ?? "(none claimed)"
            return "\(name): the worker failed (\(status))" + (lines.isEmpty ? "" : ":\n\(lines)")
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

/// `pressurelab device-worker`: runs configurations of the device experiment one after another,
/// each the next of `--configuration` no other worker has claimed, and writes each outcome to
/// `--directory` (started by `device --jobs`, as many as it runs at once).
struct DeviceWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "device-worker",
                                                    abstract: "Run configurations of the device experiment (used by 'device').",
                                                    shouldDisplay: false)

    @OptionGroup var inputs: DeviceInputOptions

    @Option(name: .long, help: "A configuration's name (repeatable: the experiment's, in order).")
    var configuration: [String]

    @Option(name: .long, help: "The directory of claims and outcomes (JSON, one a configuration).")
    var directory: String

    /// The claim of the configuration at `index`: created by the worker that runs it, holding
    /// the path of that worker's log.
    static func claimPath(_ directory: String, _ index: Int) -> String { "\(directory)/\(index).claim" }

    func run() throws {
        try SweepWorkerCommand.startWorker()
        let experiment = try inputs.load()
        let chosen = try configuration.map { name in
            guard let found = experiment.configurations.first(where: { $0.name == name }) else {
                throw ValidationError("no configuration named '\(name)'; configurations: "
                    + experiment.configurations.map(\.name).joined(separator: ", "))
            }
            return found
        }
        // A fault to inject, for the tests of failed workers: the listed configurations abort.
        let faults = ProcessInfo.processInfo.environment["PRESSURELAB_DEVICE_FAULT"]?.split(separator: ",").map(String.init) ?? []
        for (index, configuration) in chosen.enumerated() where Self.claim(index, in: directory) {
            if faults.contains(configuration.name) {
                StandardError.write("pressurelab: \(configuration.name): aborting as PRESSURELAB_DEVICE_FAULT asks\n")
                abort()
            }
            do {
                let outcome = try experiment.run(configuration)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                let data = try encoder.encode(DeviceExperiment.TransportedOutcome(outcome))
                try HostFiles.writeAtomically(FilePath("\(directory)/\(index).json"), contents: Array(data))
            } catch {
                StandardError.write("pressurelab: \(configuration.name): \(error)\n")
                throw ExitCodes.runFailed
            }
        }
    }

    /// Claims the configuration at `index` for this worker: true when no worker had (the
    /// claim file is created exclusively), holding this worker's log path.
    private static func claim(_ index: Int, in directory: String) -> Bool {
        let descriptor = open(claimPath(directory, index), O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { return false }
        let log = ProcessInfo.processInfo.environment[logVariable] ?? ""
        _ = log.withCString { write(descriptor, $0, strlen($0)) }
        close(descriptor)
        return true
    }

    /// The environment variable a worker finds its log's path in (to name it in its claims).
    static let logVariable = "PRESSURELAB_DEVICE_WORKER_LOG"
}
