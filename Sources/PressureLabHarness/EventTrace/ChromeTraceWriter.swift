import Foundation
import PressureLab
import PressureLabHeap

/// Writes a trace in Chrome's Trace Event Format (the JSON object form), which Perfetto's UI
/// and `chrome://tracing` open:
///
/// - a process per app and run (`process_name`: `scenario / policy #repeat: app`), with two
///   threads: `app` (delegate calls and state changes) and `controllers` (their callbacks);
/// - callbacks and state changes as instant events (`ph: "i"`);
/// - launches (from `launchBegan` to `launchEnded`) and view loads (`loadView` to
///   `viewDidLoad`) as duration events (`ph: "B"` and `"E"`, balanced per thread: what is
///   left open when a run ends is closed then);
/// - each app's measured bytes as a counter track (`ph: "C"`, `memory`), one sample a step.
///
/// Timestamps are host time (measured here, microseconds since the trace began), never
/// device time. Events stream to the file as they happen; the closing bracket is written by
/// ``commit()``.
package final class ChromeTraceWriter: TraceFile {
    package let path: String
    package let file: OutputFile
    package private(set) var lineCount = 0

    private var origin: UInt64?
    private var run = 0
    private var runLabel = "run"
    private var processes: [String: Int] = [:]
    private var nextProcess = 1
    /// Open durations per (process, thread): names, innermost last, and the last time written.
    private var open: [Track: [String]] = [:]
    private var lastTime: [Track: Double] = [:]
    private var first = true
    private var finished = false

    private struct Track: Hashable {
        var process: Int
        var thread: Int
    }

    private static let appThread = 1
    private static let controllerThread = 2

    /// Opens the output and writes the opening of the JSON object.
    package init(path: String) throws(HarnessError) {
        self.path = path
        file = try OutputFile(path: path)
        file.write("{\"displayTimeUnit\":\"ms\",\"otherData\":{\"tool\":\"pressurelab\",\"clock\":\"host time, measured\"},"
            + "\"traceEvents\":[\n")
    }

    package func beginRun(_ label: String) {
        closeAllOpen()
        run += 1
        runLabel = label
        processes = [:]
    }

    package func write(_ event: TraceEvent) {
        guard file.failure == nil else { return }
        let time = microseconds(event.hostNanoseconds)
        let process = self.process(for: event.app.isEmpty ? "device" : event.app)
        let controller = event.controller?.description
        let thread = controller == nil ? Self.appThread : Self.controllerThread
        let track = Track(process: process, thread: thread)
        let args = "{\"step\":\(event.step)\(controller.map { ",\"controller\":\(JSONText.quoted($0))" } ?? "")}"
        switch event.kind {
        case .launchBegan:
            begin("launch", on: track, at: time, args: args)
        case .launchEnded:
            end("launch", on: track, at: time)
        case .loadView:
            begin("loadView \(controller ?? "")", on: track, at: time, args: args)
        case .viewDidLoad where open[track]?.contains("loadView \(controller ?? "")") == true:
            end("loadView \(controller ?? "")", on: track, at: time)
        default:
            emit("{\"ph\":\"i\",\"s\":\"t\",\"name\":\(JSONText.quoted(event.kind.rawValue)),\"cat\":\"lifecycle\","
                + "\"pid\":\(process),\"tid\":\(thread),\"ts\":\(format(time)),\"args\":\(args)}", track: track, time: time)
        }
    }

    /// Each app's bytes are a counter track.
    package var samplesMemory: Bool { true }

    package func sampleMemory(app: String, bytes: Int) {
        guard file.failure == nil else { return }
        let time = microseconds(MonotonicClock.now())
        let process = self.process(for: app)
        emit("{\"ph\":\"C\",\"name\":\"memory\",\"pid\":\(process),\"tid\":0,\"ts\":\(format(time)),\"args\":{\"bytes\":\(bytes)}}",
             track: Track(process: process, thread: 0), time: time)
    }

    package func finish() {
        guard !finished else { return }
        closeAllOpen()
        file.write("\n]}\n")
        finished = true
    }

    package func commit() throws(HarnessError) {
        finish()
        try file.commit()
    }

    package func discard() {
        file.discard()
    }

    // MARK: - Writing

    private func process(for app: String) -> Int {
        if let known = processes[app] { return known }
        let process = nextProcess
        nextProcess += 1
        processes[app] = process
        let name = "\(runLabel): \(app)"
        emitMetadata("process_name", process: process, thread: 0, value: name)
        emitMetadata("process_sort_index", process: process, thread: 0, value: nil, index: process)
        emitMetadata("thread_name", process: process, thread: Self.appThread, value: "app")
        emitMetadata("thread_name", process: process, thread: Self.controllerThread, value: "controllers")
        return process
    }

    private func begin(_ name: String, on track: Track, at time: Double, args: String) {
        open[track, default: []].append(name)
        emit("{\"ph\":\"B\",\"name\":\(JSONText.quoted(name)),\"cat\":\"duration\",\"pid\":\(track.process),"
            + "\"tid\":\(track.thread),\"ts\":\(format(time)),\"args\":\(args)}", track: track, time: time)
    }

    /// Ends `name` on `track`, and first whatever was opened inside it and is still open.
    private func end(_ name: String, on track: Track, at time: Double) {
        guard let stack = open[track], stack.contains(name) else { return }
        while let top = open[track]?.popLast() {
            emit("{\"ph\":\"E\",\"name\":\(JSONText.quoted(top)),\"pid\":\(track.process),\"tid\":\(track.thread),"
                + "\"ts\":\(format(time))}", track: track, time: time)
            if top == name { break }
        }
    }

    private func closeAllOpen() {
        for track in open.keys.sorted(by: { ($0.process, $0.thread) < ($1.process, $1.thread) }) {
            while let top = open[track]?.popLast() {
                let time = lastTime[track] ?? 0
                emit("{\"ph\":\"E\",\"name\":\(JSONText.quoted(top)),\"pid\":\(track.process),\"tid\":\(track.thread),"
                    + "\"ts\":\(format(time))}", track: track, time: time)
            }
        }
        open = [:]
    }

    private func emitMetadata(_ name: String, process: Int, thread: Int, value: String?, index: Int? = nil) {
        let args = value.map { "{\"name\":\(JSONText.quoted($0))}" } ?? "{\"sort_index\":\(index ?? 0)}"
        emit("{\"ph\":\"M\",\"name\":\"\(name)\",\"pid\":\(process),\"tid\":\(thread),\"args\":\(args)}", track: nil, time: nil)
    }

    private func emit(_ json: String, track: Track?, time: Double?) {
        guard file.failure == nil, !finished else { return }
        file.write((first ? "" : ",\n") + json)
        first = false
        if let track, let time {
            // Per track, time never goes back (host time is monotonic; this only guards).
            lastTime[track] = max(lastTime[track] ?? 0, time)
        }
        if file.failure == nil { lineCount += 1 }
    }

    private func microseconds(_ nanoseconds: UInt64) -> Double {
        let origin = self.origin ?? nanoseconds
        self.origin = origin
        return Double(nanoseconds &- origin) / 1000
    }

    private func format(_ microseconds: Double) -> String {
        String(format: "%.3f", microseconds)
    }
}
