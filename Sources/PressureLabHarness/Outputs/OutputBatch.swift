/// The outputs of one command, written all or nothing.
///
/// Add whole contents (results, reports) and streams already written (the trace), then
/// ``commit(beforeReplacing:)``: every file is written to its temporary and flushed first
/// (outputs written in place, such as a device or a FIFO, after the others), then the
/// `beforeReplacing` step runs (printing to standard output), and only then are the
/// destinations replaced, together. If anything fails on the way, every temporary is
/// removed and no destination changes, and the failure names the file.
package final class OutputBatch {
    private struct Pending {
        let path: String
        let what: String
        let contents: String
    }

    private var pending: [Pending] = []
    private var files: [(file: OutputFile, what: String)] = []

    /// An empty batch.
    package init() {}

    /// Adds an output written from `contents` at commit; `what` names it in errors ("the
    /// results").
    package func add(_ contents: String, to path: String, as what: String) {
        pending.append(Pending(path: path, what: what, contents: contents))
    }

    /// Adds an output already written (a stream, such as the trace); it is committed or
    /// discarded with the others.
    package func add(_ file: OutputFile, as what: String) {
        files.append((file, what))
    }

    /// Writes everything, runs `beforeReplacing`, then replaces the destinations. Throws
    /// an ``OutputFailure`` naming the file, or what `beforeReplacing` threw; either way
    /// nothing is left behind.
    package func commit(beforeReplacing: () throws -> Void = {}) throws {
        do {
            for (file, what) in files {
                if let failure = file.failure { throw Self.failure(failure, what) }
            }
            // Files that are replaced first: a failure there leaves devices and FIFOs unwritten.
            let ordered = pending.filter { !OutputFile.isWrittenInPlace($0.path) }
                + pending.filter { OutputFile.isWrittenInPlace($0.path) }
            pending = []
            for output in ordered {
                do throws(HarnessError) {
                    let file = try OutputFile(path: output.path)
                    files.append((file, output.what))
                    file.write(output.contents)
                    try file.finishWriting()
                } catch {
                    throw Self.failure(error, output.what)
                }
            }
            for (file, what) in files {
                do throws(HarnessError) { try file.finishWriting() } catch { throw Self.failure(error, what) }
            }
            try beforeReplacing()
            for (file, what) in files {
                do throws(HarnessError) { try file.replaceDestination() } catch { throw Self.failure(error, what) }
            }
            files = []
        } catch {
            discard()
            throw error
        }
    }

    /// Abandons every output: temporaries removed, destinations unchanged.
    package func discard() {
        for (file, _) in files { file.discard() }
        files = []
        pending = []
    }

    private static func failure(_ error: HarnessError, _ what: String) -> OutputFailure {
        switch error {
        case .cannotWrite(let path, let reason), .cannotRead(let path, let reason): return OutputFailure(path: path, what: what, reason: reason)
        }
    }
}
