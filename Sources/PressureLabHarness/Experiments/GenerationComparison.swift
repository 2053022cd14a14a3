import PressureLab
import PressureLabHeap

/// The unload cycle of each OS generation on one small app, measured: a list, a detail
/// screen and a compose screen are pushed in turn, a warning arrives, and the user goes
/// back to the detail screen.
///
/// This is the runtime core's end-to-end job until the scenario runner exists: every
/// figure is measured by jemalloc (retained bytes) or the monotonic clock (latency).
public struct GenerationComparison {
    /// One generation's figures.
    public struct Row: Sendable, Equatable {
        public var generation: OSGeneration
        public var releasesOutlets: Bool
        /// Bytes the app's controllers held before the warning (ledger, measured).
        public var retainedBeforeWarning: Int
        /// Bytes the warning freed (thread counters, measured).
        public var freedByWarning: Int
        /// Bytes held after the warning.
        public var retainedAfterWarning: Int
        /// Bytes held after going back to the detail screen.
        public var retainedAfterReturn: Int
        /// Real time of the transition back to the detail screen, nanoseconds.
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

    public init() {}

    /// Runs the app once per generation, with outlets released and with outlets forgotten.
    ///
    /// - Parameter trace: where to send every event (for `--trace`), or nil.
    public func run(trace: ((TraceEvent) -> Void)? = nil) throws -> [Row] {
        RunnerWarmUp.ensure()
        var rows: [Row] = []
        for releasesOutlets in [true, false] {
            for generation in OSGeneration.allCases {
                rows.append(try runOnce(generation: generation, releasesOutlets: releasesOutlets, trace: trace))
            }
        }
        return rows
    }

    func runOnce(generation: OSGeneration, releasesOutlets: Bool, trace sink: ((TraceEvent) -> Void)?) throws -> Row {
        let recorder = TraceRecorder(keepsEvents: false, sink: sink)
        var count = 0
        let forward = recorder.sink
        recorder.sink = { event in
            count += 1
            forward?(event)
        }
        let app = "demo-\(generation.rawValue)" + (releasesOutlets ? "" : "-forgetful")
        let runtime = try RuntimeContext(app: app, generation: generation, trace: recorder)
        for var screen in try Self.screens() {
            screen.releasesOutlets = releasesOutlets
            try runtime.register(screen)
        }
        let window = Window()
        let list = try runtime.makeController(screen: "list")
        let detail = try runtime.makeController(screen: "detail")
        let compose = try runtime.makeController(screen: "compose")
        recorder.step = 1
        try window.show(list)
        recorder.step = 2
        try window.transition(from: list, to: detail)
        recorder.step = 3
        try window.transition(from: detail, to: compose)
        compose.type(bytes: 2048)
        let before = runtime.ledger.total
        recorder.step = 4
        let warning = Heap.measure {
            for controller in [list, detail, compose] { controller.receiveMemoryWarning() }
        }
        let after = runtime.ledger.total
        recorder.step = 5
        let back = try MonotonicClock.time { try window.transition(from: compose, to: detail) }
        let row = Row(generation: generation, releasesOutlets: releasesOutlets,
                      retainedBeforeWarning: before, freedByWarning: -warning.delta.net,
                      retainedAfterWarning: after, retainedAfterReturn: runtime.ledger.total,
                      returnLatencyNanoseconds: back.nanoseconds, traceEvents: count)
        return row
    }
}
