/// The plain-text LowMemory report of iOS 9 and earlier (docs/importing.md, "Jetsam event
/// reports"): a header of `Key: value` lines, the device's page counts, `Largest process:`,
/// then a `Processes` table, one process a line, ending `**End**`.
extension JetsamReport {
    /// The page size a LowMemory report's counts are in: it does not say; 4 KiB, the page of
    /// the devices that wrote it (docs/importing.md, "Jetsam event reports").
    static let lowMemoryPageSize = 4096

    /// The page counts' labels and the names the JSON layout gives them.
    static let lowMemoryPageLabels = ["Free pages": "free", "Active pages": "active", "Inactive pages": "inactive",
                                      "Speculative pages": "speculative", "Throttled pages": "throttled",
                                      "Purgeable pages": "purgeable", "Wired pages": "wired", "File-backed pages": "fileBacked",
                                      "Anonymous pages": "anonymous"]

    /// Reads a LowMemory text report.
    static func readLowMemory(_ dump: DumpText) throws(ImportError) -> JetsamReport {
        let path = dump.path
        var fields: [String: String] = [:]
        var memoryPages: [String: Int] = [:]
        var table: Int?
        for (index, raw) in dump.lines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("Name") && line.contains("rpages") { table = index + 1; break }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = String(line[..<colon]), value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if let name = lowMemoryPageLabels[key] {
                guard let count = Int(value), count >= 0 else {
                    throw ImportError(path: path, line: index + 1, "\(key): expected a whole number of pages, found '\(value.prefix(40))'")
                }
                memoryPages[name] = count
            } else if fields[key] == nil {
                fields[key] = value
            }
        }
        guard let start = table else {
            throw ImportError(path: path, line: dump.lines.count, "the report stops at line \(dump.lines.count) before its "
                + "process table: expected a 'Name <UUID> rpages recent_max fds [reason] (state)' header, then one process a line")
        }
        guard memoryPages["free"] != nil else {
            throw ImportError(path: path, line: start, "expected 'Free pages:' and the other page counts before the process table")
        }
        var processes: [Process] = []
        var ended = false
        for index in start..<dump.lines.count {
            let line = dump.lines[index].trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("**End**") { ended = true; break }
            guard let process = lowMemoryProcess(line, line: index + 1) else {
                throw ImportError(path: path, line: index + 1, "expected a process: 'NAME <UUID> RPAGES RECENT_MAX FDS [REASON] "
                    + "(STATE) ...', found '\(line.prefix(60))'")
            }
            processes.append(process)
        }
        guard ended else {
            throw ImportError(path: path, line: dump.lines.count, "the report is truncated: it stops at line \(dump.lines.count) "
                + "without '**End**' (expected the rest of the process table, then '**End**')")
        }
        guard !processes.isEmpty else { throw ImportError(path: path, line: start, "the process table has no process") }
        return JetsamReport(layout: .lowMemory, pageSize: lowMemoryPageSize, product: fields["Hardware Model"],
                            build: fields["OS Version"], date: fields["Date"], largestProcess: fields["Largest process"],
                            memoryPages: memoryPages, compressorPages: fields["Compressor Size"].flatMap { Int($0) },
                            processes: processes)
    }

    /// One row of the process table: `NAME <UUID> RPAGES [RECENT_MAX [FDS]] [[REASON]] (STATE)...`.
    static func lowMemoryProcess(_ text: String, line: Int) -> Process? {
        guard let open = text.range(of: " <"), let close = text.range(of: ">", range: open.upperBound..<text.endIndex) else { return nil }
        let name = text[..<open.lowerBound].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return nil }
        var rest = Substring(text[close.upperBound...])
        var numbers: [Int] = []
        var reason: String?
        var states: [String] = []
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            guard let first = rest.first else { break }
            if first == "[" {
                guard let end = rest.firstIndex(of: "]") else { return nil }
                reason = String(rest[rest.index(after: rest.startIndex)..<end]).trimmingCharacters(in: .whitespaces)
                rest = rest[rest.index(after: end)...]
            } else if first == "(" {
                guard let end = rest.firstIndex(of: ")") else { return nil }
                states.append(String(rest[rest.index(after: rest.startIndex)..<end]))
                rest = rest[rest.index(after: end)...]
            } else {
                let token = rest.prefix { $0 != " " && $0 != "\t" }
                guard reason == nil, states.isEmpty, let number = Int(token), number >= 0 else { return nil }
                numbers.append(number)
                rest = rest.dropFirst(token.count)
            }
        }
        guard let pages = numbers.first, pages <= Int.max / lowMemoryPageSize else { return nil }
        return Process(name: name, residentPages: pages, states: states, killReason: reason.flatMap { $0.isEmpty ? nil : $0 },
                       line: line)
    }
}
