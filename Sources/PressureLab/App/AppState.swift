/// An app's state (UIKit `UIApplication.State`, plus the process states around it).
public enum AppState: String, Sendable, Codable, CaseIterable {
    /// No process: never launched, or terminated or killed.
    case notRunning
    /// In the foreground, not receiving events (launching, or leaving).
    case inactive
    /// In the foreground, receiving events.
    case active
    /// In the background, running code (saving state).
    case background
    /// In memory, running no code.
    case suspended

    /// Whether the process exists and runs code (`willTerminate` is only sent then).
    public var isRunning: Bool { self == .inactive || self == .active || self == .background }
    /// Whether the process exists (running or suspended).
    public var hasProcess: Bool { self != .notRunning }
}

/// How an app came to the foreground, as Apple and Android name launches.
public enum LaunchKind: String, Sendable, Codable {
    /// No process: everything built, state restored from disk.
    case cold
    /// The process was suspended: nothing rebuilt but purged backing stores and caches.
    case resume
    /// The process was frozen: its memory is read back from the freezer file, then resumed.
    case thaw
}

/// App-level events in the trace (controller is nil).
extension TraceEventKind {
    /// `application(_:didFinishLaunchingWithOptions:)`.
    public static let didFinishLaunching = TraceEventKind("didFinishLaunching")
    /// `applicationDidBecomeActive(_:)`.
    public static let didBecomeActive = TraceEventKind("didBecomeActive")
    /// `applicationWillResignActive(_:)`.
    public static let willResignActive = TraceEventKind("willResignActive")
    /// `applicationDidEnterBackground(_:)`.
    public static let didEnterBackground = TraceEventKind("didEnterBackground")
    /// `applicationWillEnterForeground(_:)`.
    public static let willEnterForeground = TraceEventKind("willEnterForeground")
    /// `applicationWillTerminate(_:)`.
    public static let willTerminate = TraceEventKind("willTerminate")
    /// `applicationDidReceiveMemoryWarning(_:)` on the app delegate.
    public static let applicationDidReceiveMemoryWarning = TraceEventKind("applicationDidReceiveMemoryWarning")
    /// `UIApplicationDidReceiveMemoryWarningNotification` to the app's observers.
    public static let memoryWarningNotification = TraceEventKind("didReceiveMemoryWarningNotification")
    /// The app was suspended.
    public static let suspended = TraceEventKind("suspended")
    /// The app's process was killed (no callback).
    public static let processKilled = TraceEventKind("processKilled")
    /// The app's process crashed (an allocation found no memory).
    public static let processCrashed = TraceEventKind("processCrashed")
    /// The restoration archive was written.
    public static let restorationSaved = TraceEventKind("restorationSaved")
    /// The interface was restored from the archive.
    public static let restorationRestored = TraceEventKind("restorationRestored")
    /// The archive could not be read: the app started afresh.
    public static let restorationFailed = TraceEventKind("restorationFailed")
    /// `ComponentCallbacks2.onTrimMemory` (Android), without its level; the trace records
    /// ``onTrimMemory(_:)``.
    public static let onTrimMemory = TraceEventKind("onTrimMemory")
    /// `ComponentCallbacks2.onTrimMemory(level)` (Android) with its level as Android names it:
    /// `onTrimMemory:TRIM_MEMORY_UI_HIDDEN`.
    public static func onTrimMemory(_ level: TrimLevel) -> TraceEventKind {
        TraceEventKind("onTrimMemory:\(level.constantName)")
    }
}
