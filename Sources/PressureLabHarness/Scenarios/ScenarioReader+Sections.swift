import PressureLab
import Yams

/// The sections of a scenario: top level, device, apps and screens.
extension ScenarioReader {
    mutating func scenario(_ root: Node) -> Scenario? {
        guard let top = mapping(root, "", allowed: Self.topKeys) else { return nil }
        if let version = required(top, "scenario", in: root, path: "") {
            if version.int != 1 {
                error(version, "scenario", "unsupported format version \(describe(version)); this build reads version 1")
            }
        }
        let name = required(top, "name", in: root, path: "").flatMap { self.name($0, "name") }
        let description = value(top, "description").flatMap { string($0, "description") } ?? ""
        let seed = value(top, "seed").flatMap { int($0, "seed", min: 0) } ?? 0
        let device = required(top, "device", in: root, path: "").flatMap { self.device($0) }
        let apps = required(top, "apps", in: root, path: "").flatMap { self.apps($0) } ?? []
        let script = required(top, "script", in: root, path: "").flatMap { node in
            steps(node, "script", apps: apps, depth: 0)
        } ?? []
        if let scriptNode = value(top, "script"), script.isEmpty, diagnostics.isEmpty {
            error(scriptNode, "script", "the script has no steps")
        }
        if let device, let deviceNode = value(top, "device") {
            checkHost(device: device, apps: apps, node: deviceNode)
        }
        guard let name, let device else { return nil }
        return Scenario(name: name, description: description, seed: UInt64(seed), device: device, apps: apps,
                        script: script, path: path)
    }

    mutating func checkHost(device: Scenario.DeviceSpec, apps: [Scenario.AppSpec], node: Node) {
        if device.memoryBytes > hostLimitBytes {
            error(node, "device.memory", "the budget of \(device.memoryBytes) bytes is more than the \(hostLimitBytes) bytes "
                + "this host allows a simulation (a safe share of its physical memory or cgroup limit)")
        }
        let declared = apps.reduce(0) { total, app in total + app.dataBytes + app.screens.reduce(0) { $0 + $1.declaredBytes } }
        if declared > hostLimitBytes {
            error(node, "apps", "the apps declare \(declared) bytes (one instance of each screen), more than the "
                + "\(hostLimitBytes) bytes this host allows a simulation")
        }
    }

    mutating func device(_ node: Node) -> Scenario.DeviceSpec? {
        guard let map = mapping(node, "device", allowed: Self.deviceKeys) else { return nil }
        let memory = required(map, "memory", in: node, path: "device").flatMap { bytes($0, "device.memory") }
        if let memory, memory < 1 << 20 {
            error(value(map, "memory"), "device.memory", "a budget of \(memory) bytes is too small; give at least 1MiB")
        }
        var thresholds = PressureThresholds.default
        if let pressure = value(map, "pressure"), let levels = mapping(pressure, "device.pressure", allowed: ["warning", "critical"]) {
            for (levelName, levelNode) in levels {
                guard let levelName = levelName.string, ["warning", "critical"].contains(levelName) else { continue }
                let key = "device.pressure.\(levelName)"
                guard let pair = mapping(levelNode, key, allowed: ["rise", "clear"]) else { continue }
                let rise = required(pair, "rise", in: levelNode, path: key).flatMap { fraction($0, "\(key).rise") }
                let clear = required(pair, "clear", in: levelNode, path: key).flatMap { fraction($0, "\(key).clear") }
                if levelName == "warning" {
                    thresholds.warningRise = rise ?? thresholds.warningRise
                    thresholds.warningClear = clear ?? thresholds.warningClear
                } else {
                    thresholds.criticalRise = rise ?? thresholds.criticalRise
                    thresholds.criticalClear = clear ?? thresholds.criticalClear
                }
            }
            if let problem = thresholds.problem { error(pressure, "device.pressure", problem) }
        }
        let limit = value(map, "app_limit").flatMap { bytes($0, "device.app_limit") }
        guard let memory else { return nil }
        return Scenario.DeviceSpec(memoryBytes: memory, thresholds: thresholds, appLimitBytes: limit)
    }

    mutating func apps(_ node: Node) -> [Scenario.AppSpec]? {
        guard let map = node.mapping, !map.isEmpty else {
            error(node, "apps", "expected a mapping of app names to apps (at least one)")
            return nil
        }
        var apps: [Scenario.AppSpec] = []
        for (nameNode, appNode) in map {
            guard let appName = name(nameNode, "apps") else { continue }
            if let app = self.app(appName, appNode) { apps.append(app) }
        }
        return apps
    }

    mutating func app(_ appName: String, _ node: Node) -> Scenario.AppSpec? {
        let key = "apps.\(appName)"
        guard let map = mapping(node, key, allowed: Self.appKeys) else { return nil }
        let data = value(map, "data").flatMap { bytes($0, "\(key).data") } ?? 0
        var screens: [ScreenSpec] = []
        if let screensNode = required(map, "screens", in: node, path: key) {
            if let screenMap = screensNode.mapping, !screenMap.isEmpty {
                for (screenName, screenNode) in screenMap {
                    guard let name = self.name(screenName, "\(key).screens") else { continue }
                    if name.hasPrefix("ui-") {
                        error(screenName, "\(key).screens.\(name)", "screen names starting with 'ui-' are reserved for UIKit's containers")
                        continue
                    }
                    if let screen = self.screen(name, screenNode, key: "\(key).screens.\(name)") { screens.append(screen) }
                }
            } else {
                error(screensNode, "\(key).screens", "expected a mapping of screen names to screens (at least one)")
            }
        }
        let names = Set(screens.map(\.name))
        let root = required(map, "root", in: node, path: key).flatMap { hierarchy($0, key: "\(key).root", screens: names, top: true) }
        guard let root else { return nil }
        return Scenario.AppSpec(name: appName, dataBytes: data, screens: screens, root: root)
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
                if let count = int(views, "\(key).tree.views", min: 1, max: 1_000_000) {
                    let fanout = value(tree, "fanout").flatMap { int($0, "\(key).tree.fanout", min: 1, max: 10_000) } ?? 4
                    view = try? ViewDescription.balanced(count: count, fanout: fanout, bytes: bytesPerView, rootBacking: backing)
                }
            } else {
                let depth = value(tree, "depth").flatMap { int($0, "\(key).tree.depth", min: 0, max: 20) } ?? 1
                let fanout = value(tree, "fanout").flatMap { int($0, "\(key).tree.fanout", min: 0, max: 10_000) } ?? 1
                do {
                    view = try ViewDescription.tree(depth: depth, fanout: fanout, bytes: bytesPerView, rootBacking: backing)
                } catch {
                    self.error(treeNode, "\(key).tree", "\(error.description); use fewer levels or a smaller fanout")
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
        guard let view else { return nil }
        if outlets > view.viewCount - 1 {
            error(value(map, "outlets"), "\(key).outlets", "\(outlets) outlets but the tree has only \(view.viewCount - 1) subviews")
            return nil
        }
        if kind == "table", table == nil { return nil }
        return ScreenSpec(name: name, view: view, outlets: outlets, releasesOutlets: releases, cacheBytes: cache,
                          modelBytes: model, table: table)
    }

    mutating func hierarchy(_ node: Node, key: String, screens: Set<String>, top: Bool) -> HierarchySpec? {
        if let scalar = node.scalar {
            guard screens.contains(scalar.string) else {
                error(node, key, "unknown screen '\(scalar.string)'; screens of this app: \(screens.sorted().joined(separator: ", "))")
                return nil
            }
            return .screen(scalar.string)
        }
        guard let map = mapping(node, key, allowed: top ? ["nav", "tabs", "selected"] : ["nav"]) else { return nil }
        if let navNode = value(map, "nav") {
            guard let screen = string(navNode, "\(key).nav") else { return nil }
            guard screens.contains(screen) else {
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
