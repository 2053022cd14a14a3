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
            throw ImportError(path: first.path, line: 0, "--app \(app): expected a name of [a-z0-9-]+, such as "
                + ImportNames.valid(app), isUsage: true)
        }
        if let screen = options.screen, !ImportNames.isValid(screen) || screen.hasPrefix("ui-") {
            throw ImportError(path: first.path, line: 0, "--screen \(screen): expected a name of [a-z0-9-]+ not starting with ui-, "
                + "such as \(ImportNames.valid(screen, fallback: "main"))", isUsage: true)
        }
        switch format {
        case .meminfo:
            guard dumps.count == 1 else {
                throw ImportError(path: dumps[1].path, line: 0, "meminfo reads one dump (put a loop's prints in one file), found \(dumps.count) files",
                                  isUsage: true)
            }
            return try MeminfoImporter.importScenario(first, options: options)
        case .views:
            return try viewsScenario(dumps, options: options)
        case .uiautomator:
            return try UIAutomatorImporter.importScenario(dumps, options: options)
        case .vmmap:
            guard dumps.count == 1 else {
                throw ImportError(path: dumps[1].path, line: 0, "vmmap reads one dump (put several prints in one file), found \(dumps.count) files",
                                  isUsage: true)
            }
            return try VmmapImporter.importScenario(first, options: options)
        }
    }

    /// `views`: one screen a dump (`--screen` names the first; the others are named by their
    /// file), in one app (`--app`, else named by the first file).
    static func viewsScenario(_ dumps: [DumpText], options: ImportOptions) throws(ImportError) -> ImportedScenario {
        let profile = options.profile ?? ImportFormat.views.defaultProfile
        let (scale, scaleNote) = try displayScale(options.scale, profile: profile, path: dumps[0].path)
        var app = ImportedScenario.App(name: options.app ?? ImportNames.valid(fileStem(dumps[0].path)))
        for (index, dump) in dumps.enumerated() {
            let views = try RecursiveDescriptionReader.views(dump)
            var name = index == 0 ? (options.screen ?? "main") : ImportNames.valid(fileStem(dump.path), fallback: "screen-\(index + 1)")
            if app.screens.contains(where: { $0.name == name }) { name += "-\(index + 1)" }
            app.screens.append(ViewTreeImporter.screen(views, name: name, scale: scale, text: dump))
        }
        let notes = ["Imported by pressurelab import views from \(dumps.map(\.path).joined(separator: ", ")): UIKit's recursiveDescription.",
                     "Display scale \(ViewTreeImporter.format(scale)) (\(scaleNote)); views hold no model or data in this dump: the app declares none."]
        var imported = ImportedScenario(notes: notes, deviceMemoryBytes: 0, profile: profile, app: app)
        imported.deviceMemoryBytes = ImportedScenario.roomyDevice(for: imported.declaredDirtyBytes)
        return imported
    }

    /// The scale frames in points are drawn at: `--scale`, else the profile's
    /// `display: { scale: }`, else ``ViewTreeImporter/defaultScale``; and where it came from.
    /// A profile that cannot be read is an error (exit 64): the scenario would name it.
    static func displayScale(_ given: Double?, profile: String, path: String) throws(ImportError) -> (Double, String) {
        if let given { return (given, "--scale") }
        let reference = ProfileReference(profile)
        let scale: Double?
        if case .bundled(let name) = reference, let bundled = bundledScales[name] {
            scale = bundled
        } else {
            do { scale = try ProfileLibrary.load(reference).displayScale } catch {
                throw ImportError(path: path, line: 0, "--profile \(profile): expected a profile to read the display scale from, found: "
                    + error.diagnostics.map(\.message).joined(separator: "; "), isUsage: true)
            }
        }
        guard let scale else {
            return (ViewTreeImporter.defaultScale, "profile \(profile) has no display.scale: the default, the iPhone XS's 3x")
        }
        return (scale, "profile \(profile)'s display.scale")
    }

    /// The bundled profiles' display scales, read once (fuzzing imports thousands of dumps a second).
    static let bundledScales: [String: Double?] = {
        guard let profiles = try? ProfileLibrary.all() else { return [:] }
        return Dictionary(profiles.map { ($0.name, $0.displayScale) }, uniquingKeysWith: { first, _ in first })
    }()

    static func fileStem(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.split(separator: ".").first.map(String.init) ?? name
    }

    /// The scenario text to write: the imported scenario, or with `merge` (the existing
    /// scenario's text and path) that text with the app, or the screen, appended. Either is
    /// checked by ``ScenarioLoader``: an import that would not validate is an error.
    package static func render(_ imported: ImportedScenario, merge: (text: String, path: String)? = nil,
                              loader: ScenarioLoader = ScenarioLoader()) throws(ImportError) -> String {
        let text: String
        let path: String
        if let merge {
            text = try ScenarioMerge.merge(imported, into: merge.text, path: merge.path, loader: loader)
            path = merge.path
        } else {
            text = imported.yaml
            path = "the imported scenario"
        }
        do {
            _ = try loader.parse(text, path: path)
        } catch {
            let first = error.diagnostics.first
            throw ImportError(path: path, line: first?.line ?? 0, "the scenario it would write does not validate: "
                + error.diagnostics.map(\.message).joined(separator: "; "))
        }
        return text
    }
}
