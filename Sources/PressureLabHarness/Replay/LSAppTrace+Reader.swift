import Foundation
import PressureLabHeap
import SystemPackage

extension LSAppTrace {
    /// Reads a trace a chunk at a time: whole lines are parsed as they arrive, a partial one
    /// waits for the rest.
    package struct Reader {
        let path: String
        var pending: [UInt8] = []
        var lineNumber = 0
        var sawHeader = false
        var sawText = false
        var events: [String: [StoredEvent]] = [:]
        var appIndex: [String: Int32] = [:], sessionIndex: [String: Int32] = [:]
        var apps: [String] = [], sessions: [String] = []

        package init(path: String) { self.path = path }

        package mutating func feed(_ bytes: ArraySlice<UInt8>) throws(TraceError) {
            var start = bytes.startIndex
            while let newline = bytes[start...].firstIndex(of: 0x0A) {
                if pending.isEmpty {
                    try line(bytes[start..<newline])
                } else {
                    pending += bytes[start..<newline]
                    let whole = pending
                    pending.removeAll(keepingCapacity: true)
                    try line(whole[...])
                }
                start = newline + 1
            }
            pending += bytes[start...]
            // A line longer than any event (a file without newlines) is refused as it grows.
            if pending.count > Self.maximumLineBytes {
                throw TraceError(path: path, line: lineNumber + 1, reason: "a line of more than \(Self.maximumLineBytes) bytes")
            }
        }

        /// The longest line read.
        static let maximumLineBytes = 1 << 16

        package mutating func finish() throws(TraceError) -> LSAppTrace {
            if !pending.isEmpty {
                let last = pending
                pending = []
                try line(last[...])
            }
            guard sawText else {
                throw TraceError(path: path, line: 1, reason: "the trace is empty; expected the header line "
                    + header.joined(separator: ", ") + " (separated by tabs)")
            }
            let users = events.keys.sorted { ($0.count, $0) < ($1.count, $1) }
            return LSAppTrace(path: path, users: users, eventsByUser: events, apps: apps, sessions: sessions)
        }

        mutating func line(_ raw: ArraySlice<UInt8>) throws(TraceError) {
            lineNumber += 1
            var line = raw.last == 0x0D ? raw.dropLast() : raw
            if lineNumber == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
            let blank = line.allSatisfy { $0 == 0x20 || $0 == 0x09 }
            if !blank { sawText = true }
            if line.contains(where: { $0 >= 0x80 }), String(validating: line, as: UTF8.self) == nil {
                throw TraceError(path: path, line: lineNumber, reason: "not UTF-8 text")
            }
            let fields = line.split(separator: 0x09, omittingEmptySubsequences: false)
            if !sawHeader {
                // The first line is the header; a file of blank lines only is empty (said at the end).
                if blank, !sawText { return }
                guard lineNumber == 1, fields.count == header.count,
                      zip(fields, Self.headerBytes).allSatisfy({ $0.elementsEqual($1) }) else {
                    throw TraceError(path: path, line: 1, reason: "expected the header line "
                        + header.joined(separator: ", ") + " (separated by tabs)")
                }
                sawHeader = true
                return
            }
            if blank { return }
            let event = try LSAppTrace.event(fields, path: path, line: lineNumber)
            events[event.user, default: []].append(StoredEvent(timestamp: event.timestamp, app: Self.intern(event.app, &appIndex, &apps),
                                                               session: Self.intern(event.session, &sessionIndex, &sessions),
                                                               type: event.type))
        }

        static func intern(_ name: String, _ index: inout [String: Int32], _ table: inout [String]) -> Int32 {
            if let known = index[name] { return known }
            let next = Int32(table.count)
            index[name] = next
            table.append(name)
            return next
        }

        static let headerBytes = header.map { Array($0.utf8) }
    }

    /// The users of the trace at `path`, in numeric order (for a sweep over users).
    package static func users(inTraceAt path: String) throws(TraceError) -> [String] {
        try parse(path: path).users
    }

    /// The user's events in file order; empty for a user the trace does not have.
    package func events(of user: String) -> [Event] {
        guard let canonical = Self.canonicalUser(user), let stored = eventsByUser[canonical] else { return [] }
        return stored.map { Event(user: canonical, session: sessions[Int($0.session)], timestamp: $0.timestamp,
                                  app: apps[Int($0.app)], type: $0.type) }
    }

    /// The user's app uses in file order, consecutive events of the same app merged into one
    /// use; empty for a user the trace does not have.
    package func uses(of user: String) -> [AppUse] {
        guard let canonical = Self.canonicalUser(user), let stored = eventsByUser[canonical] else { return [] }
        // From the stored events (apps compared by their index), never a copy of every event.
        var uses: [AppUse] = []
        var lastApp: Int32 = -1
        for event in stored {
            if event.app == lastApp, !uses.isEmpty {
                uses[uses.count - 1].end = max(uses[uses.count - 1].end, event.timestamp)
                uses[uses.count - 1].events += 1
            } else {
                uses.append(AppUse(app: apps[Int(event.app)], start: event.timestamp, end: event.timestamp))
                lastApp = event.app
            }
        }
        return uses
    }

    /// `user` without leading zeros, or nil if it is not a whole number.
    package static func canonicalUser(_ user: String) -> String? {
        guard !user.isEmpty, user.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let digits = user.drop { $0 == "0" }
        return digits.isEmpty ? "0" : String(digits)
    }

    private static func event(_ fields: [ArraySlice<UInt8>], path: String, line: Int) throws(TraceError) -> Event {
        func text(_ index: Int) -> String { String(decoding: fields[index], as: UTF8.self) }
        guard fields.count == header.count else {
            throw TraceError(path: path, line: line, reason: "expected \(header.count) tab-separated columns ("
                + header.joined(separator: ", ") + "), found \(fields.count)")
        }
        guard let user = canonicalUser(text(0)) else {
            throw TraceError(path: path, line: line, reason: "user id \(quote(text(0))) is not a whole number")
        }
        guard let timestamp = Self.seconds(fields[2]) else {
            throw TraceError(path: path, line: line, reason: "timestamp \(quote(text(2))) is not a date and time "
                + "of the form YYYY-MM-DD HH:MM:SS")
        }
        guard !fields[3].isEmpty else {
            throw TraceError(path: path, line: line, reason: "the app name is empty")
        }
        guard let type = eventTypes.first(where: { $0.bytes.elementsEqual(fields[4]) })?.type else {
            throw TraceError(path: path, line: line, reason: "unknown event type \(quote(text(4))); valid types are "
                + EventType.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return Event(user: user, session: text(1), timestamp: timestamp, app: text(3), type: type)
    }

    private static let eventTypes = EventType.allCases.map { (bytes: Array($0.rawValue.utf8), type: $0) }

    /// A value quoted for a message, shortened if long.
    static func quote(_ value: String) -> String { ScenarioReader.quote(value) }

    /// `YYYY-MM-DD HH:MM:SS` as seconds since 1970-01-01 00:00:00 (read as UTC), or nil if the
    /// text is not a valid date and time of that form.
    static func seconds(_ field: ArraySlice<UInt8>) -> Int? {
        let first = field.startIndex
        func byte(_ offset: Int) -> UInt8 { field[first + offset] }
        guard field.count == 19, byte(4) == 0x2D, byte(7) == 0x2D, byte(10) == 0x20, byte(13) == 0x3A, byte(16) == 0x3A
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in field[(first + range.lowerBound)..<(first + range.upperBound)] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19) else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(month), day >= 1, day <= monthDays[month - 1], hour < 24, minute < 60, second < 60
        else { return nil }
        // Days from 1970-01-01 to the date (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + hour * 3_600 + minute * 60 + second
    }
}
