/// XNU's memory management for a release: memorystatus (jetsam bands, aging, per-process
/// limits and their warnings, the kill reasons), the freezer and the compressor
/// (`bsd/kern/kern_memorystatus*.c`, docs/fidelity.md, "XNU").
///
/// For policies of Android's family run on an iPhone (`lmk`), it lends Android 10's
/// `oom_score_adj` and trim rules (the oldest read).
public struct XNUMemoryStatus: MemorySystem {
    /// The release whose rules apply.
    public let release: XNURelease

    /// The memory system of `release`.
    public init(release: XNURelease) { self.release = release }

    public var kernel: Kernel { .xnu }
    public var rulesRelease: OSRelease { release.osRelease }
    public var sourceTag: String { release.sourceTag }

    public var jetsam: JetsamRules { JetsamRules(release) }
    public var freezer: FreezerRules { FreezerRules(release) }
    public var lowMemoryKiller: LowMemoryKillerRules { LowMemoryKillerRules(.android10) }
    public var trimMemory: TrimMemoryRules { TrimMemoryRules(.android10) }

    /// XNU's apps run no collector transition.
    public var collectorTransitionWaitSeconds: Double? { nil }

    /// `lmk` (and its variant without lmkd) run Android 10's ActivityManager and lmkd here.
    public func whatIfNote(policy: String, on release: OSRelease) -> String? {
        switch policy {
        case "lmk", "lmk-without-lmkd":
            return "\(policy) on \(release): Android 10's ActivityManager and lmkd on an iOS device, a what-if"
        default:
            return nil
        }
    }

    /// Jetsam's bands with aging (``JetsamRules``), then the `oom_score_adj` books it lends
    /// (Android 10's, for `lmk` as a what-if); an app is one process here.
    public func updatePriorities(of device: Device) {
        XNUMemoryStatus.updateBands(of: device.apps, foreground: device.foreground, now: device.now, rules: jetsam,
                                    order: &device.priorityCounter)
        AndroidMemoryManagement.updateAdjs(of: device.appsByUse(), foreground: device.foreground, previous: device.previous,
                                           previousExpired: previousAppHasExpired(since: device.activityManager.previousSince,
                                                                                  now: device.now),
                                           now: device.now, order: &device.priorityCounter)
    }

    /// Linux's books and reclaim it lends, as a what-if, when a profile gives an iPhone a
    /// `kernel:` section (``LinuxKernel``); none otherwise.
    public func linuxKernel(for model: DeviceModel) -> LinuxKernel? {
        model.kernel.map { LinuxKernel(inputs: $0, model: model) }
    }

    /// None: XNU tells apps of memory only by warnings (jetsam kills send nothing).
    public func lowMemoryReport(afterDeathOf victim: Device.InstalledApp, reason: KillReason, on device: Device) -> [Device.InstalledApp] { [] }

    /// The trim rules it lends note `TRIM_MEMORY_UI_HIDDEN` as due (for `lmk` as a what-if);
    /// XNU's apps run no collector transition.
    public func appLeftFront(_ installed: Device.InstalledApp, on device: Device) {
        installed.isUIHiddenPending = true
    }

    /// Nothing: XNU's apps have no runtime collecting in the background.
    public func stepEnding(on device: Device) {}

    /// XNU has no previous app.
    public func previousAppHasExpired(since previousSince: Double, now: Double) -> Bool { false }

    public var seesSecondaryProcesses: Bool { false }

    /// The app's footprint (everything its one process holds).
    public func policyBytes(of installed: Device.InstalledApp) -> Int { installed.bytes }

    /// `phys_footprint`: dirty memory, compressed memory at its uncompressed size, clean pages
    /// left out (``Device/InstalledApp/footprintBytes``).
    public func platformFootprint(of installed: Device.InstalledApp) -> Int { installed.footprintBytes }

    public func holdsActiveLimit(_ installed: Device.InstalledApp) -> Bool {
        jetsam.holdsActiveLimit(installed.app.state)
    }

    public var rewritesLimitOnEveryMove: Bool { jetsam.rewritesLimitOnEveryMove }
}
