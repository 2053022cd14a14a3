import PressureLab

/// The bytes a run may write into memory and read back from its clean files, from the
/// declarations alone: the third half of the host check, beside the bytes a run holds
/// (``DeclaredMemory``) and the views it builds (``DeclaredWork``).
///
/// What a run holds is bounded by the budget; what it fills over its steps is not: an app
/// killed under pressure and opened again fills its memory again, every time. So every step
/// that opens an app (`launch`, `switch`, `launch_background`, `background_fetch`) is counted as
/// a cold launch, which fills the app's data and launch screens (at most the budget: the device
/// kills rather than hold more) and reads its whole clean mapped file again; `random` steps the
/// largest app's, as many as their mix's weights give to steps that open an app; `repeat`
/// multiplies. (Screens pushed and presented are bounded by the views a run may build,
/// ``DeclaredWork``.) All counts saturate.
public struct DeclaredFill: Sendable, Equatable {
    /// Steps that can cold-launch an app (expanded).
    public var launches: Int
    /// Bytes the launches can fill, each launch's at most the budget.
    public var filledBytes: Int
    /// Bytes of clean mapped files the launches can read (or write) again.
    public var cleanBytesRead: Int
    /// The largest clean mapped file an app declares, and the app's name.
    public var largestClean: (bytes: Int, app: String)?

    public static func == (lhs: DeclaredFill, rhs: DeclaredFill) -> Bool {
        lhs.launches == rhs.launches && lhs.filledBytes == rhs.filledBytes && lhs.cleanBytesRead == rhs.cleanBytesRead
            && lhs.largestClean?.bytes == rhs.largestClean?.bytes && lhs.largestClean?.app == rhs.largestClean?.app
    }
}

extension ScenarioLimits {
    /// Bytes a run may fill over its steps (``DeclaredFill/filledBytes``): 128 GiB, about 54 s
    /// of host time on the project's 2-core machine (0.42 s a GiB measured: 500 cold switches
    /// of 24 MiB apps, 11.7 GiB, in 4.98 s); the largest shipped, `fleet-hot-launch`, declares
    /// 19.1 GiB at worst.
    public static let filledBytes = 128 << 30
    /// Bytes of clean mapped files a run may read again (``DeclaredFill/cleanBytesRead``):
    /// 6 GiB, about 91 s on the same machine (15 s a GiB measured: an app of 64 MiB of clean
    /// memory opened 10 times under pressure, 0.625 GiB, 9.5 s); the largest shipped workload,
    /// `fleet-hot-launch`, declares 5.2 GiB at worst and runs in 60 s.
    public static let cleanBytesRead = 6 << 30
}

extension Scenario {
    /// The scenario's declared fill (see ``DeclaredFill``).
    public var declaredFill: DeclaredFill {
        let budget = device.memoryBytes
        var launchBytes: [String: Int] = [:], clean: [String: Int] = [:]
        for app in apps {
            let own = Dictionary(app.screens.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            let launch = app.dataBytes.addingSaturating(app.gpuBytes).addingSaturating(app.root.worstCaseBytes(screens: own))
            launchBytes[app.name] = min(budget, launch)
            clean[app.name] = app.cleanBytes
        }
        let largestLaunch = launchBytes.values.max() ?? 0, largestClean = clean.values.max() ?? 0
        var fill = DeclaredFill(launches: 0, filledBytes: 0, cleanBytesRead: 0, largestClean: nil)
        if let app = apps.filter({ $0.cleanBytes > 0 }).max(by: { $0.cleanBytes < $1.cleanBytes }) { fill.largestClean = (app.cleanBytes, app.name) }
        func add(launches: Int, filled: Int, clean read: Int, times: Int) {
            fill.launches = fill.launches.addingSaturating(launches.multipliedSaturating(by: times))
            fill.filledBytes = fill.filledBytes.addingSaturating(filled.multipliedSaturating(by: times))
            fill.cleanBytesRead = fill.cleanBytesRead.addingSaturating(read.multipliedSaturating(by: times))
        }
        func walk(_ steps: [Step], times: Int) {
            for step in steps {
                switch step {
                case .action(let action):
                    if action.kind.opensApp, let app = action.app {
                        add(launches: 1, filled: launchBytes[app] ?? 0, clean: clean[app] ?? 0, times: times)
                    }
                case .random(let count, let mix):
                    let total = mix.values.reduce(0, +)
                    let opening = total > 0 ? mix.filter { $0.key.opensApp }.map(\.value).reduce(0, +) / total : 0
                    let launches = Int((Double(count) * opening).rounded(.up))
                    add(launches: launches, filled: largestLaunch.multipliedSaturating(by: launches),
                        clean: largestClean.multipliedSaturating(by: launches), times: times)
                case .repeatSteps(let count, let inner):
                    walk(inner, times: times.multipliedSaturating(by: count))
                }
            }
        }
        walk(script, times: 1)
        return fill
    }
}
