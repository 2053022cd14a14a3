import Foundation
import PressureLabHeap
import SystemPackage

/// An app-usage log in the format of the LSApp dataset (Aliannejadi et al., "Context-aware
/// target apps selection and recommendation for enhancing personal mobile assistants", ACM
/// TOIS 2021; github.com/aliannejadi/LSApp): a tab-separated file whose first line is the header
///
///     user_id	session_id	timestamp	app_name	event_type
///
/// and every other line one event, e.g. `3	42	2018-01-16 06:01:05	Chrome	Opened`.
///
/// - Users are whole numbers (`03` and `3` are one user), listed in ``users`` in numeric order.
/// - Timestamps are `YYYY-MM-DD HH:MM:SS`, a wall clock without a zone; only differences matter.
/// - Events keep file order per user, not sorted by time: a timestamp that goes backwards is
///   not an error (``TraceReplay`` turns a negative gap into no idle at all).
/// - Blank lines are skipped; a line ending in CR LF is read as one ending in LF.
/// - Any other problem stops the read with a ``TraceError`` naming the file and line.
package struct LSAppTrace: Sendable {
    /// The header line the file must start with (the columns, separated by tabs).
    package static let header = ["user_id", "session_id", "timestamp", "app_name", "event_type"]

    /// What happened to an app (the dataset's `event_type`).
    package enum EventType: String, CaseIterable, Sendable {
        case opened = "Opened"
        case closed = "Closed"
        case userInteraction = "User Interaction"
        case broken = "Broken"
    }

    /// One line of the trace.
    package struct Event: Sendable, Equatable {
        /// The user, in canonical form (a whole number without leading zeros).
        package var user: String
        package var session: String
        /// Seconds since 1970-01-01 00:00:00, the wall clock read as if it were UTC.
        package var timestamp: Int
        package var app: String
        package var type: EventType

        package init(user: String, session: String, timestamp: Int, app: String, type: EventType) {
            self.user = user
            self.session = session
            self.timestamp = timestamp
            self.app = app
            self.type = type
        }
    }

    /// One use of an app: a run of consecutive events of that app by one user (the dataset's
    /// authors count the same app repeated in a row as one use), whatever their types.
    package struct AppUse: Sendable, Equatable {
        /// The app's name as the trace writes it.
        package var app: String
        /// The first event's timestamp (seconds, as ``Event/timestamp``).
        package var start: Int
        /// The latest timestamp among its events (never before `start`).
        package var end: Int
        /// How many events were merged into it.
        package var events: Int

        package init(app: String, start: Int, end: Int, events: Int = 1) {
            self.app = app
            self.start = start
            self.end = end
            self.events = events
        }
    }

    /// The file the trace was read from.
    package let path: String
    /// The users who have events, in numeric order.
    package let users: [String]
    /// Events by user, compact (names interned): a trace takes about 24 bytes an event.
    let eventsByUser: [String: [StoredEvent]]
    let apps: [String], sessions: [String]

    /// An event as kept: the app and session as indices into the trace's name tables.
    struct StoredEvent {
        var timestamp: Int
        var app: Int32
        var session: Int32
        var type: EventType
    }

    /// The largest trace file read (LSApp's whole dataset is about 40 MB).
    package static let maximumFileBytes = 512 << 20
    /// The shortest line that is an event (a 1-digit user, no session, a 1-byte app name, a
    /// 6-byte event type, 4 tabs and the newline): a file of N bytes has at most N / 31 events.
    static let minimumEventLineBytes = 31
    /// What an event can take in memory while the trace is read: its stored form, twice for
    /// the arrays' growth, and two new names (app, session) in the name tables, each a string
    /// and a dictionary entry (about 96 bytes, an estimate) besides its text. The host check
    /// multiplies the most events a file can hold by it and adds the file's size (the names'
    /// text at most).
    static let bytesPerEventRead = 2 * MemoryLayout<StoredEvent>.stride + 2 * 96

    /// Reads the trace at `path`, streaming: a regular file of at most ``maximumFileBytes``
    /// whose events, at the most the file can hold, fit `hostLimitBytes`. The file is read a
    /// chunk at a time, never held whole.
    package static func parse(path: String, hostLimitBytes: Int = .max) throws(TraceError) -> LSAppTrace {
        let file: SequentialFile, size: Int
        do {
            (file, size) = try InputFile.open(FilePath(path), maximumBytes: maximumFileBytes)
        } catch {
            switch error {
            case .notRegular: throw TraceError(path: path, line: 0, reason: "not a regular file")
            case .tooLarge(let bytes, _):
                throw TraceError(path: path, line: 0,
                                 reason: "the trace is \(bytes) bytes, more than the \(maximumFileBytes) bytes a trace may have")
            case .unreadable(let failure): throw TraceError(path: path, line: 0, reason: "cannot read the trace: \(failure.reason)")
            }
        }
        defer { file.close() }
        let mostEvents = size / minimumEventLineBytes + 1
        guard mostEvents.multipliedSaturating(by: bytesPerEventRead).addingSaturating(size) <= hostLimitBytes else {
            throw TraceError(path: path, line: 0, reason: "the trace's \(size) bytes can hold \(mostEvents) events, which take "
                + "more than the \(hostLimitBytes) bytes this host allows a simulation")
        }
        var reader = Reader(path: path)
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var read = 0
        while true {
            var failure: FileError?
            let got = chunk.withUnsafeMutableBytes { buffer in
                do throws(FileError) { return try file.readSome(into: buffer) } catch {
                    failure = error
                    return 0
                }
            }
            if let failure { throw TraceError(path: path, line: 0, reason: "cannot read the trace: \(failure.reason)") }
            read += got
            // A file that grows while it is read stops at the limit.
            guard read <= maximumFileBytes else {
                throw TraceError(path: path, line: 0, reason: "the trace grew past the \(maximumFileBytes) bytes a trace may have")
            }
            if got == 0 { break }
            try reader.feed(chunk[..<got])
        }
        return try reader.finish()
    }

    /// Parses trace text; `path` names it in errors.
    package static func parse(_ text: String, path: String) throws(TraceError) -> LSAppTrace {
        var reader = Reader(path: path)
        try reader.feed(Array(text.utf8)[...])
        return try reader.finish()
    }
}

/// Why a trace could not be read: `FILE:LINE: reason` (`FILE: reason` for the whole file).
package struct TraceError: Error, Equatable, Sendable, CustomStringConvertible {
    package var path: String
    /// The line, from 1; 0 when the problem is the whole file (missing, not text).
    package var line: Int
    package var reason: String

    package init(path: String, line: Int, reason: String) {
        self.path = path
        self.line = line
        self.reason = reason
    }

    package var description: String { line > 0 ? "\(path):\(line): \(reason)" : "\(path): \(reason)" }
}
