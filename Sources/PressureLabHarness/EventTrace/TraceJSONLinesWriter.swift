import PressureLab

/// Writes a trace as JSON lines, one event a line, as each event happens:
///
/// ```
/// {"step":3,"app":"photos","controller":"detail#2","event":"viewDidLoad"}
/// ```
///
/// The lines stream into an ``OutputFile``: a temporary file next to the destination,
/// renamed into place by ``commit()`` when the run succeeded and removed by
/// ``discard()`` when it did not (a device or a FIFO is written directly). Each line goes
/// out in one `write(2)`. A write failure (a full disk) is kept in ``failure``, later
/// lines are skipped, and ``commit()`` throws it. App and device events have
/// `"controller":""`.
package final class TraceJSONLinesWriter {
    /// The destination, as given.
    package let path: String
    /// The output the lines go to.
    package let file: OutputFile
    /// Lines written so far.
    package private(set) var lineCount = 0

    /// Opens the output (a temporary next to `path`, or `path` itself when it is a device
    /// or a FIFO). Throws `.cannotWrite(path:reason:)`.
    package init(path: String) throws(HarnessError) {
        self.path = path
        file = try OutputFile(path: path)
    }

    /// Attaches to a recorder: every event it records from now on is written.
    package func attach(to recorder: TraceRecorder) {
        recorder.sink = { [unowned self] event in self.write(event) }
    }

    /// The JSON line for one event (without the newline).
    package static func line(for event: TraceEvent) -> String {
        "{\"step\":\(event.step),\"app\":\(JSONText.quoted(event.app)),"
            + "\"controller\":\(JSONText.quoted(event.controller?.description ?? "")),"
            + "\"event\":\(JSONText.quoted(event.kind.rawValue))}"
    }

    /// Writes one event (nothing after a failure; see ``failure``).
    package func write(_ event: TraceEvent) {
        guard file.failure == nil else { return }
        file.write(TraceJSONLinesWriter.line(for: event) + "\n")
        if file.failure == nil { lineCount += 1 }
    }

    /// Finishes the trace and moves it into place; throws the first write failure (and
    /// then leaves nothing behind).
    package func commit() throws(HarnessError) {
        try file.commit()
    }

    /// Abandons the trace: the temporary is removed, the destination left as it was.
    package func discard() {
        file.discard()
    }

    /// Finishes the trace like ``commit()``, without reporting a failure (it stays in
    /// ``failure``). Prefer ``commit()``.
    package func close() {
        try? commit()
    }
}
