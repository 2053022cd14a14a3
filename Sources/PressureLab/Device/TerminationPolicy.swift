/// What a termination policy does next.
public enum ReclaimAction: Sendable, Equatable {
    /// Kill a background or suspended app (no callback: SIGKILL), for a reason.
    case kill(String, KillReason)
    /// Freeze a suspended app: its memory goes to a file and is freed.
    case freeze(String)
    /// The freezer's thread ran and froze nothing: its next run is its interval away (XNU sets
    /// `memorystatus_freezer_thread_next_run_ts` after every run, whether it froze or not).
    case freezerRan
    /// Send a memory warning to every running app.
    case warnRunningApps
    /// Kill the foreground app: an out-of-memory crash.
    case killForeground(KillReason)
    /// Compress a cached app's memory into the in-RAM pool (Android's `CachedAppOptimizer`
    /// compaction, which sends a cached app's anonymous pages to zram).
    case compact(String)
}

/// What the system tells a running (or cached) app, outside any kill.
public enum AppNotification: Sendable, Equatable {
    /// iOS: a memory warning at a level (UIKit's `didReceiveMemoryWarning`).
    case memoryWarning(String, PressureLevel)
    /// Android: `onTrimMemory(level)`; the level is stored as the app's trim level.
    case trimMemory(String, TrimLevel)
    /// Android: the app's stored trim level becomes this, nothing is sent (0: reset).
    case storeTrimLevel(String, Int)
    /// Android 10: ActivityManager's memory factor becomes this, with the process count it was
    /// decided at (`mLastMemoryLevel`, `mLastNumProcesses`).
    case storeMemoryFactor(PressureLevel, processCount: Int)
}

/// Decides whom to kill or freeze when the device needs memory back, and what to tell apps.
///
/// Requirements:
/// - ``nextAction(_:)`` returns one action at a time; the device performs it, measures
///   again, and asks again until the policy returns nil. It is asked at the end of every
///   step, under pressure or not: the policy decides when memory is short (XNU's
///   thresholds, lmkd's levels). A policy must not return the same kill twice (the app is
///   gone).
/// - ``notifications(_:previousLevel:)`` is asked once a step, before ``nextAction(_:)``,
///   with the level before the step: memory warnings (iOS) and trim levels (Android) go
///   out as the policy says.
public protocol TerminationPolicy {
    /// The policy's name: `[a-z0-9-]+`, not a built-in one's.
    var name: String { get }
    /// The next kill, freeze, compaction or warning, or nil when the device needs nothing more;
    /// asked again after each action.
    func nextAction(_ device: DeviceSnapshot) -> ReclaimAction?
    /// Warnings and trim levels to deliver now.
    func notifications(_ device: DeviceSnapshot, previousLevel: PressureLevel) -> [AppNotification]
    /// On Android, what the apps' runtime reads of a heap when it collects in the background
    /// (``BackgroundCollection``): a policy that changes the runtime with the kernel, as Fleet
    /// does, says so here. Android 10's ART by default.
    var backgroundCollection: BackgroundCollection { get }
}

extension TerminationPolicy {
    public func notifications(_ device: DeviceSnapshot, previousLevel: PressureLevel) -> [AppNotification] { [] }
    public var backgroundCollection: BackgroundCollection { .wholeHeap }
}
