import Foundation

/// The JSON layout: `JetsamEvent-*.ips` of iOS 10 and later, every variant of its fields
/// (docs/importing.md, "Jetsam event reports").
extension JetsamReport {
    /// Reads the JSON layout starting at line `first` (0-based): a header object on one line
    /// with `bug_type`, then the report object; or the report object alone with its own
    /// `bug_type`.
    static func readJSON(_ dump: DumpText, from first: Int) throws(ImportError) -> JetsamReport {
        let path = dump.path
        var bodyStart = first
        var bugType: String?
        // A header line is an object of its own without "processes" (a report written on one
        // line, without its header, is the report).
        if let header = object(dump.lines[first]), header["processes"] == nil {
            bugType = string(header["bug_type"])
            bodyStart = first + 1
            if let type = bugType, type != "298" {
                throw ImportError(path: path, line: first + 1, "bug_type \(type) (\(kind(ofBugType: type))), expected 298: "
                    + "a jetsam event report (JetsamEvent-*.ips)")
            }
        }
        let bodyLines = dump.lines[bodyStart...]
        let body = bodyLines.joined(separator: "\n")
        if let stop = JSONShape.truncation(of: body) {
            let line = bodyStart + stop.line
            throw ImportError(path: path, line: line, "the report is truncated: it stops at line \(line), column \(stop.column), "
                + "inside \(stop.open) (expected the rest of the report object and its closing '}')")
        }
        guard let report = object(body) else {
            throw ImportError(path: path, line: bodyStart + 1, "expected the report: one JSON object after the header line "
                + "(\"processes\", \"memoryStatus\", \"largestProcess\", ...); it does not parse as JSON")
        }
        if bugType == nil { bugType = string(report["bug_type"]) }
        guard let type = bugType else {
            throw ImportError(path: path, line: first + 1, "no bug_type: expected a header line {\"bug_type\":\"298\", ...} "
                + "(a jetsam event report)")
        }
        guard type == "298" else {
            throw ImportError(path: path, line: first + 1, "bug_type \(type) (\(kind(ofBugType: type))), expected 298: "
                + "a jetsam event report (JetsamEvent-*.ips)")
        }
        let status = report["memoryStatus"] as? [String: Any] ?? [:]
        // pageSize: at the top (iOS 10 and 11) or in memoryStatus (iOS 12 and later).
        guard let pageSize = int(report["pageSize"]) ?? int(status["pageSize"]), [4096, 16384].contains(pageSize) else {
            throw ImportError(path: path, line: line(of: "\"pageSize\"", in: dump, from: bodyStart),
                              "expected \"pageSize\" (4096 or 16384 bytes, at the top or in \"memoryStatus\")")
        }
        let pagesObject = status["memoryPages"] as? [String: Any] ?? report["memoryPages"] as? [String: Any] ?? [:]
        var memoryPages: [String: Int] = [:]
        for (key, value) in pagesObject { if let count = int(value), count >= 0 { memoryPages[key] = count } }
        guard let entries = report["processes"] as? [Any], !entries.isEmpty else {
            throw ImportError(path: path, line: line(of: "\"processes\"", in: dump, from: bodyStart),
                              "expected \"processes\": an array of the processes on the device, each with \"rpages\"")
        }
        var processes: [Process] = []
        // Each entry's line: the next line opening an object after the previous entry's
        // (every entry starts with '{' on a line of its own in a report as written).
        let processesLine = line(of: "\"processes\"", in: dump, from: bodyStart) - 1
        var searchFrom = processesLine
        for (index, entry) in entries.enumerated() {
            let start = min(searchFrom + (index == 0 ? 0 : 1), dump.lines.count)
            let opening = dump.lines[start...].firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix("{") }
            let at = (opening ?? processesLine) + 1
            searchFrom = max(searchFrom, at - 1)
            guard let fields = entry as? [String: Any] else {
                throw ImportError(path: path, line: at, "process \(index + 1): expected an object with \"name\" and \"rpages\"")
            }
            guard let pages = int(fields["rpages"]), pages >= 0, pages <= Int.max / pageSize else {
                throw ImportError(path: path, line: at, "process \(index + 1) (\(string(fields["name"]) ?? "no name")): expected "
                    + "\"rpages\", its resident pages, a whole number from 0 to \(Int.max / pageSize)")
            }
            // states: an array (iOS 11 and later) or one string "state" (iOS 10's).
            let states = (fields["states"] as? [Any])?.compactMap { $0 as? String } ?? string(fields["state"]).map { [$0] } ?? []
            let name = string(fields["name"]) ?? int(fields["pid"]).map { "pid \($0)" } ?? "process \(index + 1)"
            processes.append(Process(name: name, residentPages: pages, states: states, killReason: string(fields["reason"]), line: at))
        }
        return JetsamReport(layout: .json, pageSize: pageSize, product: string(report["product"]), build: string(report["build"]),
                            date: string(report["date"]), largestProcess: string(report["largestProcess"]),
                            memoryPages: memoryPages, compressorPages: int(status["compressorSize"]), processes: processes)
    }

    /// What kind of report a `bug_type` is, for messages.
    static func kind(ofBugType type: String) -> String {
        switch type {
        case "109", "309": return "a crash report"
        case "210": return "a kernel panic"
        case "211": return "an analytics log"
        case "288": return "a stackshot"
        case "385", "313": return "a diagnostic log"
        default: return "another kind of report"
        }
    }

    static func object(_ text: String) -> [String: Any]? {
        guard let data = text.data(using: .utf8) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data, options: [])) as? [String: Any]
    }

    static func string(_ value: Any?) -> String? {
        if let text = value as? String { return text }
        if let number = value as? NSNumber, !(value is Bool) { return number.stringValue }
        return nil
    }

    static func int(_ value: Any?) -> Int? {
        if let number = value as? NSNumber {
            let double = number.doubleValue
            guard double.isFinite, double == double.rounded(), abs(double) < 9e15 else { return nil }
            return Int(double)
        }
        if let text = value as? String { return Int(text) }
        return nil
    }

    /// The 1-based line of the first line at or after `from` (0-based) containing `needle`
    /// (the start of the body when none does).
    static func line(of needle: String, in dump: DumpText, from: Int) -> Int {
        let start = min(max(0, from), dump.lines.count)
        return (dump.lines[start...].firstIndex { $0.contains(needle) } ?? start) + 1
    }
}

/// Where JSON text stops when it is cut short: the brackets and string still open at its end.
enum JSONShape {
    /// Where a truncated text stops (1-based line and column of its last character) and what
    /// is still open there; nil when every bracket and string closes.
    static func truncation(of text: String) -> (line: Int, column: Int, open: String)? {
        var stack: [UInt8] = []
        var inString = false, escaped = false
        var line = 1, column = 0
        var sawAny = false
        for byte in text.utf8 {
            if byte == 0x0A { line += 1; column = 0 } else { column += 1 }
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                continue
            }
            switch byte {
            case 0x22: inString = true
            case 0x7B, 0x5B: stack.append(byte); sawAny = true
            case 0x7D, 0x5D: if !stack.isEmpty { stack.removeLast() }
            default: break
            }
        }
        guard sawAny, inString || !stack.isEmpty else { return nil }
        let objects = stack.filter { $0 == 0x7B }.count, arrays = stack.count - objects
        var open: [String] = []
        if inString { open.append("a string") }
        if objects > 0 { open.append("\(objects) object\(objects == 1 ? "" : "s")") }
        if arrays > 0 { open.append("\(arrays) array\(arrays == 1 ? "" : "s")") }
        return (line, max(1, column), open.joined(separator: " and ") + " not closed")
    }
}
