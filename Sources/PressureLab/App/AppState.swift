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
    public static let didFinishLaunching = TraceEventKind("didFinishLaunching")
    public static let didBecomeActive = TraceEventKind("didBecomeActive")
    public static let willResignActive = TraceEventKind("willResignActive")
    public static let didEnterBackground = TraceEventKind("didEnterBackground")
    public static let willEnterForeground = TraceEventKind("willEnterForeground")
    public static let willTerminate = TraceEventKind("willTerminate")
    public static let applicationDidReceiveMemoryWarning = TraceEventKind("applicationDidReceiveMemoryWarning")
    public static let memoryWarningNotification = TraceEventKind("didReceiveMemoryWarningNotification")
    public static let suspended = TraceEventKind("suspended")
    public static let processKilled = TraceEventKind("processKilled")
    public static let processCrashed = TraceEventKind("processCrashed")
    public static let restorationSaved = TraceEventKind("restorationSaved")
    public static let restorationRestored = TraceEventKind("restorationRestored")
    public static let restorationFailed = TraceEventKind("restorationFailed")
    public static let onTrimMemory = TraceEventKind("onTrimMemory")
}
