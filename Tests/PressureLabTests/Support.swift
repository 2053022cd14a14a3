import PressureLab
import PressureLabHeap

/// Callbacks (not state-change events) a trace holds, as `kind(controller)`.
let callbackKinds: Set<TraceEventKind> = [
    .loadView, .viewDidLoad, .viewWillAppear, .viewWillLayoutSubviews, .viewDidLayoutSubviews,
    .viewDidAppear, .viewWillDisappear, .viewDidDisappear, .didReceiveMemoryWarning,
    .viewWillUnload, .viewDidUnload, .deinitialized,
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
