import Foundation
import PressureLabHarness
import Testing

/// The LSApp trace reader: events, users, merged uses and located errors.
@Suite("Traces: the LSApp format")
struct LSAppTraceTests {
    static let traces = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/traces").path
    static let small = "\(traces)/lsapp-small.tsv"

    /// The error of reading `path`, or nil if it reads.
    static func failure(_ read: () throws(TraceError) -> LSAppTrace) -> TraceError? {
        do {
            _ = try read()
            return nil
        } catch {
            return error
        }
    }

    @Test("events read into their types, users in numeric order and canonical form")
    func parses() throws {
        let trace = try LSAppTrace.parse(path: Self.small)
        #expect(trace.path == Self.small)
        #expect(trace.users == ["1", "2", "3"])
        #expect(try LSAppTrace.users(inTraceAt: Self.small) == ["1", "2", "3"])
        let events = trace.events(of: "1")
        #expect(events.count == 10)
        #expect(events.first == LSAppTrace.Event(user: "1", session: "10", timestamp: 1_516_082_465, app: "Chrome", type: .opened))
        #expect(events.map(\.type) == [.opened, .userInteraction, .closed, .opened, .closed, .opened, .opened, .opened,
                                       .opened, .broken])
        #expect(trace.events(of: "2") == [.init(user: "2", session: "30", timestamp: 1_516_233_600, app: "Chrome", type: .opened)])
        #expect(trace.events(of: "002") == trace.events(of: "2"))
        #expect(trace.events(of: "9").isEmpty && trace.events(of: "x").isEmpty)
    }

    @Test("consecutive events of one app are one use; file order is kept, not sorted by time")
    func mergesUses() throws {
        let trace = try LSAppTrace.parse(path: Self.small)
        #expect(trace.uses(of: "1") == [
            .init(app: "Chrome", start: 1_516_082_465, end: 1_516_082_520, events: 3),
            .init(app: "WhatsApp", start: 1_516_082_550, end: 1_516_082_700, events: 2),
            .init(app: "Instagram", start: 1_516_083_000, end: 1_516_083_000),
            .init(app: "Facebook", start: 1_516_083_040, end: 1_516_083_040),
            .init(app: "Chrome", start: 1_516_095_000, end: 1_516_095_000),
            .init(app: "WhatsApp", start: 1_516_094_990, end: 1_516_094_990),
            .init(app: "Chrome", start: 1_516_095_060, end: 1_516_095_060),
        ])
        // User 3's events are interleaved with user 1's in the file: still one use.
        #expect(trace.uses(of: "3") == [.init(app: "Gmail", start: 1_516_183_200, end: 1_516_183_230, events: 2)])
        #expect(trace.uses(of: "9").isEmpty)
    }

    @Test("a use ends at its latest event even when a timestamp goes backwards")
    func backwardsWithinAUse() throws {
        let text = "user_id\tsession_id\ttimestamp\tapp_name\tevent_type\n"
            + "5\t1\t2018-01-16 06:00:10\tMaps\tOpened\n5\t1\t2018-01-16 06:00:00\tMaps\tClosed\n"
        let trace = try LSAppTrace.parse(text, path: "t.tsv")
        #expect(trace.uses(of: "5") == [.init(app: "Maps", start: 1_516_082_410, end: 1_516_082_410, events: 2)])
    }

    @Test("malformed files: FILE:LINE: reason, exactly", arguments: [
        ("lsapp-bad-columns.tsv",
         "3: expected 5 tab-separated columns (user_id, session_id, timestamp, app_name, event_type), found 4"),
        ("lsapp-bad-timestamp.tsv", "4: timestamp '2018-02-30 06:01:20' is not a date and time of the form YYYY-MM-DD HH:MM:SS"),
        ("lsapp-bad-event.tsv", "3: unknown event type 'Minimised'; valid types are Opened, Closed, User Interaction, Broken"),
        ("lsapp-bad-user.tsv", "2: user id 'u7' is not a whole number"),
    ])
    func malformedFiles(file: String, located: String) {
        let path = "\(Self.traces)/\(file)"
        let error = Self.failure { () throws(TraceError) in try LSAppTrace.parse(path: path) }
        #expect(error?.description == "\(path):\(located)")
        #expect(error?.line == Int(located.prefix { $0 != ":" }))
    }

    @Test("malformed text: FILE:LINE: reason, exactly", arguments: [
        ("", "t.tsv:1: the trace is empty; expected the header line user_id, session_id, timestamp, app_name, event_type (separated by tabs)"),
        ("1\t10\t2018-01-16 06:01:05\tChrome\tOpened\n",
         "t.tsv:1: expected the header line user_id, session_id, timestamp, app_name, event_type (separated by tabs)"),
        ("user_id\tsession_id\ttimestamp\tapp_name\tevent_type\n\n1\t10\t2018-01-16 06:01:05\t\tOpened\n",
         "t.tsv:3: the app name is empty"),
        ("user_id\tsession_id\ttimestamp\tapp_name\tevent_type\n-1\t10\t2018-01-16 06:01:05\tChrome\tOpened\n",
         "t.tsv:2: user id '-1' is not a whole number"),
        ("user_id\tsession_id\ttimestamp\tapp_name\tevent_type\n1\t10\t2018-01-16T06:01:05\tChrome\tOpened\n",
         "t.tsv:2: timestamp '2018-01-16T06:01:05' is not a date and time of the form YYYY-MM-DD HH:MM:SS"),
        ("user_id\tsession_id\ttimestamp\tapp_name\tevent_type\n1\t10\t2018-01-16 06:01:05\tChrome\topened\n",
         "t.tsv:2: unknown event type 'opened'; valid types are Opened, Closed, User Interaction, Broken"),
    ])
    func malformedText(text: String, message: String) {
        let error = Self.failure { () throws(TraceError) in try LSAppTrace.parse(text, path: "t.tsv") }
        #expect(error?.description == message)
    }

    @Test("a missing file or a folder names the file, no line")
    func missingFile() {
        let path = "\(Self.traces)/no-such-trace.tsv"
        let error = Self.failure { () throws(TraceError) in try LSAppTrace.parse(path: path) }
        #expect(error == TraceError(path: path, line: 0, reason: "cannot read the trace: No such file or directory"))
        #expect(error?.description == "\(path): cannot read the trace: No such file or directory")
        let folder = Self.failure { () throws(TraceError) in try LSAppTrace.parse(path: Self.traces) }
        #expect(folder?.description == "\(Self.traces): not a regular file")
    }

    @Test("timestamps: calendar dates only, seconds since 1970 read as UTC", arguments: [
        ("1970-01-01 00:00:00", 0), ("2018-01-16 06:01:05", 1_516_082_465), ("2000-02-29 23:59:59", 951_868_799),
        ("1900-02-29 00:00:00", nil), ("2018-13-01 00:00:00", nil), ("2018-01-16 24:00:00", nil),
        ("2018-01-16 06:60:00", nil), ("2018-1-16 06:01:05", nil), ("2018-01-16 06:01:05.5", nil), ("", nil),
    ] as [(String, Int?)])
    func timestamps(text: String, seconds: Int?) {
        let line = "user_id\tsession_id\ttimestamp\tapp_name\tevent_type\n7\t1\t\(text)\tMaps\tOpened\n"
        let trace = try? LSAppTrace.parse(line, path: "t.tsv")
        #expect(trace?.events(of: "7").first?.timestamp == seconds)
        #expect((trace == nil) == (seconds == nil))
    }
}
