@testable import PressureLab
import Testing

/// What each built-in cleanup policy releases at each `onTrimMemory` level on Android
/// (docs/app-life-cycle.md, "What a cleanup policy does at each level"): an app with two
/// activities, `inbox` covered by `message`, gone to the background; the level delivered as
/// ActivityManager delivers it (``Application/trimMemory(_:targetBytes:)``). The memory effects are
/// those the policies always had (a plan over off-screen controllers); the trace names them.
@Suite("Android: the built-in cleanup policies' answers at each trim level")
struct AndroidTrimAnswersTests {
    init() { _ = runtimePathsWarmedUp }

    /// The releases (`kind(controller)`) `policy` makes at `level`.
    static func releases(_ policy: String, at level: TrimLevel) throws -> [String] {
        let runtime = try RuntimeContext(app: "mail", generation: .iOS6)
        for screen in try mailScreens() { try runtime.register(screen) }
        runtime.lifeCycle = OSRelease.android10.makeAppLifeCycle()
        runtime.cleanupPolicy = try PolicyRegistry.cleanup(named: policy)!.makePolicy()
        let app = Application(name: "mail", runtime: runtime, hierarchy: .nav("inbox"))
        try app.launch()
        try (app.window.rootViewController as! NavigationController).push(try runtime.makeController(screen: "message"))
        try app.home()
        runtime.trace.removeAll()
        app.trimMemory(level)
        let activities = runtime.trace.events.filter { $0.controller != nil && $0.kind == .onTrimMemory(level) }
        // Both activities hear the level (ActivityThread.collectComponentCallbacks), then release.
        #expect(activities.map(\.description) == ["onTrimMemory:\(level.constantName)(inbox#1)",
                                                   "onTrimMemory:\(level.constantName)(message#1)"])
        return runtime.trace.events.filter { $0.controller != nil && $0.kind != .onTrimMemory(level) }.map(\.description)
    }

    static let levels: [TrimLevel] = [.uiHidden, .runningLow, .background, .moderate, .complete]

    /// The table docs/app-life-cycle.md shows (this test's output): what the covered `inbox`
    /// releases; the stopped `message` in front of the app's window releases nothing under any
    /// built-in policy (they release only what is off screen).
    static let expected: [String: [TrimLevel: [String]]] = {
        let view = ["viewReleased(inbox#1)", "cachePurged(inbox#1)"]
        let bitmaps = ["backingStoresPurged(inbox#1)", "cachePurged(inbox#1)"]
        func every(_ releases: [String]) -> [TrimLevel: [String]] { Dictionary(uniqueKeysWithValues: levels.map { ($0, releases) }) }
        return [
            "keep-all": every([]), "ios2": every(view), "ios3": every(view), "ios6": every(bitmaps),
            "aggressive": every(view), "lru": every([]),
            // cost-aware: half of what it could free at a level standing for a warning
            // (UI_HIDDEN, BACKGROUND: TrimLevel.pressure), all of it at one standing for critical.
            "cost-aware": [.uiHidden: ["backingStoresPurged(inbox#1)"], .runningLow: view,
                           .background: ["backingStoresPurged(inbox#1)"], .moderate: view, .complete: view],
        ]
    }()

    @Test("each built-in policy at UI_HIDDEN, RUNNING_LOW, BACKGROUND, MODERATE, COMPLETE",
          arguments: Cleanup.builtIns.map(\.name))
    func answers(policy: String) throws {
        for level in Self.levels {
            #expect(try Self.releases(policy, at: level) == Self.expected[policy]?[level], "\(policy) at \(level.constantName)")
        }
    }
}
