#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PressureLab

/// Writes a trace as JSON lines, one event a line, as each event happens:
///
/// ```
/// {"step":3,"app":"photos","controller":"detail#2","event":"viewDidLoad"}
/// ```
///
/// Each line goes to the file in one `write(2)`, so a crash or a kill of the process
/// loses no event that was recorded. App and device events have `"controller":""`.
public final class TraceJSONLinesWriter {
    /// The file being written.
    public let path: String
    private var descriptor: Int32
    /// Lines written so far.
    public private(set) var lineCount = 0

    /// Creates (or truncates) the file.
    public init(path: String) throws(HarnessError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: HarnessError.systemMessage(errno)) }
    }

    deinit {
        if descriptor >= 0 { _ = systemClose(descriptor) }
    }

    /// Attaches to a recorder: every event it records from now on is written.
    public func attach(to recorder: TraceRecorder) {
        recorder.sink = { [unowned self] event in self.write(event) }
    }

    /// The JSON line for one event (without the newline).
    public static func line(for event: TraceEvent) -> String {
        "{\"step\":\(event.step),\"app\":\(JSONText.quoted(event.app)),"
            + "\"controller\":\(JSONText.quoted(event.controller?.description ?? "")),"
            + "\"event\":\(JSONText.quoted(event.kind.rawValue))}"
    }

    /// Writes one event.
    public func write(_ event: TraceEvent) {
        var text = TraceJSONLinesWriter.line(for: event)
        text += "\n"
        text.withUTF8 { bytes in
            var done = 0
            while done < bytes.count {
                let wrote = systemWrite(descriptor, bytes.baseAddress! + done, bytes.count - done)
                if wrote < 0 {
                    if errno == EINTR { continue }
                    return
                }
                done += wrote
            }
        }
        lineCount += 1
    }

    /// Closes the file.
    public func close() {
        if descriptor >= 0 {
            _ = systemClose(descriptor)
            descriptor = -1
        }
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
private let systemClose = Glibc.close
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
private let systemClose = Darwin.close
#endif
