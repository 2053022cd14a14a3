/// A process an Android app runs beside its main one: a browser's renderer or GPU process, a
/// push service in a process of its own (`android:process` in the manifest, or an isolated
/// service). docs/fidelity.md, "Processes".
public struct ProcessSpec: Sendable, Equatable {
    /// What follows the app's name after a colon (`sandboxed_process0` for
    /// `com.android.chrome:sandboxed_process0`); the device names it `APP:NAME`.
    public var name: String
    /// How ActivityManager ranks it.
    public var kind: ProcessKind
    /// The anonymous memory the process holds while it lives (bytes, allocated and measured).
    public var bytes: Int

    /// A secondary process named `APP:name`, holding `bytes`.
    public init(name: String, kind: ProcessKind, bytes: Int) {
        self.name = name
        self.kind = kind
        self.bytes = bytes
    }
}

/// How ActivityManager ranks a secondary process (`OomAdjuster.computeOomAdjLocked`).
public enum ProcessKind: String, Sendable, CaseIterable, Codable {
    /// An isolated service bound by the app (a renderer: `isolatedProcess="true"`): it follows
    /// its client's importance and dies when its client unbinds ("isolated not needed").
    case isolated
    /// A service in a process of its own, bound by the app (a GPU process): it follows its
    /// client's importance.
    case bound
    /// A started service in a process of its own (`:mqtt`, `:push`): `SERVICE_ADJ` while its
    /// service runs, whatever the app's state.
    case service
}

/// A secondary process as the device sees it: its name, kind and state.
public final class SecondaryProcess {
    /// What the scenario declared.
    public let spec: ProcessSpec
    /// The app it belongs to.
    public let appName: String
    /// `APP:NAME`, as Android names it.
    public let name: String
    /// Its `oom_score_adj` and when it was last set (lmkd's slot order): read for every process
    /// at every step of an Android run, without dynamic exclusivity checks (a process is used on
    /// its device's thread; measured: Benchmarks/README.md, "Exclusivity checks").
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public internal(set) var oomScoreAdj = LowMemoryKillerRules.notRunningAdj
    /// When its `oom_score_adj` was last set (lmkd's slot order; higher is later).
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    public internal(set) var adjOrder: UInt64 = 0
    /// When ActivityManager starts it again after it was killed alone (nil: not scheduled),
    /// ``ServiceRestartRules``; the delay it waited last, and when it last started.
    public internal(set) var restartAt: Double?
    var restartDelay = 0.0
    var lastStart: Double?

    init(spec: ProcessSpec, appName: String) {
        self.spec = spec
        self.appName = appName
        self.name = "\(appName):\(spec.name)"
    }
}

extension Application {
    /// The ledger key of a secondary process's memory.
    func processOwner(_ spec: ProcessSpec) -> MemoryOwner {
        MemoryOwner(controller: ControllerID(screen: "\(name):\(spec.name)", instance: 0), category: .model)
    }

    /// Whether the secondary process runs now.
    public func isRunning(process spec: ProcessSpec) -> Bool { processMemory[spec.name] != nil }

    /// The bytes a secondary process holds now (measured; 0 when it does not run).
    public func bytes(of spec: ProcessSpec) -> Int { runtime.ledger.balance(of: processOwner(spec)) }

    /// Bytes every running secondary process holds (measured).
    public var secondaryProcessBytes: Int {
        processes.reduce(0) { $0 + bytes(of: $1) }
    }

    /// Starts every secondary process that does not run (at a launch, or as the app comes back
    /// to the front after one was killed): each is a process start, counted, and its memory
    /// is allocated. Returns how many started. A binding to a service whose process is dead
    /// starts that process (`ActiveServices.bringUpServiceLocked` -> `startProcessLocked`);
    /// ActivityManager's own restart of a killed service comes first when it is due sooner
    /// (``Device`` schedules it: ``ServiceRestartRules``). docs/fidelity.md, "Processes".
    @discardableResult
    func startSecondaryProcesses() -> Int {
        var started = 0
        for spec in processes where startSecondaryProcess(spec) { started += 1 }
        return started
    }

    /// Starts one secondary process if it does not run (a process start, counted; its memory
    /// allocated). Returns whether it started.
    @discardableResult
    func startSecondaryProcess(_ spec: ProcessSpec) -> Bool {
        guard processMemory[spec.name] == nil else { return false }
        runtime.count { $0.processStarts += 1 }
        runtime.ledger.measure(owner: processOwner(spec)) {
            processMemory[spec.name] = HeapBlock(count: spec.bytes, pattern: 0x5E, gate: runtime.memoryGate,
                                                 fill: runtime.contents?[.appData])
        }
        recordApp(TraceEventKind("processStarted:\(spec.name)"))
        return true
    }

    /// Ends one secondary process: its memory is freed (the main process lives on).
    func endSecondaryProcess(_ spec: ProcessSpec) {
        guard processMemory[spec.name] != nil else { return }
        discardSwappedProcessMemory(spec)
        let owner = processOwner(spec)
        runtime.ledger.measure(owner: owner) { processMemory[spec.name] = nil }
        runtime.ledger.remove(owner: owner)
    }

    /// Ends every secondary process (with the main one).
    func endSecondaryProcesses() {
        for spec in processes { endSecondaryProcess(spec) }
    }
}
