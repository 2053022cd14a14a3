import PressureLab

/// What a scenario makes the simulator do, from its declarations alone: the work half of the
/// host check (``DeclaredMemory`` is the bytes half).
///
/// The bytes a run holds are bounded by the budget; the time it takes is not. It grows with
/// what the script expands to: the views its steps build (pushed and presented screens,
/// launch hierarchies, with `repeat` multiplying), and the steps times the apps the device
/// looks over at each one. Each is capped (``ScenarioLimits``), checked before anything runs,
/// with an error at the declaration that makes it large. All counts saturate.
public struct DeclaredWork: Sendable, Equatable {
    /// Views described by the scenario's screens (their trees and table cells): the view
    /// descriptions validation builds and keeps.
    public var describedViews: Int
    /// The most views the script can build over a run (each `push` and `present` its screen's
    /// views, each `launch`, `switch` and `launch_background` its app's launch hierarchy, each
    /// `random` step the largest screen).
    public var viewsBuilt: Int
    /// Steps (expanded) times declared apps: the device's per-step look over its apps.
    public var appSteps: Int
}

/// The caps on what a scenario may expand to, and the exit code a scenario over one gets
/// (65, an invalid scenario, like every other scenario error). Set so that the largest
/// shipped workloads run: `Benchmarks/Scale/scale-100.yaml` (100 apps, 50,100 steps,
/// 10,000,000 views built) and every cell of `sweeps/grid-1120.yaml`.
public enum ScenarioLimits {
    /// Views the scenario's screens may describe in all (each screen's tree at most
    /// 1,000,000): the descriptions take about 28 bytes a view while the file is read.
    public static let describedViews = 4_000_000
    /// Views one screen's tree may have.
    public static let viewsPerTree = 1_000_000
    /// The largest `device.memory_scale`: a process of 1 TiB (the most an import reads) at
    /// 1/1024 is 1 GiB (docs/importing.md, "Processes bigger than the host").
    public static let memoryScale = 1024
    /// Views a script may build over a run: about 1.4 s of host time a million on the
    /// project's 2-core machine (`scale-100` builds 10 million in about 14 s).
    public static let viewsBuilt = 50_000_000
    /// Expanded steps times declared apps: up to a few microseconds each on the same machine
    /// (1,000 apps each launched once, 1,000,000 app-steps, took 4.1 s).
    public static let appSteps = 10_000_000
    /// Expanded steps (repeats and random steps counted).
    public static let expandedSteps = 5_000_000
    /// Runs of one scenario and policy (`--repeat`, a sweep's `repeat`).
    public static let repeats = 1_000
    /// Characters of a name (a scenario's, an app's, a screen's, a profile's): apps and
    /// screens name the run's files (`APP-bundle-XXXXXX/`, `SCREEN.plview`, `APP-BYTES.code`,
    /// up to 25 bytes added), and a file name has at most 255 bytes (Linux's and macOS's
    /// NAME_MAX); 128 leaves room for what a run adds.
    public static let nameLength = 128
}

extension Scenario {
    /// The scenario's declared work (see ``DeclaredWork``).
    public var declaredWork: DeclaredWork {
        // A name reaches every app that declares it: the largest screen of that name counts.
        let screens = Dictionary(apps.flatMap { $0.screens.map { ($0.name, $0.describedViews) } }, uniquingKeysWith: max)
        let described = apps.flatMap(\.screens).map(\.describedViews).saturatingSum()
        let largestScreen = screens.values.max() ?? 0
        var launchViews: [String: Int] = [:]
        for app in apps {
            let own = Dictionary(app.screens.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            launchViews[app.name] = app.root.screenNames.map { own[$0]?.describedViews ?? 0 }.saturatingSum()
        }
        let largestLaunch = launchViews.values.max() ?? 0
        var built = 0
        func walk(_ steps: [Step], times: Int) {
            for step in steps {
                let views: Int
                switch step {
                case .action(let action):
                    if let name = action.screen { views = screens[name] ?? 0 }
                    else if let app = action.app { views = launchViews[app] ?? 0 }
                    // A step that reveals a controller can reload its view (unloaded under pressure).
                    else if action.kind.revealsHiddenScreen { views = largestScreen }
                    else { continue }
                case .random(let count, let mix):
                    // The drawn steps that build: screens, and whole launch hierarchies for `switch`,
                    // as many as the mix's weights give (rounded up).
                    let total = mix.values.reduce(0, +)
                    func share(_ included: (UserAction.Kind) -> Bool) -> Int {
                        guard total > 0 else { return 0 }
                        let weight = mix.filter { included($0.key) }.sorted { $0.key < $1.key }.map(\.value).reduce(0, +)
                        return Int((Double(count) * weight / total).rounded(.up))
                    }
                    views = largestScreen.multipliedSaturating(by: share { $0.showsScreen || $0.revealsHiddenScreen })
                        .addingSaturating(largestLaunch.multipliedSaturating(by: share(\.opensApp)))
                case .repeatSteps(let count, let inner):
                    walk(inner, times: times.multipliedSaturating(by: count))
                    continue
                }
                built = built.addingSaturating(views.multipliedSaturating(by: times))
            }
        }
        walk(script, times: 1)
        return DeclaredWork(describedViews: described, viewsBuilt: built,
                            appSteps: expandedStepCount.multipliedSaturating(by: max(1, apps.count)))
    }
}

/// A run that built more views than ``ScenarioLimits/viewsBuilt``: what the declarations
/// cannot foresee (views rebuilt after memory warnings, restorations) is bounded as it happens.
public struct WorkLimitExceeded: Error, CustomStringConvertible {
    /// The views built when the limit was passed.
    public var viewsBuilt: Int
    /// The step that passed it.
    public var step: Int

    public var description: String {
        "the run built \(viewsBuilt) views by step \(step), more than the \(ScenarioLimits.viewsBuilt) a run may build "
            + "(views rebuilt after unloads count); stopped"
    }
}

extension ScreenSpec {
    /// Views the screen describes: its tree, and a table's cells (visible rows and the
    /// reuse pool, as many as it can hold at once).
    var describedViews: Int {
        guard let table else { return view.viewCount }
        let cells = min(table.visibleRows, table.rows).addingSaturating(table.reusePoolCapacity)
        return view.viewCount.addingSaturating(cells.multipliedSaturating(by: table.cell.viewCount))
    }
}
