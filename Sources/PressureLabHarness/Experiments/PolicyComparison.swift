import PressureLab
import PressureLabHeap

/// Cleanup policies compared on identical traces: an app with four tabs goes through
/// rounds of a memory warning followed by a visit to every tab, so that everything a
/// policy released is reloaded (and timed).
///
/// Bytes are measured by jemalloc (the thread's net change during each warning); reload
/// latencies by the monotonic clock, into HDR histograms.
public struct PolicyComparison {
    /// A scenario: the tabs' screens, the first shown when the warning arrives.
    public struct Scenario: Sendable {
        public var name: String
        public var description: String
        public var screens: [ScreenSpec]
        public var tabs: [String]
    }

    /// One policy's figures on one scenario.
    public struct Row: Sendable {
        public var policy: String
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
    }

    public var rounds: Int
    /// The device whose costs give device time (nil: host time only).
    public var profile: DeviceProfile?

    public init(rounds: Int = 20, profile: DeviceProfile? = nil) {
        self.rounds = rounds
        self.profile = profile
    }

    /// A photo browser: a grid, a detail view with a big bitmap, an album list and settings.
    public static func photoBrowser() throws -> Scenario {
        Scenario(
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
    public static func mixedCosts() throws -> Scenario {
        Scenario(
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

    /// Runs every built-in policy, then cost-aware again with the bytes lru and ios3 freed as
    /// its target (the same bytes freed, to compare reload time).
    public func run(_ scenario: Scenario, progress: ((String) -> Void)? = nil) throws -> [Row] {
        RunnerWarmUp.ensure()
        var rows: [Row] = []
        for name in CleanupPolicies.builtInNames {
            progress?("\(scenario.name): \(name)")
            rows.append(try runPolicy(CleanupPolicies.named(name)!, scenario, targetBytes: nil))
        }
        for reference in ["lru", "ios3"] {
            guard let row = rows.first(where: { $0.policy == reference }), row.freedPerWarning > 0 else { continue }
            progress?("\(scenario.name): cost-aware at \(reference)'s bytes")
            var matched = try runPolicy(CostAwarePolicy(), scenario, targetBytes: row.freedPerWarning)
            matched.policy = "cost-aware @\(reference)"
            rows.append(matched)
        }
        return rows
    }

    func runPolicy(_ policy: any CleanupPolicy, _ scenario: Scenario, targetBytes: Int?) throws -> Row {
        let runtime = try RuntimeContext(app: scenario.name, generation: .iOS6, trace: TraceRecorder(isEnabled: false))
        for screen in scenario.screens { try runtime.register(screen) }
        runtime.cleanupPolicy = policy
        // One app, no device: the device's costs are given to its runtime as a device would.
        DeviceModel(budgetBytes: .max, costs: profile?.costs).apply(to: runtime)
        let app = Application(name: scenario.name, runtime: runtime,
                              hierarchy: .tabs(scenario.tabs.map { .screen($0) }, selected: 0))
        try app.launch()
        let tabs = app.rootViewController as! TabBarController
        // First visit: every tab loads once (first loads are the view's cost estimate).
        for index in tabs.tabs.indices.dropFirst() { try tabs.select(index) }
        try tabs.select(0)
        runtime.reloadStatistics.removeAll()
        var freed = 0
        for _ in 0..<rounds {
            freed -= Heap.measure { app.receiveMemoryWarning(targetBytes: targetBytes) }.delta.net
            for index in tabs.tabs.indices.dropFirst() { try tabs.select(index) }
            try tabs.select(0)
        }
        let statistics = runtime.reloadStatistics
        var reloads: [ReloadKind: ReloadStatistics.Summary] = [:]
        var deviceReloads: [ReloadKind: ReloadStatistics.Summary] = [:]
        for kind in ReloadKind.allCases {
            reloads[kind] = statistics.summary(kind)
            if profile != nil { deviceReloads[kind] = statistics.deviceSummary(kind) }
        }
        let row = Row(policy: policy.name, targetBytes: targetBytes, freedPerWarning: freed / rounds, reloads: reloads,
                      deviceReloads: deviceReloads, reloadNanoseconds: statistics.totalNanoseconds,
                      reloadDeviceNanoseconds: profile == nil ? nil : statistics.totalDeviceNanoseconds,
                      reloadCount: statistics.totalCount, finalRetainedBytes: runtime.ledger.total)
        app.kill()
        return row
    }
}
