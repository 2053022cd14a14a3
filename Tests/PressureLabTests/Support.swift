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
func makeRuntime(_ generation: OSRelease = .iOS6, screens: [ScreenSpec]) throws -> RuntimeContext {
    let runtime = try RuntimeContext(app: "test", generation: generation)
    for screen in screens { try runtime.register(screen) }
    return runtime
}

/// The measured bytes a loaded tree should take: payload at size classes plus bookkeeping.
func expectedTreeBytes(_ description: ViewDescription) -> Int {
    View.allocatedPayloadBytes(for: description) + View.expectedBookkeepingBytes(for: description)
}

/// Runs `body` once to warm one-time allocations (type metadata, dictionary capacity, file
/// caches), then measures three more runs on this thread and returns the net bytes of the
/// one closest to zero. A leak shows in every run; a runtime cache that grows on this thread
/// because another test touched it meanwhile (tests run in parallel) shows in one at most.
func steadyStateNetBytes(_ body: () throws -> Void) rethrows -> Int {
    try body()
    var nets: [Int] = []
    for _ in 0..<3 { nets.append(try Heap.measure(body).delta.net) }
    return nets.min { abs($0) < abs($1) }!
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

/// A device of `model` with two mail apps, `mail` and `notes` (``mailScreens()``, an
/// inbox in a navigation stack), sharing `trace`; returns the device and `mail`.
func twoMailApps(_ model: DeviceModel, termination: any TerminationPolicy, trace: TraceRecorder = TraceRecorder()) throws
-> (Device, Application) {
    let device = Device(model: model, termination: termination)
    var apps: [Application] = []
    for name in ["mail", "notes"] {
        let runtime = try RuntimeContext(app: name, generation: .iOS6, trace: trace)
        for screen in try mailScreens() { try runtime.register(screen) }
        apps.append(Application(name: name, runtime: runtime, hierarchy: .nav("inbox")))
        device.install(apps.last!)
    }
    return (device, apps[0])
}

/// The runtime's paths run once in this process before a test measures bytes on its thread.
///
/// Some allocations happen once per process (generic metadata, lazily made globals): on the
/// thread of whichever test gets there first. Tests running in parallel then see a few
/// hundred bytes more or less depending on the order. A suite that measures calls this in
/// its `init` (run before each of its tests); the work is done once, the first time.
let runtimePathsWarmedUp: Void = {
    try? warmUpRuntimePaths()
}()

private func warmUpRuntimePaths() throws {
    let tree = try ViewDescription.tree(depth: 2, fanout: 3, bytes: 1024, rootBacking: 16 << 10)
    for generation in OSRelease.unloadCycles {
        for releasesOutlets in [true, false] {
            for manual in [ManualUnloadIdiom.none, .checkingIsViewLoaded] {
                let runtime = try makeRuntime(generation, screens: [
                    ScreenSpec(name: "s", view: tree, outlets: 4, releasesOutlets: releasesOutlets, cacheBytes: 4096,
                               modelBytes: 4096, manualUnload: manual),
                    ScreenSpec(name: "t", view: try .single(bytes: 512, backing: 4096),
                               table: TableSpec(rows: 60, visibleRows: 5, cell: try .wide(count: 3, bytes: 100))),
                ])
                for tracing in [true, false] {
                    runtime.trace.isEnabled = tracing
                    let window = Window()
                    let navigation = try NavigationController(rootViewController: try runtime.makeController(screen: "s"))
                    try window.show(navigation)
                    try navigation.push(try runtime.makeController(screen: "s"))
                    navigation.topViewController?.type(bytes: 100)
                    navigation.receiveMemoryWarning()
                    _ = try navigation.pop()
                    let table = try runtime.makeController(screen: "t")
                    try navigation.push(table)
                    _ = (table as? TableViewController)?.scroll(by: 40)
                    _ = (table as? TableViewController)?.scroll(by: -40)
                    navigation.receiveMemoryWarning()
                    _ = try navigation.popToRoot()
                    navigation.receiveMemoryWarning()
                    window.hide(navigation)
                    navigation.receiveMemoryWarning()
                }
            }
        }
        // Warnings and trims through every built-in cleanup policy, app-wide.
        for policy in Cleanup.builtIns.map({ try! $0.makePolicy() }) {
            let runtime = try makeRuntime(generation, screens: [
                ScreenSpec(name: "s", view: tree, outlets: 2, cacheBytes: 4096, modelBytes: 4096),
            ])
            runtime.cleanupPolicy = policy
            let app = Application(name: "warm-up", runtime: runtime, hierarchy: .nav("s"))
            try app.launch()
            let navigation = app.rootViewController as! NavigationController
            for _ in 0..<3 { try navigation.push(try runtime.makeController(screen: "s")) }
            for tracing in [true, false] {
                runtime.trace.isEnabled = tracing
                for level in [PressureLevel.warning, .critical] {
                    app.receiveMemoryWarning(level: level)
                    app.receiveMemoryWarning(level: level, targetBytes: 1 << 20)
                }
                app.trimMemory(.runningCritical)
            }
            app.kill()
        }
    }
}
