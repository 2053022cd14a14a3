import PressureLab
import PressureLabHeap

/// Termination policies compared on Fleet's workload (ASPLOS 2024): launch apps in
/// sequence under a budget that holds only some of them, then revisit them in least
/// recently used order; count the apps kept alive (cached) and time every launch.
public struct DeviceComparison {
    /// One policy's figures.
    public struct Row: Sendable {
        public var policy: String
        public var cachedAppsMean: Double
        /// The most apps alive at once.
        public var cachedAppsMax: Int
        /// Times an app was compressed into the in-RAM pool, and the measured ratio (0
        /// without compression).
        public var compressions: Int
        public var compressionRatio: Double
        public var kills: Int
        public var freezes: Int
        public var coldLaunches: Int
        public var resumes: Int
        public var thaws: Int
        public var outOfMemoryCrashes: Int
        public var dataLossBytes: Int
        /// Launch latencies per kind (host time).
        public var launches: [LaunchKind: ReloadStatistics.Summary]
        /// The same in device time (modelled with the profile; empty without one).
        public var deviceLaunches: [LaunchKind: ReloadStatistics.Summary]
    }

    public var appCount: Int
    /// How many apps' worth of memory the budget holds.
    public var appsThatFit: Double
    /// How many times the whole sequence is revisited.
    public var revisits: Int

    /// The device whose costs give device time (nil: host time only).
    public var profile: DeviceProfile?
    /// Each app's model (recreatable data), bytes: with the default 1 MiB an app is under
    /// XNU's freezer minimum (`FREEZE_PAGES_MIN`, 8 MB) and is never frozen.
    public var modelBytes: Int

    public init(appCount: Int = 20, appsThatFit: Double = 8, revisits: Int = 2, profile: DeviceProfile? = nil,
                modelBytes: Int = 1 << 20) {
        self.modelBytes = modelBytes
        self.appCount = appCount
        self.appsThatFit = appsThatFit
        self.revisits = revisits
        self.profile = profile
    }

    /// An app of about 12 MiB in front: a feed table, a detail screen with a full-screen
    /// bitmap, a model and a cache (phone-sized).
    public static func screens(modelBytes: Int = 1 << 20) throws -> [ScreenSpec] {
        [
            ScreenSpec(name: "feed", view: try .single(bytes: 2048, backing: Layer.bitmapBytes(width: 750, height: 1334)),
                       cacheBytes: 2 << 20,
                       table: TableSpec(rows: 500, visibleRows: 8, cell: try .wide(count: 4, bytes: 1024))),
            ScreenSpec(name: "detail", view: try .tree(depth: 2, fanout: 4, bytes: 2048,
                                                      rootBacking: Layer.bitmapBytes(width: 750, height: 1334)),
                       outlets: 4, cacheBytes: 1 << 20, modelBytes: modelBytes),
        ]
    }

    static func makeApp(_ index: Int, modelBytes: Int = 1 << 20) throws -> Application {
        let name = "app\(index)"
        let runtime = try RuntimeContext(app: name, generation: .iOS6, trace: TraceRecorder(isEnabled: false))
        for screen in try screens(modelBytes: modelBytes) { try runtime.register(screen) }
        runtime.cleanupPolicy = IOS6Policy()
        return Application(name: name, runtime: runtime, hierarchy: .navigation(["feed", "detail"]))
    }

    /// Measured bytes of one app in front.
    public static func measureOneApp(modelBytes: Int = 1 << 20) throws -> Int {
        let app = try makeApp(0, modelBytes: modelBytes)
        try app.launch()
        defer { app.kill() }
        return app.runtime.ledger.total
    }

    /// - Parameter compressor: the in-RAM compressor (`.none`: kills and freezes only).
    public func run(policy kind: TerminationKind, compressor: Compressor = .none, progress: ((String) -> Void)? = nil) throws -> Row {
        RunnerWarmUp.ensure()
        let name = kind.rawValue
        let perApp = try Self.measureOneApp(modelBytes: modelBytes)
        let budget = Int(Double(perApp) * appsThatFit)
        let device = Device(model: .init(budgetBytes: budget, compressor: compressor, pageBytes: profile?.pageBytes ?? 4096,
                                         costs: profile?.costs, contents: profile?.contents(seed: 1)),
                            termination: kind.policy)
        let apps = try (1...appCount).map { try Self.makeApp($0, modelBytes: modelBytes) }
        for app in apps { device.install(app) }
        // Launch in sequence, then revisit in least recently used order (the same order).
        for pass in 0...revisits {
            for app in apps {
                progress?("\(name): pass \(pass + 1), \(app.name)")
                try device.open(app.name)
            }
        }
        var launches: [LaunchKind: ReloadStatistics.Summary] = [:]
        var deviceLaunches: [LaunchKind: ReloadStatistics.Summary] = [:]
        for kind in [LaunchKind.cold, .resume, .thaw] {
            launches[kind] = device.metrics.launchLatency(kind)
            if profile != nil { deviceLaunches[kind] = device.metrics.launchDeviceLatency(kind) }
        }
        let label = compressor == .none ? name : "\(name) + \(compressor.rawValue)"
        let row = Row(policy: label, cachedAppsMean: device.metrics.cachedAppsMean,
                      cachedAppsMax: device.metrics.cachedAppsSamples.max() ?? 0, compressions: device.metrics.appsCompressed,
                      compressionRatio: device.metrics.compressionRatio, kills: device.metrics.kills,
                      freezes: device.metrics.freezes, coldLaunches: device.metrics.coldLaunches,
                      resumes: device.metrics.resumes, thaws: device.metrics.thaws,
                      outOfMemoryCrashes: device.metrics.outOfMemoryCrashes,
                      dataLossBytes: apps.reduce(0) { $0 + $1.dataLossBytes }, launches: launches,
                      deviceLaunches: deviceLaunches)
        for app in apps { app.kill() }
        return row
    }
}
