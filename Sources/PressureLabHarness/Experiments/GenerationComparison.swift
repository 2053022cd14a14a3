import PressureLab
import PressureLabHeap

/// The unload cycle of each OS generation on one small app, measured: a list, a detail
/// screen and a compose screen are pushed in turn, the user types into the compose screen,
/// a warning arrives, and the user goes back to the detail screen. Each generation's run is
/// a ``Simulation`` of that app on a device of that iOS release under that release's own
/// cleanup policy (`ios2`, `ios3`, `ios6`).
///
/// Every figure is measured by jemalloc (retained bytes, the app's ledger) or the monotonic
/// clock (latency).
public struct GenerationComparison {
    /// One generation's figures.
    public struct Row: Sendable, Equatable {
        /// The release whose unload cycle ran.
        public var generation: OSRelease
        /// Whether the cycle releases outlets with the view (iPhone OS 2.2 does not).
        public var releasesOutlets: Bool
        /// Bytes the app held before the warning (ledger, measured).
        public var retainedBeforeWarning: Int
        /// Bytes the warning freed (ledger, measured).
        public var freedByWarning: Int
        /// Bytes held after the warning.
        public var retainedAfterWarning: Int
        /// Bytes held after going back to the detail screen.
        public var retainedAfterReturn: Int
        /// Real time of the step back to the detail screen, nanoseconds.
        public var returnLatencyNanoseconds: UInt64
        /// Callbacks and state changes recorded.
        public var traceEvents: Int
    }

    /// The screens of the app, with phone-sized bitmaps (a 750x1334 layer is about 4 MB).
    public static func screens() throws -> [ScreenSpec] {
        [
            ScreenSpec(name: "list", view: try .wide(count: 200, bytes: 1024, rootBacking: 4 << 20),
                       outlets: 2, cacheBytes: 8 << 20),
            ScreenSpec(name: "detail", view: try .tree(depth: 3, fanout: 4, bytes: 2048, rootBacking: 4 << 20),
                       outlets: 6, cacheBytes: 4 << 20, modelBytes: 1 << 20),
            ScreenSpec(name: "compose", view: try .tree(depth: 2, fanout: 3, bytes: 1024, rootBacking: 4 << 20),
                       outlets: 3),
        ]
    }

    /// A comparison of every generation's unload cycle.
    public init() {}

    /// Runs the app once per generation, with outlets released and with outlets forgotten.
    ///
    /// - Parameter trace: where to send every event (for `--trace`), or nil.
    public func run(trace: (any TraceOutput)? = nil) throws -> [Row] {
        var rows: [Row] = []
        for releasesOutlets in [true, false] {
            for generation in OSRelease.unloadCycles {
                rows.append(try runOnce(generation: generation, releasesOutlets: releasesOutlets, trace: trace))
            }
        }
        return rows
    }

    /// The built-in cleanup policy that is a release's unload cycle.
    static func cleanup(of release: OSRelease) -> Cleanup {
        switch release.unloadCycle {
        case .iPhoneOS2: return .ios2
        case .iPhoneOS3, .iOS5: return .ios3
        default: return .ios6
        }
    }

    func runOnce(generation: OSRelease, releasesOutlets: Bool, trace: (any TraceOutput)?) throws -> Row {
        let name = "demo-\(generation.rawValue.replacingOccurrences(of: ".", with: "-"))" + (releasesOutlets ? "" : "-forgetful")
        let (os, cleanup) = (generation, Self.cleanup(of: generation))
        var device = Scenario.DeviceSpec(memoryBytes: 256 << 20)
        device.os = os
        let screens = try Self.screens().map { screen in
            var screen = screen
            screen.releasesOutlets = releasesOutlets
            return screen
        }
        let scenario = try Scenario(name: name, device: device,
                                    apps: [.init(name: name, screens: screens, root: .nav("list"))],
                                    script: [.launch(name), .push("detail"), .push("compose"), .type(2048), .warning(.warning), .pop()])
        trace?.beginRun("\(name) / \(cleanup.name)")
        let simulation = try Simulation(scenario, cleanup: cleanup, termination: .noTermination, trace: trace, keepsEvents: true)
        for step in scenario.script.prefix(4) { try simulation.play([step]) }
        let before = simulation.device.usedBytes
        try simulation.perform(.warning(.warning))
        let after = simulation.device.usedBytes
        let back = try MonotonicClock.time { try simulation.perform(.pop(1)) }
        let row = Row(generation: generation, releasesOutlets: releasesOutlets, retainedBeforeWarning: before,
                      freedByWarning: before - after, retainedAfterWarning: after,
                      retainedAfterReturn: simulation.device.usedBytes, returnLatencyNanoseconds: back.nanoseconds,
                      traceEvents: simulation.recorder.events.count)
        _ = simulation.finish()
        return row
    }
}
