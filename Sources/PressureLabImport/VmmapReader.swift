import PressureLab
import PressureLabHarness

/// One print of `vmmap --summary` (of a process or of a `.memgraph`): the process, the
/// footprint lines and the REGION TYPE and MALLOC ZONE tables, each figure with its line.
///
/// The layout, from package prints of it (vmmap's own columns, not a documented format):
/// ```
/// Process:         com.docker.hyperkit [68841]
/// ...
/// Physical footprint:         3.7G
/// Physical footprint (peak):  3.7G
/// ----
///
/// ReadOnly portion of Libraries: Total=333.3M resident=143.8M(43%) swapped_out_or_unallocated=189.5M(57%)
/// Writable regions: Total=2.2G written=2880K(0%) resident=2.1G(97%) swapped_out=96K(0%) unallocated=60.2M(3%)
///
///                                 VIRTUAL RESIDENT    DIRTY  SWAPPED VOLATILE   NONVOL    EMPTY   REGION
/// REGION TYPE                        SIZE     SIZE     SIZE     SIZE     SIZE     SIZE     SIZE    COUNT (non-coalesced)
/// ===========                     ======= ========    =====  ======= ========   ======    =====  =======
/// MALLOC_LARGE                       2.1G     2.1G     2.1G       0K       0K       0K       0K        8         see MALLOC ZONE table below
/// ...
/// ===========                     ======= ========    =====  ======= ========   ======    =====  =======
/// TOTAL                              2.6G     2.3G     2.1G      96K       0K      20K       0K      450
///
///                                  VIRTUAL   RESIDENT      DIRTY    SWAPPED ALLOCATION      BYTES DIRTY+SWAP          REGION
/// MALLOC ZONE                         SIZE       SIZE       SIZE       SIZE      COUNT  ALLOCATED  FRAG SIZE  % FRAG   COUNT
/// ===========                      =======  =========  =========  =========  =========  =========  =========  ======  ======
/// DefaultMallocZone_0x10d87a000       2.2G       2.1G       2.1G        52K       1210       2.1G         0K      0%      12
/// ```
/// Sources: a Go test fixture of vmmap output (Xcode 10.1's vmmap on macOS 10.14.1, and
/// macOS 10.12's /usr/bin/vmmap, which prints only VIRTUAL SIZE and REGION COUNT and no
/// footprint: "VIRTUAL REGION / SIZE COUNT", zones "VIRTUAL ALLOCATION BYTES REGION / SIZE COUNT
/// ALLOCATED % FULL COUNT"), a jianshu.com post's vmmap of an iOS simulator app (CoreAnimation,
/// MALLOC_LARGE rows), a Chromium renderer's print in a TypeScript test (`Memory Tag 253`
/// rows, a size printed in bytes without a unit) and scripts reading a one-line header
/// (`REGION TYPE  VIRTUAL RESIDENT DIRTY SWAPPED ...`); found through this project's code
/// search (2026-11-24). Sizes are `0K`, `340K`, `12.5M`, `1.2G`, `1.4T` (KiB, MiB, GiB, TiB
/// of 1024) or bytes without a unit.
package struct VmmapPrint: Sendable, Equatable {
    /// `Process: NAME [PID]`, when printed (nil: a summary pasted without its header).
    package var process: String?
    package var pid: Int?
    package var line: Int
    /// `Hardware Model:` (an iOS `.memgraph`'s print starts with it), when printed.
    package var hardwareModel: String?
    /// The line of `VM Region Summary:` when the print is a crash report's region summary, not vmmap's.
    package var crashReportSummaryLine: Int?
    package var footprint: Sized?
    package var peak: Sized?
    /// The REGION TYPE table's columns as printed (`VIRTUAL`, `RESIDENT`, ..., `REGION`).
    package var columns: [String] = []
    package var columnsLine = 0
    package var regions: [Row] = []
    package var total: Row?
    package var zoneColumns: [String] = []
    package var zones: [Row] = []

    /// A size with its line.
    package struct Sized: Sendable, Equatable {
        package var bytes: Int
        package var text: String
        package var line: Int
    }

    /// A table row: its name, its figures by column (bytes; counts as numbers) and its line.
    package struct Row: Sendable, Equatable {
        package var name: String
        package var values: [String: Int]
        package var texts: [String: String]
        package var line: Int

        package subscript(_ column: String) -> Int { values[column] ?? 0 }
        /// A figure as printed (`12.5M`), for comments.
        package func text(_ column: String) -> String { texts[column] ?? "0K" }
    }

    /// The layout prints resident and dirty sizes (Xcode 10's vmmap and later); older ones
    /// print VIRTUAL SIZE and REGION COUNT only.
    package var hasResidency: Bool { columns.contains("RESIDENT") && columns.contains("DIRTY") }
}

/// Reads every `vmmap --summary` print in a dump.
package enum VmmapReader {
    /// The most bytes a printed size may be (1 PiB: virtual sizes reach terabytes).
    package static let maximumSize = 1 << 50
    static let regionColumns: Set<String> = ["VIRTUAL", "RESIDENT", "DIRTY", "SWAPPED", "VOLATILE", "NONVOL", "EMPTY", "REGION"]
    static let expectedLayouts = "'VIRTUAL RESIDENT DIRTY SWAPPED VOLATILE NONVOL EMPTY REGION' (Xcode 10 and later) or "
        + "'VIRTUAL REGION' (older)"

    /// A size as vmmap prints it: digits with at most one `.` fraction, then `K`, `M`, `G`,
    /// `T`, `P` or nothing (bytes); nil otherwise.
    package static func size(_ token: Substring) -> Int? {
        var digits = token
        var unit = 1.0
        if let last = token.last, let power = ["K": 1, "M": 2, "G": 3, "T": 4, "P": 5][String(last)] {
            digits = token.dropLast()
            unit = Double(1 << (10 * power))
        }
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 16 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let value = Double(digits) else { return nil }
        let bytes = (value * unit).rounded()
        guard bytes <= Double(maximumSize) else { return nil }
        return Int(bytes)
    }

    static func sizeError(_ text: DumpText, _ line: Int, _ token: Substring, what: String) -> ImportError {
        var reason = ""
        if token.contains(",") || token.contains("'") { reason = " (another locale's decimal or grouping: vmmap prints '12.5M')" }
        else if token.hasPrefix("-") { reason = " (a negative size)" }
        else if let digits = Double(token.filter { $0.isNumber || $0 == "." }), digits > 0, token.count < 24 { reason = " (over 1P, or not a size)" }
        return text.error(line, "expected \(what), a size such as 0K, 340K, 12.5M or 1.2G, found \(DumpText.quote(String(token)))\(reason)")
    }

    /// Every print, in file order.
    package static func prints(_ text: DumpText) throws(ImportError) -> [VmmapPrint] {
        var prints: [VmmapPrint] = []
        var current: VmmapPrint?
        var index = 0
        let lines = text.lines
        // `vmmap PID` without --summary lists every region first (`Virtual Memory Map of
        // process N` to `==== Summary for process N`), under a header that also starts with
        // REGION TYPE: skipped, the summary after it is read.
        var inRegionListing = false
        var hardwareModel: String?
        while index < lines.count {
            let number = index + 1
            let line = lines[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            index += 1
            if trimmed.hasPrefix("Virtual Memory Map of process") { inRegionListing = true; continue }
            if trimmed.hasPrefix("==== Summary for process") { inRegionListing = false; continue }
            if inRegionListing { continue }
            if trimmed.hasPrefix("Hardware Model:") {
                hardwareModel = trimmed.dropFirst("Hardware Model:".count).trimmingCharacters(in: .whitespaces)
                continue
            }
            if trimmed.hasPrefix("Process:") {
                if let done = current { prints.append(try finished(done, text: text)) }
                let rest = trimmed.dropFirst("Process:".count).trimmingCharacters(in: .whitespaces)
                var name = rest
                var pid: Int?
                if let open = rest.lastIndex(of: "["), rest.hasSuffix("]") {
                    name = rest[..<open].trimmingCharacters(in: .whitespaces)
                    pid = Int(rest[rest.index(after: open)..<rest.index(before: rest.endIndex)])
                }
                current = VmmapPrint(process: name, pid: pid, line: number)
                current?.hardwareModel = hardwareModel
                hardwareModel = nil
                continue
            }
            if trimmed.hasPrefix("Physical footprint") {
                let isPeak = trimmed.hasPrefix("Physical footprint (peak):")
                guard isPeak || trimmed.hasPrefix("Physical footprint:") else { continue }
                let value = trimmed.drop { $0 != ":" }.dropFirst().trimmingCharacters(in: .whitespaces)
                guard let bytes = size(Substring(value)) else {
                    // `n/a` and the like: not printed; a figure that is not a size: an error.
                    if value.first?.isNumber == true || value.first == "-" { throw sizeError(text, number, Substring(value), what: "the physical footprint") }
                    continue
                }
                if current == nil { current = VmmapPrint(line: number) }
                let sized = VmmapPrint.Sized(bytes: bytes, text: value, line: number)
                if isPeak { current!.peak = sized } else { current!.footprint = sized }
                continue
            }
            if trimmed.hasPrefix("VM Region Summary:") {
                if current == nil { current = VmmapPrint(line: number) }
                current?.crashReportSummaryLine = number
                continue
            }
            if trimmed.hasPrefix("REGION TYPE") || trimmed.hasPrefix("MALLOC ZONE") {
                if current == nil { current = VmmapPrint(line: number) }
                let above = index >= 2 ? lines[index - 2].trimmingCharacters(in: .whitespaces) : ""
                if trimmed.hasPrefix("REGION TYPE") {
                    try regionTable(&current!, header: trimmed, above: above, lines: lines, index: &index, text: text)
                } else {
                    try zoneTable(&current!, above: above, lines: lines, index: &index, text: text)
                }
            }
        }
        if let done = current { prints.append(try finished(done, text: text)) }
        return prints
    }

    static func finished(_ print: VmmapPrint, text: DumpText) throws(ImportError) -> VmmapPrint {
        guard print.footprint != nil || !print.columns.isEmpty else {
            throw text.error(print.line, "expected vmmap's 'Physical footprint:' or its REGION TYPE table after '\(print.process ?? "")', "
                + "found neither (is this vmmap --summary?)")
        }
        return print
    }

    /// The column names of a table's header: the words of the line above `REGION TYPE` (or of
    /// `REGION TYPE`'s own line, when the header is one line).
    static func headerWords(_ header: String, above: String, skip: Int) -> [String] {
        let own = header.split(separator: " ").dropFirst(skip).map(String.init)
        if own.first == "VIRTUAL" { return own.filter { !$0.hasPrefix("(") } }
        return above.split(separator: " ").map(String.init)
    }

    static func regionTable(_ print: inout VmmapPrint, header: String, above: String, lines: [String], index: inout Int,
                            text: DumpText) throws(ImportError) {
        let headerLine = index
        let words = headerWords(header, above: above, skip: 2)
        if words.first != "VIRTUAL", header.split(separator: " ").dropFirst(2).first == "SIZE" {
            throw text.error(headerLine, "expected the line above 'REGION TYPE ... SIZE ... COUNT' to name the columns ("
                + "\(expectedLayouts)), found \(DumpText.quote(above)): the print is cut (filtered with grep, or pasted in part); "
                + "import vmmap's whole output")
        }
        guard words.first == "VIRTUAL", words.last == "REGION", words.allSatisfy(regionColumns.contains), Set(words).count == words.count else {
            throw text.error(headerLine, "expected the REGION TYPE table's columns \(expectedLayouts), found \(DumpText.quote(words.joined(separator: " ")))")
        }
        guard print.columns.isEmpty else { throw text.error(headerLine, "expected one REGION TYPE table a print, found a second") }
        print.columns = words
        print.columnsLine = headerLine
        var separators = 0
        while index < lines.count {
            let number = index + 1
            let line = lines[index]
            index += 1
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("===") { separators += 1; continue }
            if trimmed.isEmpty, separators == 0 { continue }
            guard !trimmed.isEmpty else { break }
            let row = try self.row(trimmed, columns: words, line: number, text: text, table: "region")
            if row.name == "TOTAL" {
                print.total = row
                return
            }
            print.regions.append(row)
            guard print.regions.count <= 1_000 else { throw text.error(number, "expected at most 1000 region rows, found more") }
        }
        throw text.error(index, "expected the REGION TYPE table's '=====' line and TOTAL row, found the end of the table (truncated?)")
    }

    /// The MALLOC ZONE table: read for its allocated and fragmented bytes (comments).
    static func zoneTable(_ print: inout VmmapPrint, above: String, lines: [String], index: inout Int, text: DumpText) throws(ImportError) {
        let headerLine = index
        let top = above.split(separator: " ").map(String.init)
        let columns: [String]
        if top == ["VIRTUAL", "RESIDENT", "DIRTY", "SWAPPED", "ALLOCATION", "BYTES", "DIRTY+SWAP", "REGION"] {
            columns = ["VIRTUAL", "RESIDENT", "DIRTY", "SWAPPED", "ALLOCATIONS", "ALLOCATED", "FRAG", "% FRAG", "REGION"]
        } else if top == ["VIRTUAL", "ALLOCATION", "BYTES", "REGION"] {
            columns = ["VIRTUAL", "ALLOCATIONS", "ALLOCATED", "% FULL", "REGION"]
        } else {
            throw text.error(headerLine, "expected the MALLOC ZONE table's columns 'VIRTUAL RESIDENT DIRTY SWAPPED ALLOCATION BYTES DIRTY+SWAP "
                + "REGION' or 'VIRTUAL ALLOCATION BYTES REGION', found \(DumpText.quote(above))")
        }
        print.zoneColumns = columns
        while index < lines.count {
            let number = index + 1
            let trimmed = lines[index].trimmingCharacters(in: .whitespaces)
            index += 1
            if trimmed.hasPrefix("===") { continue }
            if trimmed.isEmpty { if print.zones.isEmpty { continue } else { return } }
            print.zones.append(try row(trimmed, columns: columns, line: number, text: text, table: "MALLOC ZONE"))
            guard print.zones.count <= 1_000 else { throw text.error(number, "expected at most 1000 zone rows, found more") }
        }
    }

    /// A row: a name (words; `Memory Tag 253` has a number in it) then one figure a column
    /// (`REGION` a count, `% ...` a percentage), then free text (`see MALLOC ZONE table below`).
    static func row(_ line: String, columns: [String], line number: Int, text: DumpText, table: String) throws(ImportError) -> VmmapPrint.Row {
        let tokens = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        func fits(_ start: Int) -> Bool {
            guard start >= 1, start + columns.count <= tokens.count else { return false }
            for (offset, column) in columns.enumerated() {
                let token = tokens[start + offset]
                if column == "REGION" || column == "ALLOCATIONS" {
                    guard token.allSatisfy({ $0.isASCII && $0.isNumber }), token.count <= 12 else { return false }
                } else if column.hasPrefix("%") {
                    guard token.hasSuffix("%"), Int(token.dropLast()) != nil else { return false }
                } else if size(token) == nil {
                    return false
                }
            }
            return true
        }
        guard let start = (1..<max(1, tokens.count)).first(where: fits) else {
            // Say the first token that is not a size, where the figures start.
            let first = tokens.firstIndex { DumpText.looksNumeric($0) } ?? tokens.count
            if first < tokens.count, let bad = tokens[first...].prefix(columns.count).first(where: { size($0) == nil && !$0.hasSuffix("%") }),
               !bad.allSatisfy({ $0.isNumber }) {
                throw sizeError(text, number, bad, what: "a \(table) figure")
            }
            throw text.error(number, "expected a \(table) row: a name and \(columns.count) figures (\(columns.joined(separator: " "))), "
                + "found \(DumpText.quote(line))")
        }
        var values: [String: Int] = [:]
        var texts: [String: String] = [:]
        for (offset, column) in columns.enumerated() {
            let token = tokens[start + offset]
            texts[column] = String(token)
            values[column] = column.hasPrefix("%") ? Int(token.dropLast()) : (column == "REGION" || column == "ALLOCATIONS" ? Int(token) : size(token))
        }
        return VmmapPrint.Row(name: tokens[..<start].joined(separator: " "), values: values, texts: texts, line: number)
    }
}
