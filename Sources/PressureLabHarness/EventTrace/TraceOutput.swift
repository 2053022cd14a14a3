import PressureLab

/// Where a run's trace goes: JSON lines (``TraceJSONLinesWriter``) or Chrome's Trace Event
/// Format (``ChromeTraceWriter``). Both stream into an ``OutputFile``, put in place only
/// when the command succeeds.
public protocol TraceOutput: AnyObject {
    /// The destination, as given.
    var path: String { get }
    /// The output the trace streams to.
    var file: OutputFile { get }
    /// Events written so far.
    var lineCount: Int { get }
    /// Writes one event.
    func write(_ event: TraceEvent)
    /// A run begins (scenario, policy, repeat): later events belong to it.
    func beginRun(_ label: String)
    /// Whether it takes each app's measured bytes at the end of every step (a memory track):
    /// a pass over the apps every step, made only for a format that has them.
    var samplesMemory: Bool { get }
    /// An app's measured bytes at the end of a step (a memory track), now.
    func sampleMemory(app: String, bytes: Int)
    /// Writes what closes the trace (nothing more may be written), without moving it into
    /// place: for an ``OutputBatch`` that commits the file with others.
    func finish()
    /// Finishes the trace and moves it into place; throws the first write failure.
    func commit() throws(HarnessError)
    /// Abandons the trace: nothing is left behind.
    func discard()
}

extension TraceOutput {
    /// The first write failure, if any.
    public var failure: HarnessError? { file.failure }
}

/// The trace formats `--trace-format` accepts.
public enum TraceFormat: String, CaseIterable, Sendable {
    /// One JSON object a line: `{"step":3,"app":"photos","controller":"detail#2","event":"viewDidLoad"}`.
    case jsonl
    /// Chrome's Trace Event Format (JSON): opens in Perfetto's UI and `chrome://tracing`.
    case chrome

    /// Opens a writer of this format at `path`.
    public func open(_ path: String) throws(HarnessError) -> any TraceOutput {
        switch self {
        case .jsonl: return try TraceJSONLinesWriter(path: path)
        case .chrome: return try ChromeTraceWriter(path: path)
        }
    }
}

extension TraceJSONLinesWriter: TraceOutput {
    /// JSON lines carry no run boundary (each line has its step).
    public func beginRun(_ label: String) {}
    /// JSON lines carry no memory samples (the results' timeline has them).
    public var samplesMemory: Bool { false }
    public func sampleMemory(app: String, bytes: Int) {}
    /// JSON lines need no closing.
    public func finish() {}
}
