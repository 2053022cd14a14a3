import Foundation
import PressureLabHarness
import PressureLabHeap
import Subprocess
import SystemPackage

/// Runs a sweep's cells in worker processes, `jobs` at a time: each cell in a fresh process
/// of its own (``CellWorker``), which writes the cell's record atomically when it is done.
/// A worker that fails (an exit status, a signal) fails its cell with the reason and its
/// last lines on standard error, and the sweep goes on. What finished is kept whatever
/// happens to this process; ``prepare()`` with `resume` picks up the cells still missing.
package struct SweepRunner: Sendable {
    /// How to start a worker: the executable and the arguments before the cell's own
    /// (`--output DIR --sweep HASH --cell JSON` are appended).
    package struct Worker: Sendable {
        package var executable: String
        package var arguments: [String]

        package init(executable: String, arguments: [String]) {
            self.executable = executable
            self.arguments = arguments
        }
    }

    /// What happened to the cells of one invocation.
    package struct Summary: Sendable {
        /// Cells in this shard.
        package var cells: Int
        /// Cells finished by an earlier invocation (kept, not run again).
        package var alreadyFinished: Int
        /// Cells run now that finished.
        package var finished: Int
        /// Cells run now that failed.
        package var failures: [CellFailure]
        /// Cells of the shard with no record (failed, or never run).
        package var missing: Int { cells - alreadyFinished - finished }
    }

    /// Progress, as cells start and end.
    package enum Progress: Sendable {
        case started(SweepCell)
        case ended(SweepCell, failure: CellFailure?)
    }

    /// The environment variable that tells a worker its parent's process ID.
    package static let parentVariable = "PRESSURELAB_SWEEP_PARENT"

    package var plan: SweepPlan
    package var directory: SweepDirectory
    package var shard: Shard
    package var jobs: Int
    package var worker: Worker
    /// The time limits the workers are given (`--step-timeout`, `--cell-timeout`); one not
    /// given is derived from each cell's scenario. The sweep kills a worker that outlives
    /// them (``backstopSeconds(for:)``).
    package var cellTimeLimits = TimeLimits()
    /// Seconds past its runs' limits before the sweep kills a worker
    /// (``defaultBackstopGraceSeconds``).
    package var backstopGraceSeconds = SweepRunner.defaultBackstopGraceSeconds
    /// Each scenario's derived limit for one run, by path and user, loaded once.
    let derivedRunSeconds = Locked<[String: Double?]>([:])

    package init(plan: SweepPlan, directory: SweepDirectory, shard: Shard = .whole, jobs: Int, worker: Worker) {
        self.plan = plan
        self.directory = directory
        self.shard = shard
        self.jobs = max(1, jobs)
        self.worker = worker
    }

    /// Checks the directory (another sweep's, another tool's or another shard's results
    /// are refused; finished cells need `resume`), writes the manifest, and returns the
    /// cells to run with the number already finished.
    package func prepare(resume: Bool) throws(SweepError) -> (cells: [SweepCell], alreadyFinished: Int) {
        let prepared = try prepareSettingAside(resume: resume)
        return (prepared.cells, prepared.alreadyFinished)
    }

    /// ``prepare(resume:)``, and the records a resume set aside: a finished cell whose record
    /// cannot be read (truncated, garbage, a directory) is renamed and run again.
    package func prepareSettingAside(resume: Bool) throws(SweepError)
    -> (cells: [SweepCell], alreadyFinished: Int, setAside: [SweepDirectory.SetAside]) {
        try directory.create()
        if let manifest = try directory.manifest() {
            if manifest.tool != PressureLabVersion.current {
                throw .foreignResults(directory: directory.path, reason: "holds results of pressurelab \(manifest.tool); "
                    + "this is \(PressureLabVersion.current): use another directory")
            }
            if manifest.sweep != plan.hash {
                throw .foreignResults(directory: directory.path, reason: "holds results of another sweep (\(manifest.file), "
                    + "hash \(manifest.sweep); this sweep's hash is \(plan.hash)): use another directory")
            }
            if manifest.shard != shard.description {
                throw .foreignResults(directory: directory.path, reason: "holds shard \(manifest.shard) of this sweep; "
                    + "this run is shard \(shard): give each shard its own directory")
            }
        }
        try directory.removeStaleTemporaries()
        let mine = plan.cells(in: shard)
        var finished = Set(try directory.finishedIndices()).intersection(mine.map(\.index))
        if !finished.isEmpty, !resume { throw .resumeNeeded(directory: directory.path, finished: finished.count) }
        let setAside = directory.setAsideUnreadableRecords(finished.sorted(), sweep: plan.hash)
        finished.subtract(setAside.map(\.index))
        try directory.write(SweepManifest(tool: PressureLabVersion.current, sweep: plan.hash, file: plan.source,
                                          cells: plan.cells.count, shard: shard))
        return (mine.filter { !finished.contains($0.index) }, finished.count, setAside)
    }

    /// Runs `cells`, `jobs` at a time, and returns what happened.
    package func run(_ cells: [SweepCell], alreadyFinished: Int, progress: @escaping @Sendable (Progress) -> Void) async -> Summary {
        var summary = Summary(cells: plan.cells(in: shard).count, alreadyFinished: alreadyFinished, finished: 0, failures: [])
        await withTaskGroup(of: (SweepCell, CellFailure?).self) { group in
            var pending = cells[...]
            func startNext() {
                guard let cell = pending.popFirst() else { return }
                progress(.started(cell))
                group.addTask { (cell, await runWorker(cell)) }
            }
            for _ in 0..<jobs { startNext() }
            for await (cell, failure) in group {
                if let failure {
                    summary.failures.append(failure)
                    try? directory.write(failure)
                } else {
                    summary.finished += 1
                }
                progress(.ended(cell, failure: failure))
                startNext()
            }
        }
        summary.failures.sort { $0.cell.index < $1.cell.index }
        return summary
    }

    /// Runs one cell in a worker; nil when it finished, else why not.
    func runWorker(_ cell: SweepCell) async -> CellFailure? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let json = try? encoder.encode(cell) else { return CellFailure(cell: cell, status: "cannot encode the cell", standardError: []) }
        let arguments = worker.arguments + ["--output", directory.path, "--sweep", plan.hash, "--cell", String(decoding: json, as: UTF8.self)]
        // The worker's standard error goes to a file of its own (however much it writes),
        // whose last lines say why a cell failed.
        let errorPath = FilePath("\(directory.cellsPath)/\(SweepDirectory.name(cell.index)).stderr")
        let status: TerminationStatus
        let backstop = backstopSeconds(for: cell)
        let killedByBackstop = Locked(false)
        do {
            let errorFile = try HostFiles.create(errorPath)
            let execution = try await Subprocess.run(
                .path(FilePath(worker.executable)), arguments: Arguments(arguments),
                environment: .inherit.updating([Environment.Key(stringLiteral: Self.parentVariable): String(getpid())]),
                input: .none, output: .discarded, error: .fileDescriptor(errorFile, closeAfterSpawningProcess: true)
            ) { execution -> Task<Void, Never>? in
                guard let backstop else { return nil }
                // Sent through the process's descriptor (pidfd): never to another process
                // that took its number after it ended.
                return Task {
                    try? await Task.sleep(for: .seconds(backstop))
                    guard !Task.isCancelled else { return }
                    killedByBackstop.withLock { $0 = true }
                    try? execution.send(signal: .kill)
                }
            }
            execution.closureResult?.cancel()
            status = execution.terminationStatus
        } catch {
            return CellFailure(cell: cell, status: "the worker could not run: \(error)", standardError: [])
        }
        // A worker that exits 0 has written its record (atomically, or it would not exit 0);
        // after any other end the record decides: one that wrote its cell and then died
        // still finished it.
        let recordPath = FilePath(directory.cellPath(cell.index))
        let finished = status == .exited(0) ? HostFiles.statusIfPresent(recordPath) != nil
            : (try? directory.record(cell.index)).map { $0.sweep == plan.hash && $0.cell.index == cell.index } ?? false
        if finished {
            HostFiles.remove(errorPath)
            return nil
        }
        // Kept whole beside the failure (a crash's backtrace, say); the failure quotes the
        // lines that give a reason (the tool's and the Swift runtime's), else the last ones.
        let text = (try? HostFiles.tail(of: errorPath, maximumBytes: 1 << 16)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        try? HostFiles.rename(errorPath, to: FilePath(directory.failureLogPath(cell.index)))
        let lines = text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        let reasons = lines.filter { $0.hasPrefix("pressurelab:") || $0.contains("Fatal error") || $0.hasPrefix("error:") }
        let tail = Array((reasons.isEmpty ? lines : reasons).suffix(10))
        switch status {
        case .exited(0): return CellFailure(cell: cell, status: "exit status 0 but no record written", standardError: tail)
        case .exited(let code): return CellFailure(cell: cell, status: "exit status \(code)", standardError: tail)
        case .signaled(let signal) where killedByBackstop.withLock({ $0 }):
            let seconds = backstop.map { String(format: "%.0f", $0) } ?? "?"
            return CellFailure(cell: cell, status: "killed by the sweep (signal \(signal)) after \(seconds) s: its runs' time limit "
                + "(--cell-timeout) and \(String(format: "%.0f", backstopGraceSeconds)) s of grace passed and the worker had not ended itself",
                               standardError: tail)
        case .signaled(let signal): return CellFailure(cell: cell, status: "killed by signal \(signal)", standardError: tail)
        }
    }
}
