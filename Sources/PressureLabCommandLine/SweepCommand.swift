import ArgumentParser
import Dispatch
import Foundation
import PressureLab
import PressureLabHarness
import PressureLabHeap
import PressureLabSweep

/// `pressurelab sweep FILE [--dry-run] [--jobs N] [--shard I/N] [--resume]`
struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Run a grid of runs (a sweep file) in parallel worker processes, one cell each; shardable and resumable.")

    @Argument(help: "The sweep file (YAML, 'sweep: 1').")
    var file: String

    @Flag(name: .long, help: "List the cells and stop.")
    var dryRun = false

    @Option(name: .long, help: "Worker processes at a time (default: the cores this process may use, cgroup limits included).")
    var jobs: Int?

    @Option(name: .long, help: "Run only the I-th of N slices of the cells (for several machines); merge them with 'pressurelab merge'.")
    var shard: String?

    @Flag(name: .long, help: "Finish an interrupted sweep: run only the cells that have no result yet.")
    var resume = false

    @Option(name: .long, help: "The results directory (default: the sweep file's 'output').")
    var output: String?

    @Flag(name: .long, help: "Count the policies' mistakes (an action or a plan the device cannot carry out) instead of failing the cell at the first.")
    var lenientPolicies = false

    @OptionGroup var timeLimits: TimeLimitOptions

    mutating func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more (got \(jobs))") }
        if let shard {
            do { _ = try Shard(parsing: shard) } catch { throw ValidationError(error.description) }
        }
    }

    func run() throws {
        let plan = try Self.plan(file)
        let shard = try self.shard.map { text throws(SweepError) in try Shard(parsing: text) } ?? .whole
        if dryRun {
            let cells = plan.cells(in: shard)
            let rows = cells.map { [String($0.index), $0.label] }
            try StandardOutput.print(TextTable.render(header: ["cell", "scenario / policy / termination / ..."], rows: rows))
            try StandardOutput.print("\(cells.count) cells\(shard == .whole ? "" : " in shard \(shard)") of \(plan.cells.count); "
                + "sweep hash \(plan.hash); results in \(output ?? plan.output)")
            return
        }
        try requireJemalloc()
        let directory = SweepDirectory(path: output ?? plan.output)
        let limits = timeLimits.limits.filled(from: plan.timeLimits)
        var configured = SweepRunner(plan: plan, directory: directory, shard: shard, jobs: jobs ?? HostCPU.availableCores(),
                                 worker: .init(executable: Self.executablePath, arguments: Self.workerArguments(lenientPolicies: lenientPolicies)
                                     + TimeLimitOptions.workerArguments(limits)))
        configured.cellTimeLimits = limits
        let runner = configured
        let prepared: (cells: [SweepCell], alreadyFinished: Int, setAside: [SweepDirectory.SetAside])
        do {
            if shard == .whole { try SweepMerge.refuseDirectories(results: directory.resultsPath, database: directory.databasePath) }
            prepared = try runner.prepareSettingAside(resume: resume)
            for setAside in prepared.setAside { StandardError.write("pressurelab: \(setAside)\n") }
        } catch {
            StandardError.write("pressurelab: \(error)\n")
            throw error.isUsage ? ExitCodes.badUsage : ExitCodes.runFailed
        }
        let total = plan.cells(in: shard).count
        let resumeCommand = self.resumeCommand
        SignalCleanup.beforeExit = { signal in
            let finished = Set((try? directory.finishedIndices()) ?? []).intersection(plan.cells(in: shard).map(\.index)).count
            StandardError.write("\npressurelab: interrupted (signal \(signal)): \(finished) of \(total) cells finished, kept in "
                + "\(directory.path); '\(resumeCommand)' runs the \(total - finished) others\n")
        }
        let progress = Progress(enabled: Progress.isTerminal)
        let counter = Counter(done: prepared.alreadyFinished)
        let start = MonotonicClock.now()
        let summary = waitFor {
            await runner.run(prepared.cells, alreadyFinished: prepared.alreadyFinished) { event in
                switch event {
                case .started(let cell): progress.show("[\(counter.done)/\(total)] \(cell.label)")
                case .ended(let cell, let failure):
                    let done = counter.increment()
                    if let failure {
                        progress.clear()
                        StandardError.write("pressurelab: cell \(cell.index) (\(cell.label)) failed: \(failure.status)"
                            + (failure.standardError.last.map { ": \($0)" } ?? "") + "\n")
                    }
                    progress.show("[\(done)/\(total)] \(cell.label)")
                }
            }
        }
        progress.clear()
        let seconds = Double(MonotonicClock.now() - start) / 1e9
        // At most one worker a cell ran: --jobs 1000 on 4 cells ran 4.
        let workers = min(runner.jobs, prepared.cells.count)
        var text = "sweep \(file): \(summary.cells) cells\(shard == .whole ? "" : " (shard \(shard) of \(plan.cells.count))"): "
            + "\(summary.finished) run now, \(summary.alreadyFinished) finished before, \(summary.failures.count) failed; "
            + "\(String(format: "%.1f", seconds)) s wall with \(workers) worker\(workers == 1 ? "" : "s") at once; "
            + "peak resident: this process \(Units.mebibytes(Self.peakResidentBytes(children: false))), "
            + "the largest worker \(Units.mebibytes(Self.peakResidentBytes(children: true)))\n"
        if summary.missing == 0, shard == .whole {
            do {
                let merged = try SweepMerge.collect([directory])
                try SweepMerge.write(merged, results: directory.resultsPath, database: directory.databasePath)
                // The rate counts the cells run now: those finished before took no time here.
                let ranNow = Set(prepared.cells.map(\.index))
                let steps = merged.records.filter { ranNow.contains($0.cell.index) }
                    .reduce(0) { $0 + $1.results.runs.reduce(0) { $0 + $1.timeline.count } }
                text += steps == 0 ? "nothing to run; " : "\(steps) steps run now, \(Int(Double(steps) / max(seconds, 1e-9))) steps/s; "
                text += "results: \(directory.resultsPath), \(directory.databasePath)\n"
            } catch {
                StandardError.write("pressurelab: \(error)\n")
                throw ExitCodes.runFailed
            }
        } else if summary.missing == 0 {
            text += "shard \(shard) done in \(directory.path); join the shards with 'pressurelab merge DIR...'\n"
        }
        try StandardOutput.print(text, terminator: "")
        if summary.missing > 0 {
            StandardError.write("pressurelab: \(summary.missing) cells have no result; '\(resumeCommand)' runs them again\n")
            throw ExitCodes.runFailed
        }
    }

    /// The command that finishes this sweep: the same file, shard and directory, `--resume`.
    var resumeCommand: String {
        var words = ["pressurelab", "sweep", file]
        if let shard { words += ["--shard", shard] }
        if let output { words += ["--output", output] }
        return (words + ["--resume"]).map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
    }

    /// Reads and expands a sweep file; prints its problems and exits 65.
    static func plan(_ file: String) throws -> SweepPlan {
        do {
            return try SweepPlan(try SweepFile.load(path: file))
        } catch {
            StandardError.write(error.description + "\n")
            throw ExitCodes.invalidScenario
        }
    }

    /// The peak resident memory of this process or of its largest child that ended
    /// (`RUSAGE_CHILDREN`), in bytes. This process's is its address space's high-water mark
    /// (`VmHWM` in `/proc/self/status`) where Linux gives it: `ru_maxrss` survives `execve`, so
    /// a process started by a large one (a test runner) would report its parent's peak.
    static func peakResidentBytes(children: Bool) -> Int {
        if !children, let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
           let kibibytes = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap({ Int($0) }) {
            return kibibytes * 1024
        }
        var usage = rusage()
        guard getrusage(__rusage_who_t((children ? RUSAGE_CHILDREN : RUSAGE_SELF).rawValue), &usage) == 0 else { return 0 }
        return usage.ru_maxrss * 1024
    }

    /// The worker command, with the options workers share with the sweep.
    static func workerArguments(lenientPolicies: Bool) -> [String] {
        ["sweep-worker"] + (lenientPolicies ? ["--lenient-policies"] : [])
    }

    /// This executable (workers run it again).
    static var executablePath: String {
        HostFiles.realPath("/proc/self/exe")?.string ?? CommandLine.arguments[0]
    }
}

/// `pressurelab sweep-worker`: runs one cell of a sweep (started by `sweep`, one process per cell).
struct SweepWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sweep-worker", abstract: "Run one cell of a sweep (used by 'sweep').",
                                                    shouldDisplay: false)

    @Option(name: .long, help: "The results directory.")
    var output: String

    @Option(name: .long, help: "The sweep's hash.")
    var sweep: String

    @Option(name: .long, help: "The cell, as JSON.")
    var cell: String

    @Flag(name: .long, help: "Count the policies' mistakes instead of failing the cell.")
    var lenientPolicies = false

    @OptionGroup var timeLimits: TimeLimitOptions

    /// What every worker process (a sweep's cell, a device configuration) does first: end
    /// itself if the parent that started it dies, and check the allocator.
    static func startWorker() throws {
        if let parent = ProcessInfo.processInfo.environment[SweepRunner.parentVariable].flatMap(Int32.init) {
            CellWorker.exitWhenOrphaned(parent: parent) { TemporaryFiles.terminateProcess(afterSignal: SIGTERM) }
        }
        try requireJemalloc()
    }

    func run() throws {
        try Self.startWorker()
        let decoded: SweepCell
        do {
            decoded = try JSONDecoder().decode(SweepCell.self, from: Data(cell.utf8))
        } catch {
            throw ValidationError("--cell: not a sweep cell: \(error)")
        }
        // A fault to inject, for the tests of failed cells: the listed cells' workers abort.
        let faults = ProcessInfo.processInfo.environment["PRESSURELAB_SWEEP_FAULT"]?.split(separator: ",").compactMap { Int($0) } ?? []
        if faults.contains(decoded.index) {
            StandardError.write("pressurelab: cell \(decoded.index): aborting as PRESSURELAB_SWEEP_FAULT asks\n")
            abort()
        }
        do {
            _ = try CellWorker.run(decoded, sweep: sweep, directory: SweepDirectory(path: output),
                                     lenientPolicies: lenientPolicies,
                                     timeLimits: (timeLimits.limits, TimeLimitOptions.endProcess(prefix: "cell \(decoded.index) (\(decoded.label)): ")))
        } catch {
            StandardError.write("pressurelab: cell \(decoded.index) (\(decoded.label)): \(error)\n")
            throw ExitCodes.runFailed
        }
    }
}

/// `pressurelab merge DIR... --output FILE [--database FILE]`
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the results directories of a sweep's shards into one results file and one SQLite database.")

    @Argument(help: "The shards' results directories.")
    var directories: [String]

    @Option(name: .long, help: "The merged results file (pressurelab.results/1 JSON).")
    var output: String

    @Option(name: .long, help: "The SQLite database (default: the results file with .sqlite in place of .json).")
    var database: String?

    func validate() throws {
        try OutputOptions.requireDistinct([("--output", output), ("--database", databasePath)])
    }

    /// The database: `--database`, else the results file with `.sqlite` in place of `.json`.
    var databasePath: String { database ?? (output.hasSuffix(".json") ? String(output.dropLast(5)) : output) + ".sqlite" }

    func run() throws {
        do {
            let merged = try SweepMerge.collect(directories.map(SweepDirectory.init(path:)))
            try SweepMerge.write(merged, results: output, database: databasePath)
            try StandardOutput.print("merged \(directories.count) director\(directories.count == 1 ? "y" : "ies"): "
                + "\(merged.records.count) cells of sweep \(merged.manifest.sweep) (\(merged.manifest.file)), "
                + "pressurelab \(merged.manifest.tool); results: \(output), \(databasePath)")
        } catch let error as SweepError {
            StandardError.write("pressurelab: \(error)\n")
            throw ExitCodes.runFailed
        }
    }
}

/// Cells done so far (updated as workers end).
final class Counter: Sendable {
    private let value: Locked<Int>

    init(done: Int) { value = Locked(done) }

    var done: Int { value.withLock { $0 } }

    func increment() -> Int { value.withLock { $0 += 1; return $0 } }
}

/// Runs async work from synchronous code and waits for it.
func waitFor<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value {
    let box = Locked<Value?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let value = await body()
        box.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return box.withLock { $0 }!
}

extension SweepError {
    /// True for errors of the command line's use (exit 64) rather than of the run.
    var isUsage: Bool {
        switch self {
        case .invalidShard, .foreignResults, .resumeNeeded: return true
        default: return false
        }
    }
}
