import PressureLab
import PressureLabHeap

/// Scenarios written in Swift: the same parts a scenario file declares (docs/formats.md,
/// "Scenario"), checked the same way, so that a scenario and its YAML twin give the same
/// results.
///
/// ```swift
/// let scenario = try Scenario(
///     name: "photo-browser", seed: 42,
///     device: .init(memoryBytes: 768 << 20),
///     apps: [.init(name: "photos", dataBytes: 2 << 20,
///                  screens: [try .plain("grid", backing: 3 << 20, cache: 16 << 20),
///                            try .plain("detail", tree: .levels(depth: 3, fanout: 4, bytes: 2048), outlets: 6,
///                                       backing: 9 << 20, cache: 4 << 20, model: 1 << 20)],
///                  root: .nav("grid"))],
///     script: [.launch("photos"), .push("detail"), .repeat(10, [.push("detail")]), .pop(3), .warning(.warning)])
/// ```
extension Scenario {
    /// A scenario written in Swift, checked as a file would be: names, the screens and apps
    /// the hierarchies and steps name, the host's limits and the work limits.
    ///
    /// - Parameters:
    ///   - name: the scenario's name, as results and reports show it.
    ///   - description: one line on what it models.
    ///   - seed: the seed of its random steps and contents.
    ///   - device: the device's memory, thresholds and profile.
    ///   - apps: the apps installed, with their screens and launch hierarchies.
    ///   - script: what the user (and the system) does, step by step.
    ///   - path: what errors name it by (default `NAME (Swift)`); no file is read.
    /// - Throws: ``ScenarioError`` with every problem, each naming its key.
    public init(name: String, description: String = "", seed: UInt64 = 0, device: DeviceSpec, apps: [AppSpec],
                script: [Step], path: String? = nil) throws(ScenarioError) {
        self.init(name: name, description: description, seed: seed, device: device, apps: apps, script: script,
                  path: path ?? "\(name) (Swift)", replay: nil)
        let problems = SwiftScenarioCheck(scenario: self, hostLimitBytes: HostMemory.current().safeLimit()).problems()
        if !problems.isEmpty {
            throw ScenarioError(diagnostics: problems.map {
                ScenarioDiagnostic(path: self.path, line: 0, column: 0, key: $0.key, message: $0.message)
            })
        }
    }
}

extension Scenario.DeviceSpec {
    /// A device with `memoryBytes` shared by the apps, the default pressure thresholds, no
    /// per-app limit and the profile's everything else.
    public init(memoryBytes: Int) {
        self.init(memoryBytes: memoryBytes, thresholds: .default, appLimitBytes: nil)
    }
}

/// Screens written in Swift, as a scenario file declares them.
extension ScreenSpec {
    /// A screen's view tree as a scenario file declares it (`tree:`).
    public enum Tree: Sendable, Equatable {
        /// `{ depth: D, fanout: F, bytes: B }`: a full tree of `depth` levels below the root.
        case levels(depth: Int, fanout: Int, bytes: Int)
        /// `{ views: N, fanout: F, bytes: B }`: `views` views, each with up to `fanout` children.
        case balanced(views: Int, fanout: Int, bytes: Int)
    }

    /// A plain screen as a scenario file declares it: its tree (none: a single 1 KiB view),
    /// the outlets its controller holds, the root layer's backing store, its cache and model.
    public static func plain(_ name: String, tree: Tree? = nil, outlets: Int = 0, releasesOutlets: Bool = true,
                             backing: Int = 0, cache: Int = 0, model: Int = 0) throws(ViewDescriptionError) -> ScreenSpec {
        let view: ViewDescription
        switch tree {
        case nil: view = try .single(bytes: 1024, backing: backing)
        case .levels(let depth, let fanout, let bytes): view = try .tree(depth: depth, fanout: fanout, bytes: bytes, rootBacking: backing)
        case .balanced(let views, let fanout, let bytes):
            view = try .balanced(count: views, fanout: fanout, bytes: bytes, rootBacking: backing)
        }
        return ScreenSpec(name: name, view: view, outlets: outlets, releasesOutlets: releasesOutlets, cacheBytes: cache,
                          modelBytes: model)
    }

    /// A table screen as a scenario file declares it (`kind: table`): its rows, the rows on
    /// screen, one cell's views and bytes, the reuse pool, and the table's own backing store,
    /// cache and model.
    public static func table(_ name: String, rows: Int, visibleRows: Int, cellViews: Int = 1, cellBytes: Int = 1024,
                             reusePool: Int = TableSpec.defaultReusePoolCapacity, outlets: Int = 0, releasesOutlets: Bool = true,
                             backing: Int = 0, cache: Int = 0, model: Int = 0) throws(ViewDescriptionError) -> ScreenSpec {
        let cell = try ViewDescription.wide(count: cellViews, bytes: cellBytes / max(1, cellViews))
        return ScreenSpec(name: name, view: try .single(bytes: 2048, backing: backing), outlets: outlets,
                          releasesOutlets: releasesOutlets, cacheBytes: cache, modelBytes: model,
                          table: TableSpec(rows: rows, visibleRows: visibleRows, cell: cell, reusePoolCapacity: reusePool))
    }
}

extension Scenario.Step {
    // Each action as a step, named as in scenario files (``UserAction``).
    /// `launch: APP`: brings the app to the front, cold or resumed.
    public static func launch(_ app: String) -> Self { .action(.launch(app)) }
    /// `push: SCREEN` onto the front app's navigation stack.
    public static func push(_ screen: String) -> Self { .action(.push(screen)) }
    /// `pop: N` screens off the stack.
    public static func pop(_ count: Int = 1) -> Self { .action(.pop(count)) }
    /// `pop_to_root`.
    public static let popToRoot = Self.action(.popToRoot)
    /// `select_tab: N` (from 0).
    public static func selectTab(_ index: Int) -> Self { .action(.selectTab(index)) }
    /// `present: SCREEN` modally.
    public static func present(_ screen: String) -> Self { .action(.present(screen)) }
    /// `dismiss` the modal screen.
    public static let dismiss = Self.action(.dismiss)
    /// `type: BYTES` of user data into the front screen.
    public static func type(_ bytes: Int) -> Self { .action(.type(bytes)) }
    /// `scroll: ROWS` in the front table.
    public static func scroll(_ rows: Int) -> Self { .action(.scroll(rows)) }
    /// `grow: BYTES` of the front app's data (an app growing with use).
    public static func grow(_ bytes: Int) -> Self { .action(.grow(bytes)) }
    /// `warning: LEVEL`: a scripted memory warning.
    public static func warning(_ level: PressureLevel = .warning) -> Self { .action(.warning(level)) }
    /// `home`: the front app goes to the background.
    public static let home = Self.action(.home)
    /// `switch: APP`: Home, then the app.
    public static func switchTo(_ app: String) -> Self { .action(.switchTo(app)) }
    /// `idle: SECONDS` without input (time passes).
    public static func idle(_ seconds: Double) -> Self { .action(.idle(seconds)) }
    /// `interrupt: SECONDS`: a call or an alert covers the front app.
    public static func interrupt(_ seconds: Double) -> Self { .action(.interrupt(seconds)) }
    /// `launch_background: APP`: launched straight into the background.
    public static func launchBackground(_ app: String) -> Self { .action(.launchBackground(app)) }
    /// `background_fetch: APP`: Background App Refresh.
    public static func backgroundFetch(_ app: String) -> Self { .action(.backgroundFetch(app)) }
    /// `repeat: { times: N, steps: [...] }`.
    public static func `repeat`(_ times: Int, _ steps: [Self]) -> Self { .repeatSteps(times: times, steps: steps) }
}

/// The checks of a scenario written in Swift: what the file reader checks of the parts a
/// Swift value can get wrong (names, references, counts, the host's and the work limits).
struct SwiftScenarioCheck {
    let scenario: Scenario
    let hostLimitBytes: Int
    private(set) var found: [(key: String, message: String)] = []

    init(scenario: Scenario, hostLimitBytes: Int) {
        self.scenario = scenario
        self.hostLimitBytes = hostLimitBytes
    }

    static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= ScenarioLimits.nameLength
            && text.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 }
    }

    func problems() -> [(key: String, message: String)] {
        var check = self
        check.run()
        return check.found
    }

    private mutating func problem(_ key: String, _ message: String) { found.append((key, message)) }

    private mutating func run() {
        if !Self.isName(scenario.name) { problem("name", "'\(scenario.name)' is not a valid name; names match [a-z0-9-]+"
            + (scenario.name.utf8.count > ScenarioLimits.nameLength ? ", at most \(ScenarioLimits.nameLength) characters" : "")) }
        let device = scenario.device
        if device.memoryBytes <= 0 { problem("device.memory", "the budget must be more than 0 bytes") }
        if let problem = device.thresholds.problem { self.problem("device.pressure", problem) }
        if let limit = device.appLimitBytes, limit <= 0 { problem("device.app_limit", "the limit must be more than 0 bytes") }
        if scenario.apps.isEmpty { problem("apps", "a scenario needs at least one app") }
        var appNames: Set<String> = []
        var screenNames: Set<String> = []
        for app in scenario.apps {
            let key = "apps.\(app.name)"
            if !Self.isName(app.name) { problem("apps", "'\(app.name)' is not a valid app name; names match [a-z0-9-]+"
                + (app.name.utf8.count > ScenarioLimits.nameLength ? ", at most \(ScenarioLimits.nameLength) characters" : "")) }
            if !appNames.insert(app.name).inserted { problem(key, "app '\(app.name)' is declared twice") }
            if app.dataBytes < 0 { problem("\(key).data", "must be 0 bytes or more") }
            if app.cleanBytes < 0 { problem("\(key).clean", "must be 0 bytes or more") }
            if app.gpuBytes < 0 { problem("\(key).gpu", "must be 0 bytes or more") }
            if let seconds = app.backgroundCollectionSeconds, !(seconds > 0) || !seconds.isFinite {
                problem("\(key).background_gc", "must be more than 0 seconds")
            }
            if app.screens.isEmpty { problem("\(key).screens", "an app needs at least one screen") }
            var names: Set<String> = []
            for screen in app.screens {
                if !names.insert(screen.name).inserted { problem("\(key).screens.\(screen.name)", "screen '\(screen.name)' is declared twice") }
                if !Self.isName(screen.name) {
                    problem("\(key).screens", "'\(screen.name)' is not a valid screen name; names match [a-z0-9-]+"
                        + (screen.name.utf8.count > ScenarioLimits.nameLength ? ", at most \(ScenarioLimits.nameLength) characters" : ""))
                }
                if screen.name.hasPrefix("ui-") {
                    problem("\(key).screens.\(screen.name)", "screen names starting with 'ui-' are reserved for UIKit's containers")
                }
                do { try screen.validate() } catch { problem("\(key).screens.\(screen.name)", error.description) }
            }
            screenNames.formUnion(names)
            hierarchy(app.root, key: "\(key).root", screens: names, top: true)
        }
        steps(scenario.script, key: "script", apps: appNames, screens: screenNames)
        if scenario.script.isEmpty { problem("script", "the script has no steps") }
        guard found.isEmpty else { return }
        // The host's and the work limits, as the file reader checks them.
        let budget = device.memoryBytes
        if budget > hostLimitBytes {
            problem("device.memory", "the budget of \(budget) bytes is more than the \(hostLimitBytes) bytes this host allows a simulation")
            return
        }
        let worst = scenario.declaredMemory.worstCaseBytes(budgetBytes: budget)
        if worst > hostLimitBytes {
            problem("apps", "the run could hold \(worst) bytes (the budget plus the largest single allocation), more than the "
                + "\(hostLimitBytes) bytes this host allows a simulation; declare less or give a smaller budget")
        }
        let work = scenario.declaredWork
        if work.viewsBuilt > ScenarioLimits.viewsBuilt {
            problem("script", "the script builds up to \(work.viewsBuilt) views, more than the \(ScenarioLimits.viewsBuilt) a run may build")
        }
        if work.appSteps > ScenarioLimits.appSteps {
            problem("apps", "\(scenario.apps.count) apps and \(scenario.expandedStepCount) steps make \(work.appSteps) app-steps, "
                + "more than the \(ScenarioLimits.appSteps) a run may take")
        }
        for app in scenario.apps where app.cleanBytes > budget {
            problem("apps.\(app.name).clean", "the app's clean mapped memory (\(app.cleanBytes) bytes) is more than the device's memory "
                + "(\(budget) bytes)")
        }
        let fill = scenario.declaredFill
        if fill.filledBytes > ScenarioLimits.filledBytes {
            problem("script", "the script can fill \(fill.filledBytes) bytes of memory, more than the \(ScenarioLimits.filledBytes) a run may fill")
        }
        if fill.cleanBytesRead > ScenarioLimits.cleanBytesRead {
            problem("apps", "the script's launches can read \(fill.cleanBytesRead) bytes of clean mapped files again, more than the "
                + "\(ScenarioLimits.cleanBytesRead) a run may read")
        }
    }

    private mutating func hierarchy(_ spec: HierarchySpec, key: String, screens: Set<String>, top: Bool) {
        switch spec {
        case .screen(let name):
            if !screens.contains(name) { problem(key, "unknown screen '\(name)'; screens of this app: \(screens.sorted().joined(separator: ", "))") }
        case .navigation(let stack):
            if stack.isEmpty { problem(key, "a navigation stack needs a root screen") }
            for name in stack where !screens.contains(name) {
                problem(key, "unknown screen '\(name)'; screens of this app: \(screens.sorted().joined(separator: ", "))")
            }
        case .tabs(let tabs, let selected):
            if !top { problem(key, "tabs can only be an app's root") }
            if tabs.isEmpty { problem(key, "a tab bar needs at least one tab") }
            if !tabs.indices.contains(selected), !tabs.isEmpty { problem(key, "selected tab \(selected) is not one of 0 to \(tabs.count - 1)") }
            for (index, tab) in tabs.enumerated() {
                if case .tabs = tab { problem("\(key).tabs[\(index)]", "a tab cannot hold tabs") }
                hierarchy(tab, key: "\(key).tabs[\(index)]", screens: screens, top: false)
            }
        }
    }

    private mutating func steps(_ steps: [Scenario.Step], key: String, apps: Set<String>, screens: Set<String>) {
        for (index, step) in steps.enumerated() {
            let site = "\(key)[\(index)]"
            switch step {
            case .repeatSteps(let times, let inner):
                if times < 0 { problem(site, "repeat times must be 0 or more") }
                if inner.isEmpty { problem(site, "repeat needs at least one step") }
                self.steps(inner, key: "\(site).steps", apps: apps, screens: screens)
            case .random(let count, let mix):
                if count < 0 { problem(site, "random steps must be 0 or more") }
                for kind in mix.keys.sorted() where !kind.isDrawnAtRandom {
                    problem(site, "'\(kind.rawValue)' cannot be drawn at random; kinds: \(Scenario.randomStepKinds.joined(separator: ", "))")
                }
                if mix.values.contains(where: { !($0 >= 0) || !$0.isFinite }) || !mix.values.contains(where: { $0 > 0 }) {
                    problem(site, "random weights must be 0 or more, at least one above 0")
                }
            case .action(let action):
                if let app = action.app, !apps.contains(app) {
                    problem(site, "unknown app '\(app)'; apps: \(apps.sorted().joined(separator: ", "))")
                }
                if let screen = action.screen, !screens.contains(screen) {
                    problem(site, "unknown screen '\(screen)'; screens: \(screens.sorted().joined(separator: ", "))")
                }
                argument(action, site)
            }
        }
    }

    /// The action's value within its kind's range (``UserAction/Argument``).
    private mutating func argument(_ action: UserAction, _ site: String) {
        switch (action.kind.argument, action.value) {
        case (.count(_, let range), .integer(let value)), (.index(let range), .integer(let value)),
             (.rows(let range), .integer(let value)):
            if !range.contains(value) { problem(site, "\(action.kind.rawValue) \(value) is out of range; expected \(range.lowerBound) to \(range.upperBound)") }
        case (.bytes, .integer(let value)):
            if value < 0 { problem(site, "\(action.kind.rawValue) must be 0 bytes or more") }
        case (.seconds, .seconds(let value)):
            if !(value >= 0) || !value.isFinite { problem(site, "\(action.kind.rawValue) must be 0 seconds or more") }
        default:
            break
        }
    }
}
