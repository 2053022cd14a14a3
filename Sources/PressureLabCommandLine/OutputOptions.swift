import ArgumentParser
import SystemPackage
import PressureLabHarness
import PressureLabHeap

/// How commands treat their output files: distinct destinations, the trace, and writing
/// everything only when the command succeeded.
enum OutputOptions {
    /// Bad usage (exit 64) when two outputs name one file, however spelled (symbolic
    /// links, `.`, `..`, hard links); a character device may take several. `outputs`
    /// pairs each option with its path; options not given are nil.
    static func requireDistinct(_ outputs: [(option: String, path: String?)]) throws {
        let given = outputs.compactMap { output in output.path.map { (output.option, $0) } }
        if let clash = OutputIdentity.firstClash(among: given) {
            throw ValidationError("\(clash.first) and \(clash.second) name the same file (\(clash.path)); "
                + "give each output its own file")
        }
    }

    /// `--output` writes the results file, JSON (docs/formats.md, "Results"): a file it
    /// creates or replaces must be named `.json`. A path that is there and is not a regular
    /// file (a device such as /dev/stdout, a FIFO, a directory) is left to the writer.
    static func requireResultsFile(_ path: String) throws {
        if path.lowercased().hasSuffix(".json") { return }
        if let status = HostFiles.statusIfPresent(FilePath(path)), status.type != .regular { return }
        throw ValidationError("--output writes the results file (JSON) and must be named .json (got \(path)); "
            + "for a table, CSV or Markdown on standard output use --format, and for a Markdown report of a "
            + "results file use 'pressurelab report RESULTS.json --markdown FILE'")
    }

    /// Opens the trace output (a temporary next to it until the run succeeds), or exits 1
    /// naming the file.
    static func openTrace(_ path: String?, format: TraceFormat = .jsonl) throws -> (any TraceFile)? {
        guard let path else { return nil }
        do throws(HarnessError) {
            return try format.open(path)
        } catch {
            throw failed(error, what: "the trace")
        }
    }

    /// Exits 1 when the trace could not be written (checked after each run, to stop early).
    static func check(_ trace: (any TraceFile)?) throws {
        guard let trace, let failure = trace.failure else { return }
        trace.discard()
        throw failed(failure, what: "the trace")
    }

    /// Commits a command's outputs: writes them all, runs `beforeReplacing` (the printing
    /// to standard output), then replaces the destinations; on any failure nothing is
    /// left behind and the command exits 1 with the file and the reason.
    static func commit(_ batch: OutputBatch, beforeReplacing: () throws -> Void = {}) throws {
        do {
            try batch.commit(beforeReplacing: beforeReplacing)
        } catch let failure as OutputFailure {
            StandardError.write("pressurelab: \(failure)\n")
            throw ExitCodes.runFailed
        }
    }

    /// Reports a failure to open or write an output and returns the exit 1 to throw.
    static func failed(_ error: HarnessError, what: String) -> ExitCode {
        if case .cannotWrite(let path, let reason) = error {
            StandardError.write("pressurelab: \(OutputFailure(path: path, what: what, reason: reason))\n")
        } else {
            StandardError.write("pressurelab: \(error)\n")
        }
        return ExitCodes.runFailed
    }
}
