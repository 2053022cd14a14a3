import PressureLab
import PressureLabHarness

/// `pressurelab import vmmap`: an iOS or macOS app's memory by kind from `vmmap --summary` (or
/// a full `vmmap PID` print, whose summary is read; docs/importing.md).
///
/// The mapping, per REGION TYPE row: each row's bytes as macOS's footprint ledger counts them
/// (``VmmapFootprintCount``: dirty and swapped pages, non-volatile purgeable memory, IOKit
/// mappings' resident pages, owned unmapped memory, page tables) go to
/// - the screen's `backing:` for the graphics rows (CoreAnimation, IOSurface, IOAccelerator, CG
///   raster data, CG image, CoreUI image data, Image IO, `owned unmapped (graphics)`; names
///   matched without case);
/// - the app's `data:` for every other row (`MALLOC_*`: vmmap cannot tell the models a screen
///   would release from the rest of the heap; Stack, `__DATA`'s written pages, VM_ALLOCATE,
///   Memory Tag N, page tables, ...);
/// - and the file-backed rows' (`__TEXT`, `__LINKEDIT`, the other `__` segments, `mapped file`)
///   other resident pages to `clean:`.
/// Left out, and said: VIRTUAL SIZE (address space), VOLATILE (outside the footprint), EMPTY,
/// REGION COUNT, resident pages that are neither written nor file-backed.
/// Older vmmaps print only VIRTUAL SIZE and REGION COUNT: nothing of the memory by kind can be
/// imported; the Physical footprint, when printed, is then the app's `data:` whole; without it
/// the dump is refused.
package enum VmmapImporter {
    enum Kind { case malloc, graphics, file, other }

    /// Graphics rows, lowercased (names are matched without case: later macOS prints `CG Image`,
    /// `CoreUI Image Data`, `Malloc`). `owned unmapped (graphics)` is GPU memory the process
    /// owns without mapping it (WebKit's tiles, Metal buffers): the footprint counts it, and so
    /// does the scenario, as backing.
    static let graphicsPrefixes = ["coreanimation", "iosurface", "ioaccelerator", "cg raster data", "cg image", "coreui image data", "image io",
                                   "owned unmapped (graphics)"]

    static func kind(_ name: String) -> Kind {
        let name = name.lowercased()
        if name.hasPrefix("malloc") { return .malloc }
        if graphicsPrefixes.contains(where: { name.hasPrefix($0) }) { return .graphics }
        if name == "mapped file" || name.hasPrefix("__") { return .file }
        return .other
    }

    /// The most bytes an imported figure may be (1 TiB).
    static let maximumFigure = 1 << 40

    package static func importScenario(_ text: DumpText, options: ImportOptions) throws(ImportError) -> ImportedScenario {
        if options.background != nil {
            throw ImportError(path: text.path, line: 0, "--background: expected no background snapshot for vmmap (one print is the "
                + "foreground footprint; meminfo reads loops)", isUsage: true)
        }
        if options.scale != nil {
            throw ImportError(path: text.path, line: 0, "--scale: expected no scale for vmmap, whose sizes are bytes", isUsage: true)
        }
        let all = try VmmapReader.prints(text)
        guard !all.isEmpty else {
            throw ImportError(path: text.path, line: text.lines.isEmpty ? 0 : 1, "expected vmmap --summary's 'Physical footprint:' and "
                + "REGION TYPE table, found neither in \(text.lines.count) lines")
        }
        let chosen = try chooseProcess(all, text: text, process: options.process)
        let print = chosen.max { ($0.footprint?.bytes ?? $0.total?["DIRTY"] ?? 0) < ($1.footprint?.bytes ?? $1.total?["DIRTY"] ?? 0) }!
        let name = print.process ?? Importers.fileStem(text.path)
        var notes = ["Imported by pressurelab import vmmap from \(text.path): vmmap --summary, "
                     + (print.process.map { "process \($0)" + (print.pid.map { " [\($0)]" } ?? "") } ?? "no Process: line")
                     + " (\(text.origin(print.line)))" + (chosen.count > 1 ? ", the largest of \(chosen.count) prints" : "") + "."]
        let others = Set(all.compactMap(\.process)).subtracting([print.process ?? ""]).sorted()
        if !others.isEmpty { notes.append("Other processes in the dump, not imported: \(others.joined(separator: ", ")).") }
        if let model = print.hardwareModel { notes.append("Hardware Model: \(model) (an iOS .memgraph's print).") }
        if let footprint = print.footprint {
            notes.append("Physical footprint: \(footprint.text) (\(text.origin(footprint.line)))"
                         + (print.peak.map { ", peak \($0.text) (\(text.origin($0.line)))" } ?? "") + ".")
        }
        var app = ImportedScenario.App(name: options.app ?? ImportNames.valid(name))
        var screen = ImportedScenario.Screen(name: options.screen ?? "main", views: 1, fanout: 1, bytesPerView: 1024)
        screen.treeOrigins = ["vmmap has no views: one view of 1 KiB (an assumption) holds the screen's backing stores."]
        if print.hasResidency {
            let figures = try Figures(print, text: text)
            app.data = figures.data.bytes > 0 ? figures.data : nil
            app.clean = figures.clean.bytes > 0 ? figures.clean : nil
            screen.backing = figures.backing.bytes > 0 ? figures.backing : nil
            app.notes = figures.notes
            if let footprint = print.footprint {
                let counted = figures.data.bytes + figures.backing.bytes
                notes.append("Imported footprint (data + backing): \(counted) B, \(Int((Double(counted) / Double(max(1, footprint.bytes)) * 100).rounded()))% "
                             + "of the Physical footprint.")
            }
        } else if let footprint = print.footprint {
            app.data = ImportedScenario.Figure(bytes: footprint.bytes, origins: [
                "\(text.origin(footprint.line)) Physical footprint \(footprint.text): the whole footprint as data. "
                + (print.columns.isEmpty ? "The dump has no REGION TYPE table" : "This vmmap prints VIRTUAL SIZE and REGION COUNT only "
                   + "(\(text.origin(print.columnsLine)))") + ": the split into heap, graphics and clean memory cannot be imported."])
        } else if let summary = print.crashReportSummaryLine {
            throw text.error(summary, "expected vmmap --summary's print, found a crash report's 'VM Region Summary:' (virtual sizes and "
                + "region counts only, no resident or dirty sizes, no footprint): nothing of the app's memory can be imported from it; "
                + "run vmmap --summary PID (or on a .memgraph) and import that")
        } else {
            throw text.error(print.columnsLine, "expected the REGION TYPE table's RESIDENT and DIRTY columns, or a 'Physical footprint:' line, "
                + "found only \(DumpText.quote(print.columns.joined(separator: " "))) (an older vmmap): virtual sizes are address space, not "
                + "memory, so nothing can be imported; Xcode 10's vmmap and later print resident, dirty and swapped sizes")
        }
        app.notes += zoneNotes(print, text: text)
        app.screens = [screen]
        var imported = ImportedScenario(notes: notes, deviceMemoryBytes: 0, profile: options.profile ?? ImportFormat.vmmap.defaultProfile, app: app)
        imported.footprint = print.footprint.map {
            .init(what: "Physical footprint", bytes: $0.bytes, origin: text.origin($0.line), countsClean: false)
        }
        if print.hasResidency { imported.leftOut = try Figures(print, text: text).leftOut }
        imported.deviceMemoryBytes = ImportedScenario.roomyDevice(for: imported.declaredDirtyBytes + (app.clean?.bytes ?? 0))
        return imported
    }

    /// The MALLOC ZONE table's allocated and fragmented bytes, as comments.
    static func zoneNotes(_ print: VmmapPrint, text: DumpText) -> [String] {
        guard !print.zones.isEmpty else { return [] }
        var notes = ["MALLOC ZONE table (for comparison; the heap is imported from the MALLOC regions above):"]
        for zone in print.zones.prefix(12) {
            var line = "  \(text.origin(zone.line)) \(zone.name): \(zone.text("ALLOCATED")) allocated in \(zone["ALLOCATIONS"]) allocations"
            if print.zoneColumns.contains("FRAG") { line += ", \(zone.text("FRAG")) fragmented (\(zone.text("% FRAG")))" }
            notes.append(line)
        }
        if print.zones.count > 12 { notes.append("  ... and \(print.zones.count - 12) more zones") }
        return notes
    }

    /// The prints of the process asked for (a name or a pid), or of the only one; several
    /// without a choice is an error that lists them.
    static func chooseProcess(_ all: [VmmapPrint], text: DumpText, process: String?) throws(ImportError) -> [VmmapPrint] {
        var names: [String] = []
        for print in all where !names.contains(print.process ?? "") { names.append(print.process ?? "") }
        let listed = names.map { name in
            let first = all.first { ($0.process ?? "") == name }!
            return (name.isEmpty ? "(unnamed)" : name) + (first.pid.map { " [\($0)]" } ?? "") + " (line \(first.line))"
        }.joined(separator: ", ")
        if let process {
            let chosen = all.filter { $0.process == process || $0.pid.map(String.init) == process }
            guard !chosen.isEmpty else {
                throw ImportError(path: text.path, line: 0, "--process \(process): expected one of the dump's processes, found none of that name "
                    + "or pid; the dump has \(listed)", isUsage: true)
            }
            return chosen
        }
        guard names.count == 1 else {
            let second = all.first { ($0.process ?? "") != names[0] }!
            throw text.error(second.line, "expected one process, found \(names.count): \(listed); choose one with --process NAME")
        }
        return all
    }
}

extension ImportedScenario.Figure {
    /// Adds `bytes` with its origin.
    mutating func add(bytes: Int, _ origin: String) {
        self.bytes += bytes
        origins.append(origin)
    }
}
