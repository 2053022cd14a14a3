import PressureLab

/// What a scenario can make the process allocate, from its declarations alone: the host
/// check before anything runs.
///
/// Every declared byte counts: each app's data and launch hierarchy (screens with their
/// trees' bookkeeping, bitmaps, caches, models and table cells, and UIKit's containers),
/// every screen a script pushes or presents (a `repeat` multiplies), every `type`, and for
/// `random` steps the largest thing a step can allocate. The device enforces its budget on
/// every allocation, so a run never holds more than the budget plus one allocation: the
/// worst case is the smaller of everything declared and that. All sums saturate.
public struct DeclaredMemory: Sendable, Equatable {
    /// Everything declared, as if nothing were ever freed or killed.
    public var totalBytes: Int
    /// The largest single allocation a step can make (a screen, a `type`, an app's data).
    public var largestAllocationBytes: Int

    /// The most the process can hold with `budgetBytes` enforced on every allocation.
    public func worstCaseBytes(budgetBytes: Int) -> Int {
        min(totalBytes, budgetBytes.addingSaturating(largestAllocationBytes))
    }
}

extension Scenario {
    /// The scenario's declared memory (see ``DeclaredMemory``).
    public var declaredMemory: DeclaredMemory {
        var total = 0
        var largest = 0
        let screens = Dictionary(apps.flatMap { $0.screens.map { ($0.name, $0) } }, uniquingKeysWith: { first, _ in first })
        let largestScreen = screens.values.map(\.worstCaseBytes).max() ?? 0
        for app in apps {
            let appScreens = Dictionary(app.screens.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            let launch = app.root.worstCaseBytes(screens: appScreens)
            // Clean mapped files are memory too (the page cache, up to their size) and disk.
            let processes = app.processes.map(\.bytes).saturatingSum()
            total = total.addingSaturating(app.dataBytes).addingSaturating(launch).addingSaturating(app.cleanBytes)
                .addingSaturating(processes).addingSaturating(app.gpuBytes)
            largest = max(largest, app.dataBytes, launch, app.cleanBytes, app.gpuBytes, app.processes.map(\.bytes).max() ?? 0)
        }
        func walk(_ steps: [Step], times: Int) {
            for step in steps {
                switch step {
                case .action(let action):
                    let bytes: Int
                    if let name = action.screen { bytes = screens[name]?.worstCaseBytes ?? 0 }
                    else if case .type(let typed) = action { bytes = typed }
                    else if case .grow(let grown) = action { bytes = grown }
                    else { continue }
                    total = total.addingSaturating(bytes.multipliedSaturating(by: times))
                    largest = max(largest, bytes)
                case .repeatSteps(let count, let inner):
                    walk(inner, times: times.multipliedSaturating(by: count))
                case .random(let count, _):
                    let perStep = max(largestScreen, UserAction.randomTypeBytes.upperBound)
                    total = total.addingSaturating(perStep.multipliedSaturating(by: count.multipliedSaturating(by: times)))
                    largest = max(largest, perStep)
                }
            }
        }
        walk(script, times: 1)
        return DeclaredMemory(totalBytes: total, largestAllocationBytes: largest)
    }

    /// Bytes of clean mapped files the scenario's apps write to disk (one file an app).
    public var declaredCleanFileBytes: Int { apps.map(\.cleanBytes).saturatingSum() }

    /// Bytes of model files the run can write: one a screen the script can show (its app's
    /// launch screens, what it pushes or presents, every screen under a `random` step). A
    /// model file is written when the model is first read, so an unshown screen costs none.
    public var declaredModelFileBytes: Int {
        var shown = Set(apps.flatMap(\.root.screenNames))
        func walk(_ steps: [Step]) {
            for step in steps {
                switch step {
                case .action(let action): if let name = action.screen { shown.insert(name) }
                case .repeatSteps(_, let inner): walk(inner)
                case .random: shown.formUnion(apps.flatMap { $0.screens.map(\.name) })
                }
            }
        }
        walk(script)
        // Screens are per app but a name reaches every app that declares it: count each app's.
        return apps.flatMap(\.screens).filter { shown.contains($0.name) }.map(\.modelBytes).saturatingSum()
    }

    /// Bytes of files the run writes to disk from its declarations: clean mapped files and
    /// model files (the freezer's and the swap file's are bounded by the budget and the
    /// profile, and checked when the run starts).
    public var declaredFileBytes: Int { declaredCleanFileBytes.addingSaturating(declaredModelFileBytes) }

    /// The sizes a random `type` step types.
}
