import PressureLab

/// Where a run's events go as they happen (``Simulation``, ``RunPlan/execute(trace:cellStarted:stepProgress:)``):
/// every lifecycle callback and state change, a mark where a run begins, and each app's
/// measured bytes every step when it wants them. The trace files the command line writes
/// (JSON lines, Chrome's format) are outputs of this kind; a test or a tool of yours can
/// write its own.
public protocol TraceOutput: AnyObject {
    /// Writes one event.
    func write(_ event: TraceEvent)
    /// A run begins (scenario, policy, repeat): later events belong to it.
    func beginRun(_ label: String)
    /// Whether it takes each app's measured bytes at the end of every step (a memory track):
    /// a pass over the apps every step, made only for an output that wants them.
    var samplesMemory: Bool { get }
    /// An app's measured bytes at the end of a step (a memory track), now.
    func sampleMemory(app: String, bytes: Int)
    /// The first failure to write, if any: a run stops at it.
    var failure: HarnessError? { get }
}

extension TraceOutput {
    /// No memory track by default.
    public var samplesMemory: Bool { false }
    public func sampleMemory(app: String, bytes: Int) {}
    /// Nothing can fail by default.
    public var failure: HarnessError? { nil }
}

/// A trace written to a file (``TraceJSONLinesWriter``, ``ChromeTraceWriter``): it streams
/// into an ``OutputFile``, put in place only when the command succeeds.
package protocol TraceFile: TraceOutput {
    /// The destination, as given.
    var path: String { get }
    /// The output the trace streams to.
    var file: OutputFile { get }
    /// Events written so far.
    var lineCount: Int { get }
    /// Writes what closes the trace (nothing more may be written), without moving it into
    /// place: for an ``OutputBatch`` that commits the file with others.
    func finish()
    /// Finishes the trace and moves it into place; throws the first write failure.
    func commit() throws(HarnessError)
    /// Abandons the trace: nothing is left behind.
    func discard()
}

extension TraceFile {
    /// The first write failure, if any.
    package var failure: HarnessError? { file.failure }
}

/// The trace formats `--trace-format` accepts.
public enum TraceFormat: String, CaseIterable, Sendable {
    /// One JSON object a line: `{"step":3,"app":"photos","controller":"detail#2","event":"viewDidLoad"}`.
    case jsonl
    /// Chrome's Trace Event Format (JSON): opens in Perfetto's UI and `chrome://tracing`.
    case chrome

    /// Opens a writer of this format at `path`.
    package func open(_ path: String) throws(HarnessError) -> any TraceFile {
        switch self {
        case .jsonl: return try TraceJSONLinesWriter(path: path)
        case .chrome: return try ChromeTraceWriter(path: path)
        }
    }
}

extension TraceJSONLinesWriter: TraceFile {
    /// JSON lines carry no run boundary (each line has its step).
    package func beginRun(_ label: String) {}
    /// JSON lines need no closing.
    package func finish() {}
}
