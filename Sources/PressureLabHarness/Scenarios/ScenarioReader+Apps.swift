import PressureLab
import PressureLabHeap
import SystemPackage
import Yams

/// The `apps` section: each app, its screens and its root hierarchy.
extension ScenarioReader {
    mutating func apps(_ node: Node) -> [Scenario.AppSpec]? {
        guard let map = node.mapping, !map.isEmpty else {
            error(node, "apps", "expected a mapping of app names to apps (at least one)")
            return nil
        }
        var apps: [Scenario.AppSpec] = []
        for (_, nameNode, appNode) in distinctNames(map, "apps", what: "app") {
            guard let appName = name(nameNode, "apps") else {
                failedApps.insert(nameNode.string ?? "")  // said once: later references are not unknown
                continue
            }
            if let app = self.app(appName, appNode) {
                apps.append(app)
            } else {
                // Said once: a step that names the app or one of its screens is not reported as unknown.
                failedApps.insert(appName)
                if let screens = appNode.mapping.flatMap({ value($0, "screens") })?.mapping {
                    for (screenKey, _) in screens { if let screen = screenKey.string { failedScreens.insert(screen) } }
                }
            }
        }
        return apps
    }

    mutating func app(_ appName: String, _ node: Node) -> Scenario.AppSpec? {
        let key = "apps.\(appName)"
        guard let map = mapping(node, key, allowed: Self.appKeys) else { return nil }
        let data = value(map, "data").flatMap { bytes($0, "\(key).data") } ?? 0
        if let dataNode = value(map, "data") { declarationSites.append((data, dataNode, "\(key).data")) }
        let clean = value(map, "clean").flatMap { bytes($0, "\(key).clean") } ?? 0
        if let cleanNode = value(map, "clean") { declarationSites.append((clean, cleanNode, "\(key).clean")) }
        let gpu = value(map, "gpu").flatMap { bytes($0, "\(key).gpu") } ?? 0
        if let gpuNode = value(map, "gpu") { declarationSites.append((gpu, gpuNode, "\(key).gpu")) }
        var screens: [ScreenSpec] = []
        if let screensNode = required(map, "screens", in: node, path: key) {
            if let screenMap = screensNode.mapping, !screenMap.isEmpty {
                for (_, screenName, screenNode) in distinctNames(screenMap, "\(key).screens", what: "screen") {
                    guard let name = self.name(screenName, "\(key).screens") else {
                        failedScreens.insert(screenName.string ?? "")
                        continue
                    }
                    if name.hasPrefix("ui-") {
                        error(screenName, "\(key).screens.\(name)", "screen names starting with 'ui-' are reserved for UIKit's containers")
                        continue
                    }
                    if let screen = self.screen(name, screenNode, key: "\(key).screens.\(name)") {
                        screens.append(screen)
                        declarationSites.append((screen.worstCaseBytes, screenName, "\(key).screens.\(name)"))
                    } else {
                        failedScreens.insert(name)
                    }
                }
            } else {
                error(screensNode, "\(key).screens", "expected a mapping of screen names to screens (at least one)")
            }
        }
        let names = Set(screens.map(\.name))
        let root = required(map, "root", in: node, path: key).flatMap { hierarchy($0, key: "\(key).root", screens: names, top: true) }
        let background = value(map, "background").flatMap { backgroundMode($0, "\(key).background") }
        var onBackground: Set<ReleasableItem> = []
        if let releasesNode = value(map, "on_background") {
            if let items = releasesNode.sequence {
                for item in items {
                    switch item.scalar?.string {
                    case "caches": onBackground.insert(.cache)
                    case "models": onBackground.insert(.model)
                    case "backing": onBackground.insert(.backingStores)
                    default:
                        error(item, "\(key).on_background", "unknown item \(describe(item)); items are caches, models, backing")
                    }
                }
            } else {
                error(releasesNode, "\(key).on_background", "expected a list such as [caches, models, backing], got \(describe(releasesNode))")
            }
        }
        let processes = value(map, "processes").map { self.processes($0, key: "\(key).processes") } ?? []
        var collectsEvery: Double?
        if let gcNode = value(map, "background_gc"), let seconds = seconds(gcNode, "\(key).background_gc") {
            if seconds > 0 { collectsEvery = seconds } else { error(gcNode, "\(key).background_gc", "must be more than 0 seconds") }
        }
        guard let root else { return nil }
        var app = Scenario.AppSpec(name: appName, dataBytes: data, cleanBytes: clean, gpuBytes: gpu, screens: screens, root: root,
                                   background: background, onBackground: onBackground, processes: processes)
        app.backgroundCollectionSeconds = collectsEvery
        return app
    }

    /// `processes: { NAME: { kind: isolated | bound | service, data: BYTES } }`: the processes
    /// an Android app runs beside its main one (docs/formats.md).
    mutating func processes(_ node: Node, key: String) -> [ProcessSpec] {
        guard let map = node.mapping else {
            error(node, key, "expected a mapping of process names to processes, such as { gpu: { kind: bound, data: 90MiB } }")
            return []
        }
        var processes: [ProcessSpec] = []
        for (_, nameNode, processNode) in distinctNames(map, key, what: "process") {
            guard let name = self.name(nameNode, key) else { continue }
            let path = "\(key).\(name)"
            guard let fields = mapping(processNode, path, allowed: ["kind", "data"]) else { continue }
            let kinds = ProcessKind.allCases.map(\.rawValue).joined(separator: ", ")
            var kind: ProcessKind?
            if let kindNode = required(fields, "kind", in: processNode, path: path), let text = string(kindNode, "\(path).kind") {
                kind = ProcessKind(rawValue: text)
                if kind == nil { error(kindNode, "\(path).kind", "unknown kind \(Self.quote(text)); valid kinds are \(kinds)") }
            }
            let dataNode = required(fields, "data", in: processNode, path: path)
            let data = dataNode.flatMap { bytes($0, "\(path).data") }
            if let data, let dataNode { declarationSites.append((data, dataNode, "\(path).data")) }
            if let kind, let data { processes.append(ProcessSpec(name: name, kind: kind, bytes: data)) }
        }
        return processes
    }

    mutating func screen(_ name: String, _ node: Node, key: String) -> ScreenSpec? {
        guard let map = mapping(node, key, allowed: Self.screenKeys) else { return nil }
        let kind = value(map, "kind").flatMap { string($0, "\(key).kind") } ?? "plain"
        if !["plain", "table"].contains(kind) {
            error(value(map, "kind"), "\(key).kind", "unknown kind '\(kind)'; valid kinds are plain, table")
        }
        let backing = value(map, "backing").flatMap { bytes($0, "\(key).backing") } ?? 0
        var view: ViewDescription?
        if let treeNode = value(map, "tree"), let tree = mapping(treeNode, "\(key).tree", allowed: ["depth", "fanout", "bytes", "views"]) {
            let bytesPerView = value(tree, "bytes").flatMap { bytes($0, "\(key).tree.bytes") } ?? 1024
            if let views = value(tree, "views") {
                if let count = int(views, "\(key).tree.views", min: 1, max: ScenarioLimits.viewsPerTree),
                   fitsHost(views: count, bytesPerView: bytesPerView, backing: backing, treeNode, backingNode: value(map, "backing"), key),
                   describes(views: count, treeNode, key) {
                    let fanout = value(tree, "fanout").flatMap { int($0, "\(key).tree.fanout", min: 1, max: 10_000) } ?? 4
                    view = try? ViewDescription.balanced(count: count, fanout: fanout, bytes: bytesPerView, rootBacking: backing)
                }
            } else {
                let depth = value(tree, "depth").flatMap { int($0, "\(key).tree.depth", min: 0, max: 20) } ?? 1
                let fanout = value(tree, "fanout").flatMap { int($0, "\(key).tree.fanout", min: 0, max: 10_000) } ?? 1
                // Count the views before building anything: a full tree has 1 + f + f^2 + ... views.
                var count = 1, level = 1
                for _ in 0..<depth where count <= ScenarioLimits.viewsPerTree {
                    level = level.multipliedSaturating(by: fanout)
                    count = count.addingSaturating(level)
                }
                if count > ScenarioLimits.viewsPerTree {
                    error(treeNode, "\(key).tree", "the tree has more than \(ScenarioLimits.viewsPerTree) views; use fewer levels or a smaller fanout")
                } else if fitsHost(views: count, bytesPerView: bytesPerView, backing: backing, treeNode, backingNode: value(map, "backing"), key),
                          describes(views: count, treeNode, key) {
                    do {
                        view = try ViewDescription.tree(depth: depth, fanout: fanout, bytes: bytesPerView, rootBacking: backing)
                    } catch {
                        self.error(treeNode, "\(key).tree", "\(error.description); use fewer levels or a smaller fanout")
                    }
                }
            }
        } else if kind == "table" {
            view = try? ViewDescription.single(bytes: 2048, backing: backing)
        } else if value(map, "tree") == nil {
            view = try? ViewDescription.single(bytes: 1024, backing: backing)
        }
        var table: TableSpec?
        if kind == "table" {
            let rows = required(map, "rows", in: node, path: key).flatMap { int($0, "\(key).rows", min: 0, max: 100_000_000) }
            let visible = required(map, "visible_rows", in: node, path: key).flatMap { int($0, "\(key).visible_rows", min: 1, max: 1000) }
            let pool = value(map, "reuse_pool").flatMap { int($0, "\(key).reuse_pool", min: 0, max: 1000) }
                ?? TableSpec.defaultReusePoolCapacity
            var cell: ViewDescription?
            if let cellNode = required(map, "cell", in: node, path: key), let cellMap = mapping(cellNode, "\(key).cell", allowed: ["views", "bytes"]) {
                let views = value(cellMap, "views").flatMap { int($0, "\(key).cell.views", min: 1, max: 1000) } ?? 1
                let total = value(cellMap, "bytes").flatMap { bytes($0, "\(key).cell.bytes") } ?? 1024
                cell = try? ViewDescription.wide(count: views, bytes: total / views)
            }
            if let rows, let visible, let cell { table = TableSpec(rows: rows, visibleRows: visible, cell: cell, reusePoolCapacity: pool) }
        } else {
            for tableKey in ["rows", "visible_rows", "cell", "reuse_pool"] {
                if let misplaced = value(map, tableKey) {
                    error(misplaced, "\(key).\(tableKey)", "'\(tableKey)' is for table screens; add 'kind: table'")
                }
            }
        }
        let outlets = value(map, "outlets").flatMap { int($0, "\(key).outlets", min: 0, max: 100_000) } ?? 0
        let releases = value(map, "releases_outlets").flatMap { bool($0, "\(key).releases_outlets") } ?? true
        let cache = value(map, "cache").flatMap { bytes($0, "\(key).cache") } ?? 0
        let model = value(map, "model").flatMap { bytes($0, "\(key).model") } ?? 0
        if model > 0, let modelNode = value(map, "model") { declarationSites.append((model, modelNode, "\(key).model")) }
        guard let view else { return nil }
        if outlets > view.viewCount - 1 {
            error(value(map, "outlets"), "\(key).outlets", "\(outlets) outlets but the tree has only \(view.viewCount - 1) subviews")
            return nil
        }
        if kind == "table", table == nil { return nil }
        return ScreenSpec(name: name, view: view, outlets: outlets, releasesOutlets: releases, cacheBytes: cache,
                          modelBytes: model, table: table)
    }

    /// Whether a tree of `views` views of `bytesPerView` bytes, and the screen's `backing`,
    /// fit the host, checked before the tree's description is built (saturating). The tree's
    /// bytes are said at the tree; the backing store's, alone or with the tree's, at `backing`.
    mutating func fitsHost(views: Int, bytesPerView: Int, backing: Int, _ node: Node, backingNode: Node?, _ key: String) -> Bool {
        let tree = views.multipliedSaturating(by: bytesPerView)
        if tree > hostLimitBytes {
            error(node, "\(key).tree", "the tree declares \(Self.count(tree)) bytes (\(views) views of \(bytesPerView) bytes), "
                + "more than the \(hostLimitBytes) bytes this host allows a simulation")
            return false
        }
        let both = tree.addingSaturating(backing)
        guard both > hostLimitBytes else { return true }
        error(backingNode ?? node, "\(key).backing", backing > hostLimitBytes
            ? "the backing store declares \(backing) bytes, more than the \(hostLimitBytes) bytes this host allows a simulation"
            : "the backing store (\(backing) bytes) and the tree (\(tree) bytes: \(views) views of \(bytesPerView) bytes) make "
                + "\(Self.count(both)) bytes, more than the \(hostLimitBytes) bytes this host allows a simulation")
        return false
    }

    mutating func hierarchy(_ node: Node, key: String, screens: Set<String>, top: Bool) -> HierarchySpec? {
        if let scalar = node.scalar {
            guard screens.contains(scalar.string) else {
                if failedScreens.contains(scalar.string) { return nil }
                error(node, key, "unknown screen '\(scalar.string)'; screens of this app: \(screens.sorted().joined(separator: ", "))")
                return nil
            }
            return .screen(scalar.string)
        }
        guard let map = mapping(node, key, allowed: top ? ["nav", "tabs", "selected"] : ["nav"]) else { return nil }
        if let navNode = value(map, "nav") {
            guard let screen = string(navNode, "\(key).nav") else { return nil }
            guard screens.contains(screen) else {
                if failedScreens.contains(screen) { return nil }
                error(navNode, "\(key).nav", "unknown screen '\(screen)'; screens of this app: \(screens.sorted().joined(separator: ", "))")
                return nil
            }
            return .nav(screen)
        }
        if let tabsNode = value(map, "tabs") {
            guard let items = tabsNode.sequence, !items.isEmpty else {
                error(tabsNode, "\(key).tabs", "expected a list of tabs (a screen or { nav: SCREEN } each)")
                return nil
            }
            var tabs: [HierarchySpec] = []
            for (index, item) in items.enumerated() {
                if let tab = hierarchy(item, key: "\(key).tabs[\(index)]", screens: screens, top: false) { tabs.append(tab) }
            }
            let selected = value(map, "selected").flatMap { int($0, "\(key).selected", min: 0, max: max(0, items.count - 1)) } ?? 0
            return tabs.count == items.count ? .tabs(tabs, selected: selected) : nil
        }
        error(node, key, "expected a screen name, { nav: SCREEN } or { tabs: [ ... ] }")
        return nil
    }
}
