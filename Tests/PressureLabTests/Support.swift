import PressureLab
import PressureLabHeap

/// Callbacks (not state-change events) a trace holds, as `kind(controller)`.
let callbackKinds: Set<TraceEventKind> = [
    .loadView, .viewDidLoad, .viewWillAppear, .viewWillLayoutSubviews, .viewDidLayoutSubviews,
    .viewDidAppear, .viewWillDisappear, .viewDidDisappear, .didReceiveMemoryWarning,
    .viewWillUnload, .viewDidUnload, .deinitialized,
    .willMoveToParent, .didMoveToParent, .willMoveToNilParent, .didMoveToNilParent,
    .didFinishLaunching, .didBecomeActive, .willResignActive, .didEnterBackground, .willEnterForeground,
    .willTerminate, .applicationDidReceiveMemoryWarning, .memoryWarningNotification,
]

extension TraceRecorder {
    /// Only the UIKit callbacks, in order.
    var callbacks: [String] { events.filter { callbackKinds.contains($0.kind) }.map(\.description) }
}

/// A runtime with screens registered, for tests.
func makeRuntime(_ generation: OSGeneration = .iOS6, screens: [ScreenSpec]) throws -> RuntimeContext {
    let runtime = try RuntimeContext(app: "test", generation: generation)
    for screen in screens { try runtime.register(screen) }
    return runtime
}

/// The measured bytes a loaded tree should take: payload at size classes plus bookkeeping.
func expectedTreeBytes(_ description: ViewDescription) -> Int {
    View.allocatedPayloadBytes(for: description) + View.expectedBookkeepingBytes(for: description)
}

/// Runs `body` twice and returns the net bytes of the second run on this thread: the first
/// run warms one-time allocations (type metadata, dictionary capacity, file caches).
func steadyStateNetBytes(_ body: () throws -> Void) rethrows -> Int {
    try body()
    return try Heap.measure(body).delta.net
}

/// A mail-like app's screens: small trees with phone-sized bitmaps.
func mailScreens() throws -> [ScreenSpec] {
    [
        ScreenSpec(name: "inbox", view: try .tree(depth: 2, fanout: 3, bytes: 1024, rootBacking: 64 << 10), cacheBytes: 32 << 10),
        ScreenSpec(name: "message", view: try .tree(depth: 2, fanout: 4, bytes: 2048, rootBacking: 64 << 10), outlets: 2,
                   modelBytes: 16 << 10),
        ScreenSpec(name: "attachment", view: try .wide(count: 5, bytes: 4096, rootBacking: 128 << 10)),
        ScreenSpec(name: "settings", view: try .wide(count: 10, bytes: 512, rootBacking: 64 << 10)),
        ScreenSpec(name: "compose", view: try .tree(depth: 1, fanout: 3, bytes: 1024, rootBacking: 64 << 10)),
        ScreenSpec(name: "contacts", view: try .wide(count: 6, bytes: 512, rootBacking: 32 << 10)),
    ]
}
