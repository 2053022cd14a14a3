import PressureLab
import PressureLabHarness

/// The one door for `pressurelab import`: dumps in, scenario text out, checked by the
/// scenario reader before anything is written.
package enum Importers {
    /// Imports the dumps of `format` (already read) into a scenario.
    package static func importScenario(_ format: ImportFormat, _ dumps: [DumpText],
                                      options: ImportOptions) throws(ImportError) -> ImportedScenario {
        guard let first = dumps.first else { throw ImportError(path: "", line: 0, "no dump given", isUsage: true) }
        if let app = options.app, !ImportNames.isValid(app) {
            throw ImportError(path: first.path, line: 0, "--app \(app): expected a name of [a-z0-9-]+ of at most "
                + "\(ScenarioLimits.nameLength) characters, such as " + ImportNames.valid(app), isUsage: true)
        }
        if let screen = options.screen, !ImportNames.isValid(screen) || screen.hasPrefix("ui-") {
            throw ImportError(path: first.path, line: 0, "--screen \(screen): expected a name of [a-z0-9-]+ of at most \(ScenarioLimits.nameLength) "
                + "characters, not starting with ui-, "
                + "such as \(ImportNames.valid(screen, fallback: "main"))", isUsage: true)
        }
        var imported: ImportedScenario
        switch format {
        case .meminfo:
            guard dumps.count == 1 else {
                throw ImportError(path: dumps[1].path, line: 0, "meminfo reads one dump (put a loop's prints in one file), found \(dumps.count) files",
                                  isUsage: true)
            }
            imported = try MeminfoImporter.importScenario(first, options: options)
        case .views:
            imported = try viewsScenario(dumps, options: options)
        case .uiautomator:
            imported = try UIAutomatorImporter.importScenario(dumps, options: options)
        case .vmmap:
            guard dumps.count == 1 else {
                throw ImportError(path: dumps[1].path, line: 0, "vmmap reads one dump (put several prints in one file), found \(dumps.count) files",
                                  isUsage: true)
            }
            imported = try VmmapImporter.importScenario(first, options: options)
        case .jetsam:
            // A report of the whole device, not of one app: a scenario of its own (JetsamImporter).
            throw ImportError(path: first.path, line: 0, "a jetsam report imports with JetsamImporter, not as one app", isUsage: true)
        }
        // A profile the scenario would name must be one: read now (a file holding only
        // `profile: 1` is refused here, not written into a scenario that fails later).
        if let profile = options.profile, format != .views {
            do { _ = try ProfileLibrary.load(ProfileReference(profile)) } catch {
                throw ImportError(path: first.path, line: 0, "--profile \(profile): expected a device profile, found: "
                    + error.diagnostics.map { $0.line == 0 ? $0.message : $0.description }.joined(separator: "; "), isUsage: true)
            }
        }
        if let memory = options.memory {
            imported.deviceMemoryBytes = memory
            imported.memorySource = .option
        }
        if let scale = options.memoryScale, scale > 1 {
            imported.memoryScale = scale
            imported.notes.append("--memory-scale \(scale): simulated at 1/\(scale) of the dump's size; every byte figure is declared at "
                + "1/\(scale) (its comment gives the dump's) and results are reported at full size (docs/importing.md).")
        }
        for dump in dumps where dump.decodedFrom != nil {
            imported.notes.insert("\(dump.path) was read as \(dump.decodedFrom!).", at: 1)
        }
        for screen in imported.app.screens where screen.notes.contains(where: { $0.hasPrefix("Fanout ") }) {
            imported.warnings.append("\(first.path): screen \(screen.name): the tree's mean fanout is more than the "
                + "\(ViewTreeImporter.maximumFanout) a scenario takes: written as \(ViewTreeImporter.maximumFanout) (the view count is the dump's)")
        }
        return imported
    }

    /// `views`: one screen a dump (`--screen` names the first; the others are named by their
    /// file), in one app (`--app`, else named by the first file). The display scale is chosen
    /// from the first dump's window (``DisplayScale``).
    static func viewsScenario(_ dumps: [DumpText], options: ImportOptions) throws(ImportError) -> ImportedScenario {
        let profile = options.profile ?? ImportFormat.views.defaultProfile
        var app = ImportedScenario.App(name: options.app ?? ImportNames.valid(fileStem(dumps[0].path)))
        var display: DisplayScale?
        var notes: [String] = []
        for (index, dump) in dumps.enumerated() {
            let (views, results) = try RecursiveDescriptionReader.read(dump)
            if display == nil {
                display = try DisplayScale.choose(given: options.scale, profile: profile, explicit: options.profile != nil,
                                                  window: views.first, path: dump.path)
            }
            if results > 1 {
                notes.append("\(dump.path): \(results) recursiveDescription results in the session; the largest, at lines "
                             + "\(views.first!.line)-\(views.last!.line), is read.")
            }
            var name = index == 0 ? (options.screen ?? "main") : ImportNames.valid(fileStem(dump.path), fallback: "screen-\(index + 1)")
            if app.screens.contains(where: { $0.name == name }) { name += "-\(index + 1)" }
            app.screens.append(ViewTreeImporter.screen(views, name: name, scale: display!.scale, text: dump))
        }
        let scale = display!
        notes = ["Imported by pressurelab import views from \(dumps.map(\.path).joined(separator: ", ")): UIKit's recursiveDescription.",
                 "Display scale \(ViewTreeImporter.format(scale.scale)) (\(scale.source)); views hold no model or data in this dump: "
                 + "the app declares none."] + notes
        var imported = ImportedScenario(notes: notes, deviceMemoryBytes: 0, profile: profile, app: app)
        imported.deviceMemoryBytes = ImportedScenario.roomyDevice(for: imported.declaredDirtyBytes)
        if let warning = scale.warning { imported.warnings.append(warning) }
        return imported
    }

    static func fileStem(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.split(separator: ".").first.map(String.init) ?? name
    }

    /// The scenario text to write: the imported scenario, or with `merge` (the existing
    /// scenario's text and path) that text with the app, or the screen, appended. Either is
    /// checked by ``ScenarioLoader`` as the file it will be, at `destination` (where it is
    /// written: its relative paths are read from there; nil: standard output, read from the
    /// working directory): an import that would not validate is an error that names the dump
    /// (or the merged scenario), never the file that is not written. `requestedProfile` is
    /// `--profile`: under a merge it must be the scenario's own (a merge keeps the device).
    package static func render(_ imported: ImportedScenario, merge: (text: String, path: String)? = nil, destination: String? = nil,
                              dumps: [String] = [], requestedProfile: String? = nil,
                              loader: ScenarioLoader = ScenarioLoader()) throws(ImportError) -> String {
        let source = merge?.path ?? dumps.first ?? "the dump"
        if imported.scaled(imported.deviceMemoryBytes) > loader.hostLimitBytes, merge == nil {
            throw hostError(imported, source: source, limit: loader.hostLimitBytes)
        }
        let text: String
        if let merge {
            text = try ScenarioMerge.merge(imported, into: merge.text, path: merge.path, requestedProfile: requestedProfile, loader: loader)
        } else {
            text = imported.yaml
        }
        let checkedAt = destination ?? merge?.path ?? "standard output"
        do {
            _ = try loader.parse(text, path: checkedAt)
        } catch {
            let moved = merge != nil && destination != nil && destination != merge?.path
            let problems = error.diagnostics.map { diagnostic in
                (diagnostic.key.isEmpty ? "" : "\(diagnostic.key): ") + diagnostic.message
                    + (diagnostic.line > 0 ? " (line \(diagnostic.line) of the text it would write)" : "")
            }
            let tooBig = merge == nil && error.diagnostics.contains { $0.message.contains("this host allows a simulation") }
            throw ImportError(path: source, line: 0, "the scenario it would write to \(destination ?? "standard output") does not validate "
                + "there, so nothing is written: " + problems.joined(separator: "; ")
                + (tooBig ? "; for a dump, give --memory-scale \(suggestedScale(imported, limit: loader.hostLimitBytes)) to simulate the "
                    + "process at that fraction of its size, every figure reported at full size" : "")
                + (moved ? " (relative paths in \(merge!.path) are read from the folder it is written to; write it beside "
                    + "\(merge!.path), or make them absolute)" : ""))
        }
        return text
    }

    /// Checks scenario text an importer wrote, as `validate` would: a scenario that does not
    /// validate is an error naming `source`, and nothing is written.
    package static func check(_ text: String, source: String, destination: String?,
                              loader: ScenarioLoader = ScenarioLoader()) throws(ImportError) -> Scenario {
        do {
            return try loader.parse(text, path: destination ?? "standard output")
        } catch {
            let problems = error.diagnostics.map { ($0.key.isEmpty ? "" : "\($0.key): ") + $0.message }
            throw ImportError(path: source, line: 0, "the scenario it would write to \(destination ?? "standard output") does not "
                + "validate, so nothing is written: " + problems.joined(separator: "; "))
        }
    }

    /// The device does not fit this host: said naming the dump and `--memory` (exit 64 when
    /// `--memory` gave it, 65 when the importer chose it: docs/limits.md).
    static func hostError(_ imported: ImportedScenario, source: String, limit: Int) -> ImportError {
        let memory = ImportedScenario.mebibytes(imported.deviceMemoryBytes)
        if imported.memorySource == .option {
            let scaled = imported.memoryScale > 1 ? " (\(ImportedScenario.mebibytes(imported.scaled(imported.deviceMemoryBytes))) at "
                + "--memory-scale \(imported.memoryScale))" : ""
            return ImportError(path: source, line: 0, "--memory \(imported.deviceMemoryBytes): expected at most the \(limit) bytes "
                + "(\(ImportedScenario.mebibytes(limit))) this host allows a simulation, found \(memory)\(scaled); give less, or "
                + "--memory-scale \(suggestedScale(imported, limit: limit)) to simulate the device at that fraction of its size", isUsage: true)
        }
        let scale = imported.memoryScale > 1 ? " at --memory-scale \(imported.memoryScale), \(imported.scaled(imported.deviceMemoryBytes)) bytes," : ""
        return ImportError(path: source, line: 0, "the imported device's memory, \(imported.deviceMemoryBytes) bytes (\(memory): twice "
            + "what the app declares, \(ImportedScenario.mebibytes(imported.modelledBytes)), room for its first run),\(scale) is more than the "
            + "\(limit) bytes (\(ImportedScenario.mebibytes(limit))) this host allows a simulation; give --memory-scale "
            + "\(suggestedScale(imported, limit: limit)) to simulate the process at that fraction of its size (every figure reported at "
            + "full size), or --memory BYTES of at most \(limit) (the app then runs under pressure)")
    }

    /// The smallest `--memory-scale` at which the device and everything the app declares (the
    /// most a run can hold: the budget plus the largest allocation, docs/limits.md) fit `limit`.
    static func suggestedScale(_ imported: ImportedScenario, limit: Int) -> Int {
        let whole = imported.deviceMemoryBytes + imported.modelledBytes
        return max(2, (whole + limit - 1) / max(1, limit))
    }
}
