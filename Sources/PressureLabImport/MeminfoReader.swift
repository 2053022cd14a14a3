import PressureLab
import PressureLabHarness

/// One print of `dumpsys meminfo` for one process: its per-category table, its App Summary
/// and its Objects, each figure with its line.
///
/// The layout is `ActivityThread.dumpMemInfoTable` (frameworks/base,
/// core/java/android/app/ActivityThread.java): a header of two lines naming the columns
/// (`HEAP_COLUMN`, `HEAP_FULL_COLUMN` with `-a`), a dashed line, one row a category and
/// `TOTAL`; then " App Summary" (`ONE_COUNT_COLUMN`, or `TWO_COUNT_COLUMNS` with Rss from
/// Android 12) and " Objects" (`ApplicationThread.dumpMemInfo`). Android 12 added the `Rss
/// Total` column and the summary's Rss column, and renamed `TOTAL:` to `TOTAL PSS:` (read
/// at aosp-mirror/platform_frameworks_base commits 000fd43e, before, and 07d7b6f9, after).
package struct MeminfoSnapshot: Sendable, Equatable {
    package var pid: Int
    package var process: String
    /// The line of `** MEMINFO in pid PID [PROCESS] **`.
    package var line: Int
    package var columns: [MeminfoColumn]
    package var rows: [MeminfoCategory: Row] = [:]
    /// App Summary and Objects figures by label (`Java Heap`, `TOTAL PSS`, `Views`, ...).
    package var summary: [String: Labelled] = [:]
    package var objects: [String: Labelled] = [:]

    /// A table row: its figures by column (kB) and its line.
    package struct Row: Sendable, Equatable {
        package var values: [MeminfoColumn: Int]
        package var line: Int

        package subscript(_ column: MeminfoColumn) -> Int { values[column] ?? 0 }
    }

    /// A labelled figure of the App Summary or the Objects: its value and line.
    package struct Labelled: Sendable, Equatable {
        package var value: Int
        package var line: Int
    }

    /// Android 12 and later print the Rss column.
    package var hasRss: Bool { columns.contains(.rssTotal) }

    /// The table's TOTAL Pss (kB): which snapshot is the largest.
    package var totalPss: Int { rows[.total]?[.pssTotal] ?? 0 }

    /// Dirty pages of a row, resident or swapped (kB): Private Dirty plus SwapPss (or Swap, or Swapped) Dirty.
    package func dirty(_ category: MeminfoCategory) -> Int {
        guard let row = rows[category] else { return 0 }
        return row[.privateDirty] + swapped(category)
    }

    /// A row's swapped dirty pages (kB): SwapPss Dirty, Swap Dirty or Swapped Dirty, as the layout prints.
    package func swapped(_ category: MeminfoCategory) -> Int {
        guard let row = rows[category] else { return 0 }
        return row[.swapPssDirty] + row[.swapDirty] + row[.swappedDirty]
    }
}

/// Reads every print of `dumpsys meminfo` in a dump (several: a loop with timestamps or
/// separators between prints; several processes of one package).
package struct MeminfoReader {
    let text: DumpText
    /// Prints that said no such process: their lines and what they named.
    package private(set) var missing: [(line: Int, name: String)] = []

    package init(_ text: DumpText) { self.text = text }

    enum Section { case header, table, afterTable, summary, objects, other }

    static let headerWords: Set<Substring> = ["Pss", "Private", "Shared", "SwapPss", "Swap", "Swapped", "Rss", "Heap"]

    /// Every snapshot, in file order. Throws at the first line that is not what it should be.
    package mutating func snapshots() throws(ImportError) -> [MeminfoSnapshot] {
        var result: [MeminfoSnapshot] = []
        var current: MeminfoSnapshot?
        var section = Section.other
        var pendingHeader: (tokens: [Substring], line: Int)?
        for (index, rawLine) in text.lines.enumerated() {
            let number = index + 1
            let line = Substring(rawLine)
            let tokens = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if let (pid, process) = Self.snapshotHeader(line) {
                if let done = current { result.append(try finished(done, before: number, found: rawLine)) }
                current = MeminfoSnapshot(pid: pid, process: process, line: number, columns: [])
                section = .header
                pendingHeader = nil
                continue
            }
            if line.contains("No process found for:") {
                if let done = current { result.append(try finished(done, before: number, found: rawLine)) }
                current = nil
                missing.append((number, String(line.split(separator: ":", maxSplits: 1).last ?? "").trimmed))
                continue
            }
            guard current != nil else { continue }
            switch section {
            case .header:
                if tokens.isEmpty { continue }
                if let first = pendingHeader {
                    current!.columns = try columns(first.tokens, tokens, line: first.line)
                    pendingHeader = nil
                    section = .table
                } else if tokens.allSatisfy({ Self.headerWords.contains($0) }) {
                    pendingHeader = (tokens, number)
                } else {
                    throw text.error(number, "expected the table's header of a known layout (\(MeminfoColumn.expectedLayouts)), found "
                        + DumpText.quote(line.trimmed) + (line.trimmed == "App Summary"
                            ? " (dumpsys meminfo -s prints no table: run it without -s)" : ""))
                }
            case .table:
                if tokens.allSatisfy({ $0.allSatisfy { $0 == "-" } }) { continue }
                guard let (category, rest) = MeminfoCategory.match(line) else {
                    throw text.error(number, "expected a row of the table (\(MeminfoCategory.allCases.map(\.rawValue).joined(separator: ", "))), "
                        + "found \(DumpText.quote(line.trimmed))")
                }
                current!.rows[category] = try row(rest, category: category, columns: current!.columns, line: number)
                if category == .total { section = .afterTable }
            case .afterTable, .summary, .objects, .other:
                switch line.trimmed {
                case "App Summary": section = .summary; continue
                case "Objects": section = .objects; continue
                case "": continue
                default: break
                }
                if section == .summary || section == .objects, tokens.contains(where: { $0.hasSuffix(":") }) {
                    for (label, value) in try labelledFigures(tokens, line: number, isObjects: section == .objects) {
                        if section == .summary { current!.summary[label] = .init(value: value, line: number) }
                        else { current!.objects[label] = .init(value: value, line: number) }
                    }
                } else if section == .summary || section == .objects, !tokens.contains(where: { $0.allSatisfy { $0 == "-" } }),
                          !tokens.contains(where: { $0.hasSuffix("(KB)") }) {
                    section = .other  // another section (SQL, DATABASES, Native Allocations, ...)
                }
            }
        }
        if let done = current { result.append(try finished(done, before: text.lines.count + 1, found: nil)) }
        return result
    }

    /// `** MEMINFO in pid 1234 [com.example] **`: the pid and the process.
    static func snapshotHeader(_ line: Substring) -> (Int, String)? {
        let trimmed = line.trimmed
        guard trimmed.hasPrefix("** MEMINFO in pid "), trimmed.hasSuffix("**") else { return nil }
        let body = trimmed.dropFirst("** MEMINFO in pid ".count).dropLast(2)
        guard let open = body.firstIndex(of: "["), let close = body.lastIndex(of: "]"), open < close,
              let pid = Int(body[..<open].trimmingCharacters(in: .whitespaces)) else { return nil }
        return (pid, String(body[body.index(after: open)..<close]))
    }

    /// A snapshot is whole once its table has its TOTAL row.
    func finished(_ snapshot: MeminfoSnapshot, before line: Int, found: String?) throws(ImportError) -> MeminfoSnapshot {
        guard snapshot.rows[.total] == nil else { return snapshot }
        let what = found.map { DumpText.quote($0.trimmed) } ?? "the end of the dump (truncated?)"
        throw text.error(line, "expected the table's TOTAL row for pid \(snapshot.pid) [\(snapshot.process)] "
            + "(line \(snapshot.line)), found \(what)")
    }

    /// The columns the two header lines name, pairwise; the reader needs Pss Total, Private
    /// Dirty and Private Clean.
    func columns(_ top: [Substring], _ bottom: [Substring], line: Int) throws(ImportError) -> [MeminfoColumn] {
        var columns: [MeminfoColumn] = []
        if top.count == bottom.count {
            for (upper, lower) in zip(top, bottom) {
                guard let column = MeminfoColumn(rawValue: "\(upper) \(lower)") else { break }
                columns.append(column)
            }
        }
        guard columns.count == top.count, [.pssTotal, .privateDirty, .privateClean].allSatisfy(columns.contains) else {
            let old = bottom.first == "Pss" && top.count + 1 == bottom.count
            throw text.error(line, "expected a table header of a known layout (\(MeminfoColumn.expectedLayouts)), found "
                + (old ? "Android 4.3 and earlier's ('Pss', 'Shared Dirty', 'Private Dirty': no Private Clean, which the import needs): " : "")
                + DumpText.quote(top.joined(separator: " ")) + " over " + DumpText.quote(bottom.joined(separator: " ")))
        }
        return columns
    }

    /// A row's figures: the first columns in order (rows other than the heaps and TOTAL leave
    /// the Heap columns blank).
    func row(_ rest: Substring, category: MeminfoCategory, columns: [MeminfoColumn], line: Int) throws(ImportError) -> MeminfoSnapshot.Row {
        let tokens = rest.split(whereSeparator: { $0 == " " || $0 == "\t" })
        let heapColumns = columns.filter { $0 == .heapSize || $0 == .heapAlloc || $0 == .heapFree }.count
        guard tokens.count == columns.count || tokens.count == columns.count - heapColumns else {
            throw text.error(line, "expected \(columns.count - heapColumns) or \(columns.count) figures in the row '\(category.rawValue)' "
                + "(\(columns.map(\.rawValue).joined(separator: ", "))), found \(tokens.count): \(DumpText.quote(rest.trimmed))")
        }
        var values: [MeminfoColumn: Int] = [:]
        for (column, token) in zip(columns, tokens) {
            values[column] = try text.kilobytes(token, line: line, what: "'\(category.rawValue)' \(column.rawValue)")
        }
        return .init(values: values, line: line)
    }

    /// `LABEL: N [N] LABEL: N ...` pairs; a second figure without a label (the Rss column
    /// of Android 12's summary) is `LABEL Rss`.
    func labelledFigures(_ tokens: [Substring], line: Int, isObjects: Bool) throws(ImportError) -> [(String, Int)] {
        var result: [(String, Int)] = []
        var label: [Substring] = []
        var lastLabel: String?
        for token in tokens {
            if token.hasSuffix(":") {
                label.append(token.dropLast())
                lastLabel = label.joined(separator: " ")
                label = []
            } else if let current = lastLabel, DumpText.looksNumeric(token) {
                let what = isObjects ? "the count of '\(current)'" : "'\(current)'"
                let value = isObjects ? try text.wholeNumber(token, line: line, what: what) : try text.kilobytes(token, line: line, what: what)
                let key = result.contains { $0.0 == current } ? "\(current) Rss" : current
                result.append((key, value))
            } else {
                label.append(token)
            }
        }
        return result
    }
}

extension Substring {
    var trimmed: String { trimmingCharacters(in: .whitespaces) }
}

extension String {
    var trimmed: String { trimmingCharacters(in: .whitespaces) }
}

import PressureLab
import PressureLabHarness
import Foundation
