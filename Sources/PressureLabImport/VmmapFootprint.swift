/// How macOS's and iOS's physical footprint counts one vmmap REGION TYPE row.
///
/// XNU keeps the footprint as a ledger (apple-oss-distributions/xnu, `osfmk/kern/task.c`: the
/// "Task ledgers" comment above `init_task_ledgers`, and its `ledger_entry_add` calls):
/// `phys_footprint` is the task's internal (anonymous) pages less `alternate_accounting`, the
/// same held by the compressor (`internal_compressed`), `iokit_mapped` (every page of the
/// task's IOKit mappings, clean or dirty), `purgeable_nonvolatile` and its compressed part, and
/// `page_table`; memory a task owns without mapping it is charged by its ledger tag
/// (`graphics_footprint`, `network_nonvolatile`, `media_footprint`, `neural_footprint`,
/// `tagged_footprint`, each with a `_compressed` entry). `purgeable_volatile` is a ledger entry
/// of its own, outside the footprint. docs/importing.md, "`vmmap`", gives the rule by row.
enum VmmapFootprintCount: Equatable {
    /// Pages the task wrote, resident (DIRTY) or compressed (SWAPPED): `internal` and
    /// `internal_compressed`; purgeable memory made non-volatile (NONVOL) when vmmap prints
    /// more of it than of dirty and swapped pages (`purgeable_nonvolatile`).
    case written
    /// An IOKit mapping (IOSurface, IOAccelerator, IOKit): `iokit_mapped` counts every resident
    /// page whether vmmap calls it dirty or not, so the largest of RESIDENT, DIRTY plus SWAPPED
    /// and NONVOL.
    case iokitMapped
    /// Memory the task owns without mapping it (`owned unmapped (graphics)`, `owned unmapped
    /// memory`): every resident page of the owned object (vmmap may print fewer of them as
    /// dirty), and its compressed pages: RESIDENT (or DIRTY, if larger) plus SWAPPED.
    case ownedUnmapped
    /// The task's page tables (`page table in kernel`): the `page_table` ledger, RESIDENT (or
    /// DIRTY, if larger) plus SWAPPED.
    case pageTable
    /// A file-backed segment or `mapped file`: its written private copies (DIRTY plus SWAPPED)
    /// count; its other resident pages are the file's (external, not `internal`): the scenario's
    /// `clean:`, not the footprint.
    case fileBacked

    /// The rule for a row, by its name (matched without case).
    static func of(_ name: String) -> VmmapFootprintCount {
        let name = name.lowercased()
        if name.hasPrefix("iosurface") || name.hasPrefix("ioaccelerator") || name.hasPrefix("iokit") { return .iokitMapped }
        if name.hasPrefix("owned unmapped") { return .ownedUnmapped }
        if name.hasPrefix("page table") { return .pageTable }
        if name == "mapped file" || name.hasPrefix("__") { return .fileBacked }
        return .written
    }

    /// The bytes of `row` the footprint counts, and the terms that say how (`dirty 18.7M +
    /// swapped 1.2M`, `resident 212.0M (IOKit-mapped: every resident page counts)`).
    func counted(_ row: VmmapPrint.Row) -> (bytes: Int, term: String) {
        let written = row["DIRTY"] + row["SWAPPED"]
        let writtenTerm = "dirty \(row.text("DIRTY"))" + (row["SWAPPED"] > 0 ? " + swapped \(row.text("SWAPPED"))" : "")
        let nonvolatile = (row["NONVOL"], "non-volatile \(row.text("NONVOL")) (NONVOL: purgeable memory the footprint counts)")
        switch self {
        case .written:
            return nonvolatile.0 > written ? nonvolatile : (written, writtenTerm)
        case .fileBacked:
            return (written, writtenTerm)
        case .iokitMapped:
            let resident = (row["RESIDENT"], "resident \(row.text("RESIDENT")) (IOKit-mapped: every resident page counts)")
            return [resident, nonvolatile].reduce((written, writtenTerm)) { $1.0 > $0.0 ? $1 : $0 }
        case .ownedUnmapped, .pageTable:
            guard row["RESIDENT"] > row["DIRTY"] else { return (written, writtenTerm) }
            return (row["RESIDENT"] + row["SWAPPED"], "resident \(row.text("RESIDENT"))" + (row["SWAPPED"] > 0 ? " + swapped \(row.text("SWAPPED"))" : "")
                    + (self == .pageTable ? " (page tables)" : " (owned: every resident page counts)"))
        }
    }

    /// Resident bytes of `row` that neither the footprint nor `clean:` counts.
    func residentLeftOut(_ row: VmmapPrint.Row) -> Int {
        switch self {
        case .written: max(0, row["RESIDENT"] - max(row["DIRTY"], row["NONVOL"]))
        case .fileBacked, .iokitMapped, .ownedUnmapped, .pageTable: 0
        }
    }
}

extension VmmapImporter {
    /// One print's memory by scenario key (bytes), each with the rows it sums: every row's
    /// footprint (``VmmapFootprintCount``) is `data:` or, for graphics rows, `backing:`; the
    /// file-backed rows' other resident pages are `clean:`.
    struct Figures {
        var data = ImportedScenario.Figure(bytes: 0, origins: [])
        var backing = ImportedScenario.Figure(bytes: 0, origins: [])
        var clean = ImportedScenario.Figure(bytes: 0, origins: [])
        var notes: [String] = []
        /// What is left out, with sizes, for the report.
        var leftOut: [ImportedScenario.Reported] = []

        init(_ print: VmmapPrint, text: DumpText) throws(ImportError) {
            var leftResident = 0, volatile = 0
            var leftRows: [String] = [], leftLines: [Int] = [], volatileLines: [Int] = []
            for row in print.regions {
                let origin = text.origin(row.line)
                let rule = VmmapFootprintCount.of(row.name)
                let (counted, term) = rule.counted(row)
                volatile += row["VOLATILE"]
                if row["VOLATILE"] > 0 { volatileLines.append(row.line) }
                if counted > 0 {
                    if VmmapImporter.kind(row.name) == .graphics { backing.add(bytes: counted, "\(origin) \(row.name): \(term)") }
                    else { data.add(bytes: counted, "\(origin) \(row.name): \(term)") }
                }
                if rule == .fileBacked, row["RESIDENT"] > row["DIRTY"] {
                    clean.add(bytes: row["RESIDENT"] - row["DIRTY"], "\(origin) \(row.name): resident \(row.text("RESIDENT")) - dirty \(row.text("DIRTY"))")
                }
                let left = rule.residentLeftOut(row)
                if left > 0 {
                    leftResident += left
                    leftRows.append(VmmapImporter.kind(row.name) == .graphics ? "\(row.name) (resident \(row.text("RESIDENT")))" : row.name)
                    leftLines.append(row.line)
                }
                for figure in [data, backing, clean] where figure.bytes > VmmapImporter.maximumFigure {
                    throw text.error(row.line, "expected the app's memory to be at most 1T, found \(figure.bytes) B by this row (\(row.name))")
                }
            }
            if let total = print.total {
                notes.append("TOTAL (\(text.origin(total.line))): resident \(total.text("RESIDENT")), dirty \(total.text("DIRTY")), "
                             + "swapped \(total.text("SWAPPED")) (the rows above are summed as printed, rounded).")
            }
            notes.append("Modelled as the footprint counts each row (XNU's task ledgers, docs/importing.md): dirty and swapped pages, "
                         + "non-volatile purgeable memory, IOKit mappings' resident pages, owned unmapped memory's resident and swapped "
                         + "pages, page tables. Left out: VIRTUAL SIZE (address space), EMPTY, REGION COUNT; VOLATILE \(volatile) B (purgeable "
                         + "memory the system may empty, outside the footprint); MALLOC is all data (vmmap cannot tell models a screen "
                         + "releases from other heap).")
            func lines(_ numbers: [Int]) -> String {
                guard let first = numbers.min(), let last = numbers.max() else { return text.path }
                return first == last ? text.origin(first) : "\(text.origin(first))-\(last)"
            }
            if leftResident > 0 {
                notes.append("Left out: \(leftResident) B resident but neither dirty nor file-backed, in "
                             + leftRows.prefix(12).joined(separator: ", ") + (leftRows.count > 12 ? ", ..." : "")
                             + " (pages the task did not write, shared with or owned by another task: not its internal memory).")
                leftOut.append(.init(what: "resident but neither written nor file-backed, not the task's internal memory (\(leftRows.count) rows)",
                                     bytes: leftResident, origin: lines(leftLines)))
            }
            if volatile > 0 {
                leftOut.append(.init(what: "VOLATILE (purgeable memory the system may empty: the ledger's purgeable_volatile, outside the footprint)",
                                     bytes: volatile, origin: lines(volatileLines)))
            }
        }
    }
}
