import PressureLab
import PressureLabHeap
import SystemPackage
import Yams

/// The sections of a scenario: top level, device, apps and screens.
extension ScenarioReader {
    mutating func scenario(_ root: Node) -> Scenario? {
        guard let top = mapping(root, "", allowed: Self.topKeys) else { return nil }
        if let version = required(top, "scenario", in: root, path: "") {
            if version.wholeNumber != 1 {
                error(version, "scenario", "unsupported format version \(describe(version)); this build reads version 1")
            }
        }
        let name = required(top, "name", in: root, path: "").flatMap { self.name($0, "name") }
        let description = value(top, "description").flatMap { string($0, "description") } ?? ""
        let seed = value(top, "seed").flatMap { unsigned($0, "seed") } ?? 0
        let device = required(top, "device", in: root, path: "").flatMap { self.device($0) }
        let apps = required(top, "apps", in: root, path: "").flatMap { self.apps($0) } ?? []
        let script = required(top, "script", in: root, path: "").flatMap { node in
            steps(node, "script", apps: apps, depth: 0)
        } ?? []
        if let scriptNode = value(top, "script"), script.isEmpty, diagnostics.isEmpty {
            error(scriptNode, "script", "the script has no steps")
        }
        // References to a failed screen or app are not reported again; the failure itself
        // always is (this guards a read that failed without saying why).
        if diagnostics.isEmpty, let failed = (failedApps.sorted() + failedScreens.sorted()).first {
            error(value(top, "apps"), "apps", "'\(failed)' could not be read")
        }
        guard let name, let device else { return nil }
        let scenario = Scenario(name: name, description: description, seed: seed, device: device, apps: apps,
                                script: script, path: path, replay: replay)
        if diagnostics.isEmpty, let deviceNode = value(top, "device") {
            checkHost(scenario, deviceNode: deviceNode)
        }
        if diagnostics.isEmpty, let scriptNode = value(top, "script") {
            checkWork(scenario, scriptNode: scriptNode, appsNode: value(top, "apps"))
        }
        return scenario
    }

    /// The one host check: the budget, and the most the run can hold (everything declared,
    /// bounded by the budget plus one allocation), must fit what this host allows a
    /// simulation (a share of physical memory, the cgroup limit, RLIMIT_AS and RLIMIT_DATA).
    mutating func checkHost(_ scenario: Scenario, deviceNode: Node) {
        let budget = scenario.device.memoryBytes
        let memoryNode = deviceNode.mapping.flatMap { value($0, "memory") } ?? deviceNode
        if budget > hostLimitBytes {
            error(memoryNode, "device.memory", "the budget of \(budget) bytes is more than the \(hostLimitBytes) bytes "
                + "this host allows a simulation (a safe share of its physical memory, cgroup limit and process limits)")
            return
        }
        // Clean mapped files and model files are written to a disk file system: they must fit
        // what is free there.
        let files = scenario.declaredFileBytes
        if files > 0, let free = HostFiles.freeBytes(at: FilePath(TemporaryFiles.systemDirectory)), files > free / 2,
           let site = declarationSites.filter({ $0.key.hasSuffix(".clean") || $0.key.hasSuffix(".model") })
               .max(by: { $0.bytes < $1.bytes }) {
            error(site.node, site.key, "the apps' clean mapped files and the models of the screens the script can show take "
                + "\(Self.count(files)) bytes of disk, more than half of the \(free) bytes free in "
                + "\(TemporaryFiles.systemDirectory); declare less")
        }
        let declared = scenario.declaredMemory
        let worst = declared.worstCaseBytes(budgetBytes: budget)
        guard worst > hostLimitBytes else { return }
        let site = declarationSites.max { $0.bytes < $1.bytes }
        error(site?.node ?? memoryNode, site?.key ?? "device.memory",
              "the run could hold \(worst == Int.max ? "more than \(Int.max)" : String(worst)) bytes: the budget "
                + "(\(budget) bytes) plus the largest single allocation (\(declared.largestAllocationBytes) bytes"
                + (site == nil ? "" : ", this one") + "), more than the \(hostLimitBytes) bytes this host allows a "
                + "simulation; declare less or give a smaller budget")
    }

    /// The work half of the host check: what the script expands to must stay under
    /// ``ScenarioLimits`` (views built, steps times apps).
    mutating func checkWork(_ scenario: Scenario, scriptNode: Node, appsNode: Node?) {
        let work = scenario.declaredWork
        if work.viewsBuilt > ScenarioLimits.viewsBuilt {
            error(scriptNode, "script", "the script builds up to \(Self.count(work.viewsBuilt)) views (each push and present "
                + "its screen's tree, each launch and switch its app's launch screens, each pop, dismiss and tab switch the "
                + "largest screen it may reload, repeats multiplied), more than the "
                + "\(ScenarioLimits.viewsBuilt) a run may build; push fewer or smaller screens")
        }
        if work.appSteps > ScenarioLimits.appSteps {
            error(appsNode ?? scriptNode, "apps", "\(scenario.apps.count) apps and \(scenario.expandedStepCount) steps make "
                + "\(Self.count(work.appSteps)) app-steps (the device looks over every app at each step), more than the "
                + "\(ScenarioLimits.appSteps) a run may take; declare fewer apps or steps")
        }
    }

    /// A saturated count as text.
    static func count(_ value: Int) -> String { value == Int.max ? "more than \(Int.max)" : String(value) }

    /// Counts a tree's views against what the scenario's screens may describe in all
    /// (``ScenarioLimits/describedViews``), before the tree is built; an error when over.
    mutating func describes(views: Int, _ node: Node, _ key: String) -> Bool {
        let wasOver = describedViews > ScenarioLimits.describedViews
        describedViews = describedViews.addingSaturating(views)
        guard describedViews > ScenarioLimits.describedViews else { return true }
        guard !wasOver else { return false }  // said once, at the tree that went over
        error(node, "\(key).tree", "the screens describe \(Self.count(describedViews)) views with this tree (\(views) views), "
            + "more than the \(ScenarioLimits.describedViews) a scenario may describe; use smaller trees or fewer screens")
        return false
    }

    /// A whole number from 0 to 2^64-1 (a seed).
    mutating func unsigned(_ node: Node, _ key: String) -> UInt64? {
        guard let scalar = node.scalar, let value = UInt64(scalar.string.trimmingCharacters(in: .whitespaces)) else {
            error(node, key, "expected a whole number from 0 to \(UInt64.max), got \(describe(node))")
            return nil
        }
        return value
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
        let inactiveLimit = value(map, "app_limit_inactive").flatMap { bytes($0, "device.app_limit_inactive") }
        let profile = value(map, "profile").flatMap { self.name($0, "device.profile") }
        // The profile is read now, so that a name that reaches none fails validation, located
        // here, rather than the run.
        if let profile, let profileNode = value(map, "profile") {
            do {
                _ = try ProfileLibrary.load(ProfileReference(profile))
            } catch {
                let reasons = error.diagnostics.map { $0.line == 0 ? $0.message : $0.description }.joined(separator: "; ")
                self.error(profileNode, "device.profile", "cannot use the profile \(Self.quote(profile)): \(reasons)")
            }
        }
        let content = value(map, "content").map { contentRatios($0, "device.content") } ?? [:]
        var os: OSRelease?
        if let osNode = value(map, "os") {
            let releases = OSRelease.allCases.map(\.rawValue)
            if let text = osNode.scalar?.string, let release = OSRelease(rawValue: text) {
                os = release
            } else {
                error(osNode, "device.os", "unknown OS release \(describe(osNode)); releases are \(releases.joined(separator: ", "))")
            }
        }
        guard let memory else { return nil }
        return Scenario.DeviceSpec(memoryBytes: memory, thresholds: thresholds, appLimitBytes: limit, profile: profile,
                                   content: content, os: os, appLimitInactiveBytes: inactiveLimit)
    }

    mutating func apps(_ node: Node) -> [Scenario.AppSpec]? {
        guard let map = node.mapping, !map.isEmpty else {
            error(node, "apps", "expected a mapping of app names to apps (at least one)")
            return nil
        }
        var apps: [Scenario.AppSpec] = []
        for (_, nameNode, appNode) in distinctNames(map, "apps", what: "app") {
            guard let appName = name(nameNode, "apps") else { continue }
            if let app = self.app(appName, appNode) { apps.append(app) } else { failedApps.insert(appName) }
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
        var screens: [ScreenSpec] = []
        if let screensNode = required(map, "screens", in: node, path: key) {
            if let screenMap = screensNode.mapping, !screenMap.isEmpty {
                for (_, screenName, screenNode) in distinctNames(screenMap, "\(key).screens", what: "screen") {
                    guard let name = self.name(screenName, "\(key).screens") else { continue }
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
        guard let root else { return nil }
        return Scenario.AppSpec(name: appName, dataBytes: data, cleanBytes: clean, screens: screens, root: root,
                                background: background, onBackground: onBackground)
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
                if let count = int(views, "\(key).tree.views", min: 1, max: Self.maximumViewsPerTree),
                   fitsHost(views: count, bytesPerView: bytesPerView, backing: backing, treeNode, key),
                   describes(views: count, treeNode, key) {
                    let fanout = value(tree, "fanout").flatMap { int($0, "\(key).tree.fanout", min: 1, max: 10_000) } ?? 4
                    view = try? ViewDescription.balanced(count: count, fanout: fanout, bytes: bytesPerView, rootBacking: backing)
                }
            } else {
                let depth = value(tree, "depth").flatMap { int($0, "\(key).tree.depth", min: 0, max: 20) } ?? 1
                let fanout = value(tree, "fanout").flatMap { int($0, "\(key).tree.fanout", min: 0, max: 10_000) } ?? 1
                // Count the views before building anything: a full tree has 1 + f + f^2 + ... views.
                var count = 1, level = 1
                for _ in 0..<depth where count <= Self.maximumViewsPerTree {
                    level = level.multipliedSaturating(by: fanout)
                    count = count.addingSaturating(level)
                }
                if count > Self.maximumViewsPerTree {
                    error(treeNode, "\(key).tree", "the tree has more than \(Self.maximumViewsPerTree) views; use fewer levels or a smaller fanout")
                } else if fitsHost(views: count, bytesPerView: bytesPerView, backing: backing, treeNode, key),
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

    /// The most views one screen's tree may have.
    static let maximumViewsPerTree = 1_000_000

    /// Whether a tree of `views` views of `bytesPerView` bytes (plus `backing`) fits the
    /// host, checked before its description is built (saturating; an error when not).
    mutating func fitsHost(views: Int, bytesPerView: Int, backing: Int, _ node: Node, _ key: String) -> Bool {
        let declared = views.multipliedSaturating(by: bytesPerView).addingSaturating(backing)
        guard declared > hostLimitBytes else { return true }
        error(node, "\(key).tree", "the tree declares \(declared == Int.max ? "more than \(Int.max)" : String(declared)) bytes "
            + "(\(views) views of \(bytesPerView) bytes), more than the \(hostLimitBytes) bytes this host allows a simulation")
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

    /// Compressibility by kind of memory (`content: { backing: 2.5, ... }`): each from 1
    /// (incompressible) to 1000; the kinds are ``MemoryContents/Kind``'s.
    mutating func contentRatios(_ node: Node, _ key: String) -> [MemoryContents.Kind: Double] {
        var content: [MemoryContents.Kind: Double] = [:]
        guard let kinds = mapping(node, key, allowed: DeviceProfile.contentKinds) else { return content }
        for (kindNode, ratioNode) in kinds {
            guard let name = kindNode.string, let kind = MemoryContents.Kind(rawValue: name) else { continue }
            guard ratioNode.scalar != nil, let ratio = ratioNode.float, ratio.isFinite, ratio >= 1, ratio <= 1000 else {
                error(ratioNode, "\(key).\(name)", "expected a compressibility from 1 (incompressible) to 1000, "
                    + "got \(describe(ratioNode))")
                continue
            }
            content[kind] = ratio
        }
        return content
    }
}
