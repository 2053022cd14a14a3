import PressureLab
import PressureLabHarness

/// `pressurelab import uiautomator`: Android screens from `uiautomator dump` XML, through the
/// views importer's tree model (``ViewTreeImporter``) with pixels instead of points.
///
/// Which nodes draw (a backing store of their bounds, w x h px x 4 B: bounds are already
/// pixels, so no scale): a node whose class's simple name contains `TextView`, `ImageView`,
/// `Button` or `EditText` (so `AppCompatTextView`, `ImageButton`, `RadioButton`,
/// `MaterialButton`, `AutoCompleteTextView` too), and a leaf that is the app's own view: a
/// class outside `android.`/`androidx.`, or `android.view.View` itself, the accessibility
/// class a custom view (and a Compose node) reports. Framework containers (`FrameLayout`,
/// `LinearLayout`, ...) do not. A node of zero or negative size draws nothing, nor one with
/// `visible-to-user="false"`. The children of a `RecyclerView`, `ListView` or `GridView` are
/// the cells of a table screen.
package enum UIAutomatorImporter {
    static let drawingNames = ["TextView", "ImageView", "Button", "EditText"]
    static let listNames = ["RecyclerView", "ListView", "GridView"]

    static func simpleName(_ className: String) -> Substring {
        className.split(separator: ".").last ?? Substring(className)
    }

    /// One screen a dump (`--screen` names the first, the others by their file), in one app
    /// named by the package (or `--app`).
    package static func importScenario(_ dumps: [DumpText], options: ImportOptions) throws(ImportError) -> ImportedScenario {
        if options.scale != nil {
            throw ImportError(path: dumps[0].path, line: 0, "--scale: expected no scale for uiautomator, whose bounds are pixels already, "
                + "found --scale \(ViewTreeImporter.format(options.scale!))", isUsage: true)
        }
        var app: ImportedScenario.App?
        var notes: [String] = []
        for (index, dump) in dumps.enumerated() {
            let (rotation, nodes) = try UIAutomatorReader.nodes(dump)
            let package = try choosePackage(nodes, text: dump, options: options)
            let views = self.views(nodes, package: package)
            if app == nil { app = ImportedScenario.App(name: options.app ?? ImportNames.valid(package)) }
            var name = index == 0 ? (options.screen ?? "main") : ImportNames.valid(Importers.fileStem(dump.path), fallback: "screen-\(index + 1)")
            if app!.screens.contains(where: { $0.name == name }) { name += "-\(index + 1)" }
            var screen = ViewTreeImporter.screen(views, name: name, scale: 1, text: dump, unit: "px")
            let chosen = nodes.filter { $0.package == package }
            var counts: [String: Int] = [:]
            for node in chosen { counts[node.className, default: 0] += 1 }
            let classes = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            screen.notes = screen.notes + ["\(dump.path): package \(package), \(chosen.count) of \(nodes.count) nodes; rotation \(rotation ?? "not printed"); "
                            + "\(chosen.filter(\.naf).count) NAF=\"true\" (imported like the others).",
                            "Classes: " + classes.prefix(16).map { "\($0.key) x\($0.value)" }.joined(separator: ", ")
                            + (classes.count > 16 ? ", ... (\(classes.count) classes)" : "") + "."]
            let others = Set(nodes.map(\.package)).subtracting([package]).sorted()
            if !others.isEmpty { screen.notes.append("Other packages in the dump, not imported: \(others.joined(separator: ", ")).") }
            app!.screens.append(screen)
        }
        notes = ["Imported by pressurelab import uiautomator from \(dumps.map(\.path).joined(separator: ", ")): uiautomator dump XML.",
                 "Bounds are pixels: a backing store is w x h x 4 B, no scale; views hold no model or data in this dump: the app declares none."]
        var imported = ImportedScenario(notes: notes, deviceMemoryBytes: 0, profile: options.profile ?? ImportFormat.uiautomator.defaultProfile, app: app!)
        imported.deviceMemoryBytes = ImportedScenario.roomyDevice(for: imported.declaredDirtyBytes)
        return imported
    }

    /// The package: `--process`, else the only one, else the one `--app` names (its package or
    /// the name made from it); several without a choice is an error listing them.
    static func choosePackage(_ nodes: [AutomatorNode], text: DumpText, options: ImportOptions) throws(ImportError) -> String {
        var packages: [String] = []
        var counts: [String: Int] = [:]
        for node in nodes {
            if counts[node.package] == nil { packages.append(node.package) }
            counts[node.package, default: 0] += 1
        }
        let listed = packages.map { package in
            let first = nodes.first { $0.package == package }!
            return "\(package.isEmpty ? "(no package)" : package) (\(counts[package]!) node\(counts[package]! == 1 ? "" : "s"), from \(first.line):\(first.column))"
        }.joined(separator: ", ")
        if let process = options.process {
            guard packages.contains(process) else {
                throw ImportError(path: text.path, line: 0, "--process \(process): expected one of the dump's packages, found none of that name; "
                    + "the dump has \(listed)", isUsage: true)
            }
            return process
        }
        if packages.count == 1 { return packages[0] }
        if let app = options.app, let match = packages.first(where: { $0 == app || ImportNames.valid($0) == app }) { return match }
        let second = nodes.first { $0.package != packages[0] }!
        throw text.error(second.line, "expected one package, found \(packages.count): \(listed); choose one with --process PACKAGE "
            + "(or --app NAME made from it)")
    }

    /// The package's nodes as views, in preorder: each subtree of the package from its own
    /// root (several are several roots), classes deciding what draws and what is a cell.
    static func views(_ nodes: [AutomatorNode], package: String) -> [DumpedView] {
        var depth = [Int](repeating: -1, count: nodes.count)
        var childrenInPackage = [Int](repeating: 0, count: nodes.count)
        var parentInPackage = [Int?](repeating: nil, count: nodes.count)
        for (index, node) in nodes.enumerated() where node.package == package {
            var ancestor = node.parent
            while let current = ancestor, nodes[current].package != package { ancestor = nodes[current].parent }
            parentInPackage[index] = ancestor
            depth[index] = ancestor.map { depth[$0] + 1 } ?? 0
            if let ancestor { childrenInPackage[ancestor] += 1 }
        }
        var views: [DumpedView] = []
        for (index, node) in nodes.enumerated() where node.package == package {
            let simple = simpleName(node.className)
            let leaf = childrenInPackage[index] == 0
            let appView = node.className == "android.view.View" || !(node.className.hasPrefix("android.") || node.className.hasPrefix("androidx."))
            let draws = drawingNames.contains { simple.contains($0) } || (leaf && appView && !node.className.isEmpty)
            let inList = parentInPackage[index].map { parent in listNames.contains { simpleName(nodes[parent].className).hasSuffix($0) } } ?? false
            views.append(DumpedView(depth: depth[index], className: node.className.isEmpty ? "(no class)" : node.className,
                                    width: Double(node.right) - Double(node.left), height: Double(node.bottom) - Double(node.top),
                                    hidden: node.invisible, line: node.line, column: node.column, drawsOverride: draws, isCellOverride: inList))
        }
        return views
    }
}
