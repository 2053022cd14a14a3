/// The one door for `pressurelab import`: dumps in, scenario text out, checked by the
/// scenario reader before anything is written.
public enum Importers {
    /// Imports the dumps of `format` (already read) into a scenario.
    public static func importScenario(_ format: ImportFormat, _ dumps: [DumpText],
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
        case .views, .uiautomator, .vmmap:
            throw ImportError(path: first.path, line: 0, "the \(format.rawValue) importer is not built yet (docs/importing.md)", isUsage: true)
        }
    }

    /// The scenario text to write: the imported scenario, or with `merge` (the existing
    /// scenario's text and path) that text with the app, or the screen, appended. Either is
    /// checked by ``ScenarioLoader``: an import that would not validate is an error.
    public static func render(_ imported: ImportedScenario, merge: (text: String, path: String)? = nil,
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
