/// Android's memory management for a release: ActivityManager (`oom_score_adj`, the cached and
/// empty limits, trim levels, compaction), lmkd and the kernel's OOM killer
/// (docs/fidelity.md, "Android").
///
/// For policies of XNU's family run on an Android device (`jetsam`, `freeze`), it lends iOS
/// 18's jetsam and freezer rules (the newest read).
public struct AndroidMemoryManagement: MemorySystem {
    /// The release whose rules apply.
    public let release: AndroidRelease

    /// The memory system of `release`.
    public init(release: AndroidRelease) { self.release = release }

    public var kernel: Kernel { .android }
    public var rulesRelease: OSRelease { release.osRelease }
    public var sourceTag: String { release.sourceTag }

    public var jetsam: JetsamRules { JetsamRules(.iOS18) }
    public var freezer: FreezerRules { FreezerRules(.iOS18) }
    public var lowMemoryKiller: LowMemoryKillerRules { LowMemoryKillerRules(release) }
    public var trimMemory: TrimMemoryRules { TrimMemoryRules(release) }

    /// Android 14's previous app expires after ``LowMemoryKillerRules/previousAppSeconds``
    /// (`computeOomAdjLSP`, "previous-expired"); Android 10's never does.
    public func previousAppHasExpired(since previousSince: Double, now: Double) -> Bool {
        switch release {
        case .android10: return false
        case .android14: return now - previousSince > LowMemoryKillerRules.previousAppSeconds
        }
    }

    /// ART's `kCollectorTransitionWait` (``ARTCollectionRules/collectorTransitionWaitSeconds``).
    public var collectorTransitionWaitSeconds: Double? { ARTCollectionRules.collectorTransitionWaitSeconds }

    /// `jetsam` and `freeze` run XNU's rules (iOS 18's) here; Android ships no memory freezer.
    public func whatIfNote(policy: String, on release: OSRelease) -> String? {
        switch policy {
        case "freeze":
            return "freeze on \(release): XNU's freezer, which Android does not ship (a what-if; Android's CachedAppOptimizer "
                + "freezes a cached app's CPU, not its memory: see lmk)"
        case "jetsam":
            return "jetsam on \(release): XNU's rules (iOS 18) on an Android device, a what-if"
        default:
            return nil
        }
    }

    /// The jetsam bands it lends (iOS 18's, for `jetsam` and `freeze` as what-ifs), then
    /// `OomAdjuster`'s `oom_score_adj` of every app and of their secondary processes.
    public func updatePriorities(of device: Device) {
        XNUMemoryStatus.updateBands(of: device.apps, foreground: device.foreground, now: device.now, rules: jetsam,
                                    order: &device.priorityCounter)
        let byUse = device.appsByUse()
        AndroidMemoryManagement.updateAdjs(of: byUse, foreground: device.foreground, previous: device.previous,
                                           previousExpired: previousAppHasExpired(since: device.activityManager.previousSince,
                                                                                  now: device.now),
                                           now: device.now, order: &device.priorityCounter)
        AndroidMemoryManagement.updateProcessAdjs(of: byUse, now: device.now, order: &device.priorityCounter)
    }

    /// Linux's books and reclaim, when the profile gives them (``LinuxKernel``).
    public func linuxKernel(for model: DeviceModel) -> LinuxKernel? {
        model.kernel.map { LinuxKernel(inputs: $0, model: model) }
    }

    /// Its interface is hidden: `TRIM_MEMORY_UI_HIDDEN` is due (`hasPendingUiClean`; the
    /// policy sends it as ActivityManager does), and ART's collector transition,
    /// ``collectorTransitionWaitSeconds`` after the process stops being perceptible
    /// (`Heap::UpdateProcessState`, ``ARTCollectionRules``). An app running a foreground service
    /// (audio playback, navigation: the `audio` and `location` modes) stays perceptible while the
    /// service runs: ActivityThread's process state (`updateVmProcessState`) is perceptible for
    /// every state up to `PROCESS_STATE_IMPORTANT_FOREGROUND`, and a foreground service's is
    /// above it, so ART keeps its foreground collector and transitions
    /// ``collectorTransitionWaitSeconds`` after the service stops (never, for one without an end).
    public func appLeftFront(_ installed: Device.InstalledApp, on device: Device) {
        installed.isUIHiddenPending = true
        installed.processRecord.lastTopTime = device.now
        guard let wait = collectorTransitionWaitSeconds else { return }
        switch installed.runningBackgroundMode {
        case .audio, .location:
            installed.nextCollection = installed.backgroundUntil.flatMap { $0.isFinite ? $0 + wait : nil }
        case .task, nil:
            installed.nextCollection = device.now + wait
        }
    }

    /// ART's collections due by now, reading what the termination policy's runtime reads
    /// (`ARTBackgroundCollector`).
    public func stepEnding(on device: Device) {
        ARTBackgroundCollector(reads: device.termination.backgroundCollection).runDue(on: device)
    }

    public var seesSecondaryProcesses: Bool { true }

    /// The main process's memory (secondary processes are seen on their own).
    public func policyBytes(of installed: Device.InstalledApp) -> Int { installed.mainBytes }

    /// The proportional set size as `dumpsys meminfo` reports it: resident dirty memory plus
    /// the clean pages mapped by a live process; zram-swapped pages left out.
    public func platformFootprint(of installed: Device.InstalledApp) -> Int {
        installed.bytes - installed.app.runtime.compressedBytes + installed.app.cleanResidentBytes
    }

    /// As iOS 18's (the jetsam rules it lends): while the app runs.
    public func holdsActiveLimit(_ installed: Device.InstalledApp) -> Bool {
        jetsam.holdsActiveLimit(installed.app.state)
    }

    public var rewritesLimitOnEveryMove: Bool { jetsam.rewritesLimitOnEveryMove }
}
