import PressureLab
import PressureLabHeap

/// Cleanup policies compared on identical traces: an app with four tabs goes through
/// rounds of a memory warning followed by a visit to every tab, so that everything a
/// policy released is reloaded (and timed). Each policy's run is a ``Simulation`` of the
/// same scenario (one app on a device with room for it), so any policy can be compared, a
/// built-in one or one written in Swift.
///
/// Bytes are measured by jemalloc (the app's ledger before and after each warning); reload
/// latencies by the monotonic clock (host time) and the profile's costs (device time), into
/// HDR histograms.
public struct PolicyComparison {
    /// An app: the tabs' screens, the first shown when the warning arrives.
    public struct App: Sendable {
        /// The app's name.
        public var name: String
        /// What the app is, in a line.
        public var description: String
        /// The screens of its tabs.
        public var screens: [ScreenSpec]
        /// The tabs' screen names, in order.
        public var tabs: [String]
    }

    /// One policy's figures on one app.
    public struct Row: Sendable {
        /// The cleanup policy measured.
        public var policy: Cleanup
        /// The policy whose bytes freed this run was given as its target (cost-aware at
        /// lru's or ios3's bytes), nil: the policy's own rule.
        public var matching: Cleanup?
        /// The target given to the policy (nil: its own rule).
        public var targetBytes: Int?
        /// Mean bytes freed per warning.
        public var freedPerWarning: Int
        /// Reloads of each kind, in all rounds (host time).
        public var reloads: [ReloadKind: ReloadStatistics.Summary]
        /// The same in device time (modelled with the profile; empty without one).
        public var deviceReloads: [ReloadKind: ReloadStatistics.Summary]
        /// Total reload time in all rounds, nanoseconds (host time).
        public var reloadNanoseconds: UInt64
        /// Total reload time in all rounds in device time, nanoseconds (nil without a profile).
        public var reloadDeviceNanoseconds: UInt64?
        /// Reloads of any kind.
        public var reloadCount: Int
        /// Measured retained bytes after the last round.
        public var finalRetainedBytes: Int

        /// The row's name in tables: the policy's, and `@lru` when it matched lru's bytes.
        public var label: String { matching.map { "\(policy.name) @\($0.name)" } ?? policy.name }
    }

    /// Warning rounds per policy and app (each: load, warn, reload).
    public var rounds: Int
    /// The device whose costs give device time (nil: host time only).
    public var profile: DeviceProfile?

    /// A comparison of `rounds` rounds; device time with `profile` (nil: host time only).
    public init(rounds: Int = 20, profile: DeviceProfile? = nil) {
        self.rounds = rounds
        self.profile = profile
    }

    /// A photo browser: a grid, a detail view with a big bitmap, an album list and settings.
    public static func photoBrowser() throws -> App {
        App(
            name: "photo-browser", description: "Phone-sized photo browser: grid, detail, albums, settings (4 tabs).",
            screens: [
                ScreenSpec(name: "grid", view: try .balanced(count: 400, fanout: 20, bytes: 1024,
                                                            rootBacking: Layer.bitmapBytes(width: 750, height: 1334)),
                           outlets: 4, cacheBytes: 8 << 20),
                ScreenSpec(name: "detail", view: try .tree(depth: 3, fanout: 4, bytes: 2048,
                                                          rootBacking: Layer.bitmapBytes(width: 1500, height: 2000)),
                           outlets: 6, cacheBytes: 4 << 20, modelBytes: 1 << 20),
                ScreenSpec(name: "albums", view: try .wide(count: 200, bytes: 2048,
                                                          rootBacking: Layer.bitmapBytes(width: 750, height: 1334)),
                           cacheBytes: 2 << 20, modelBytes: 512 << 10),
                ScreenSpec(name: "settings", view: try .tree(depth: 3, fanout: 5, bytes: 512,
                                                            rootBacking: Layer.bitmapBytes(width: 750, height: 1334))),
            ],
            tabs: ["grid", "detail", "albums", "settings"])
    }

    /// Items of very different reload costs per byte: views made of tens of thousands of
    /// tiny subviews (slow to rebuild for their bytes) beside caches of a few MiB (fast to
    /// refill) and a model read back from disk.
    public static func mixedCosts() throws -> App {
        App(
            name: "mixed-costs",
            description: "Maps and transit views of 10,000-20,000 tiny subviews beside 2-3 MiB caches and a 4 MiB model (5 tabs).",
            screens: [
                ScreenSpec(name: "home", view: try .single(bytes: 4096, backing: Layer.bitmapBytes(width: 750, height: 1334))),
                ScreenSpec(name: "map", view: try .balanced(count: 20_000, fanout: 8, bytes: 16), cacheBytes: 2 << 20),
                ScreenSpec(name: "transit", view: try .balanced(count: 15_000, fanout: 8, bytes: 16), cacheBytes: 3 << 20),
                ScreenSpec(name: "reader", view: try .wide(count: 50, bytes: 512), cacheBytes: 1 << 20, modelBytes: 4 << 20),
                ScreenSpec(name: "places", view: try .balanced(count: 10_000, fanout: 8, bytes: 16), cacheBytes: 2 << 20),
            ],
            tabs: ["home", "map", "transit", "reader", "places"])
    }

    /// Runs each policy (every one this program knows by default), then cost-aware again with
    /// the bytes lru and ios3 freed as its target (the same bytes freed, to compare reload
    /// time) when both were compared.
    public func run(_ app: App, policies: [Cleanup] = PolicyRegistry.cleanupPolicies,
                    progress: ((String) -> Void)? = nil) throws -> [Row] {
        var rows: [Row] = []
        for policy in policies {
            progress?("\(app.name): \(policy.name)")
            rows.append(try runPolicy(policy, app, targetBytes: nil))
        }
        guard policies.contains(.costAware) else { return rows }
        for reference in [Cleanup.lru, .ios3] {
            guard let row = rows.first(where: { $0.policy == reference && $0.matching == nil }), row.freedPerWarning > 0 else { continue }
            progress?("\(app.name): cost-aware at \(reference.name)'s bytes")
            let target = row.freedPerWarning
            let matched = Cleanup(name: Cleanup.costAware.name, isBuiltIn: true) { CostAwarePolicy(targetBytes: target) }
            var matchedRow = try runPolicy(matched, app, targetBytes: target)
            matchedRow.matching = reference
            rows.append(matchedRow)
        }
        return rows
    }

    /// The app as a scenario: one app, its tabs, on a device with room for it (no pressure
    /// but the warnings the rounds inject).
    func scenario(_ app: App) throws -> Scenario {
        let tabs = app.tabs.indices
        let visit: [Scenario.Step] = tabs.dropFirst().map { .selectTab($0) } + [.selectTab(0)]
        return try Scenario(name: app.name, description: app.description,
                            device: .init(memoryBytes: 1 << 30),
                            apps: [.init(name: app.name, screens: app.screens, root: .tabs(app.tabs.map { .screen($0) }, selected: 0))],
                            script: [.launch(app.name)] + visit)
    }

    func runPolicy(_ policy: Cleanup, _ app: App, targetBytes: Int?) throws -> Row {
        let simulation = try Simulation(scenario(app), cleanup: policy, termination: .noTermination, profile: profile)
        // First visit: every tab loads once (first loads are the view's cost estimate).
        try simulation.play(simulation.scenario.script)
        simulation.statistics.removeAll()
        let visit: [Scenario.Step] = app.tabs.indices.dropFirst().map { .selectTab($0) } + [.selectTab(0)]
        var freed = 0
        for _ in 0..<rounds {
            let before = simulation.device.usedBytes
            try simulation.perform(.warning(.warning))
            freed += before - simulation.device.usedBytes
            try simulation.play(visit)
        }
        let statistics = simulation.statistics
        var reloads: [ReloadKind: ReloadStatistics.Summary] = [:]
        var deviceReloads: [ReloadKind: ReloadStatistics.Summary] = [:]
        for kind in ReloadKind.allCases {
            reloads[kind] = statistics.summary(kind)
            if profile != nil { deviceReloads[kind] = statistics.deviceSummary(kind) }
        }
        let row = Row(policy: policy, matching: nil, targetBytes: targetBytes, freedPerWarning: freed / rounds, reloads: reloads,
                      deviceReloads: deviceReloads, reloadNanoseconds: statistics.totalNanoseconds,
                      reloadDeviceNanoseconds: profile == nil ? nil : statistics.totalDeviceNanoseconds,
                      reloadCount: statistics.totalCount, finalRetainedBytes: simulation.device.usedBytes)
        _ = simulation.finish()
        return row
    }
}
