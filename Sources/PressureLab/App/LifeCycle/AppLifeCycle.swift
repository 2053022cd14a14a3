/// The app life cycle a release runs: which callbacks an app's trace names, and when.
///
/// The release answers it (``OSRelease/makeAppLifeCycle()``), as it answers its memory system;
/// the ``Device`` installs it on every app's runtime (``RuntimeContext/lifeCycle``). The runtime
/// under it is the same on every platform (controllers whose views load, draw and cache); the
/// life cycle decides what the trace calls the app's transitions:
///
/// - ``UIKitLifeCycle``: UIKit's callbacks, recorded where the runtime runs them (the app
///   delegate's, each controller's appearance and memory-warning callbacks); every hook here
///   does nothing.
/// - ``AndroidActivityLifeCycle``: Android's: each controller in front is an Activity
///   (`onCreate`, `onStart`, `onResume`, `onPause`, `onStop`, `onDestroy`,
///   `onSaveInstanceState`), memory warnings are `onTrimMemory` with a running level, and
///   UIKit's callbacks are not recorded (``omittedKinds``).
///
/// The hooks are called by ``Application`` (launch, return, leaving the front, interruptions,
/// warnings, process death) and by ``Window`` (a change of the controller in front).
/// docs/app-life-cycle.md, "Android's life cycle", gives the orders and their sources.
public protocol AppLifeCycle: AnyObject {
    /// The life cycle's name (`UIKit`, `Android activities`).
    var name: String { get }
    /// Trace kinds this life cycle's traces never carry (the other platform's callbacks).
    var omittedKinds: Set<TraceEventKind> { get }
    /// Whether the app writes its restoration archive as it enters the background (UIKit's
    /// `didEnterBackground`); false: when its activity is stopped
    /// (``didLeaveFront(_:save:)``, Android's `onSaveInstanceState`).
    var savesWhenEnteringBackground: Bool { get }
    /// What the app-level event of a memory warning at `level` is called.
    ///
    /// - Parameter level: the warning's level.
    func memoryWarningKind(_ level: PressureLevel) -> TraceEventKind

    /// A new process is about to show its interface, whose controller in front is `front`.
    ///
    /// - Parameters:
    ///   - app: the app.
    ///   - front: the controller that will be in front.
    ///   - restored: every controller the restoration archive gave back (none when built afresh).
    func willShowInterface(of app: Application, front: ViewController, restored: [ViewController])
    /// The interface a new process showed is on screen.
    ///
    /// - Parameter app: the app.
    func didShowInterface(of app: Application)
    /// The app comes back to the front (before what was purged is drawn again).
    ///
    /// - Parameter app: the app.
    func willReturn(_ app: Application)
    /// The app is in front again and receives events (after a return or an interruption).
    ///
    /// - Parameter app: the app.
    func didReturn(_ app: Application)
    /// The app stops receiving events (Home, a switch, an interruption).
    ///
    /// - Parameter app: the app.
    func willLeaveFront(_ app: Application)
    /// The app's interface is no longer visible: another app is in front (or the launcher).
    /// `save` writes the restoration archive where the life cycle saves it.
    ///
    /// - Parameters:
    ///   - app: the app.
    ///   - save: writes the archive.
    func didLeaveFront(_ app: Application, save: () throws -> Void) rethrows
    /// The controller in front of the app's window is about to change from `old` to `new`
    /// (the hierarchy already changed; no view has been loaded or shown yet).
    ///
    /// - Parameters:
    ///   - old: the controller that was in front.
    ///   - new: the controller that will be.
    func frontWillChange(from old: ViewController, to new: ViewController)
    /// The change announced by ``frontWillChange(from:to:)`` is on screen.
    ///
    /// - Parameter window: the window, whose hierarchy tells a finished controller from a covered one.
    func frontDidChange(in window: Window)
    /// The change announced by ``frontWillChange(from:to:)`` failed and was undone.
    func frontChangeFailed()
    /// The app's process ended (a kill, a crash, a termination).
    func processDidEnd()
    /// An app-wide memory callback `kind` (a warning's, a trim level's, `onLowMemory`) was
    /// recorded for the app: the life cycle records it for the app's other components that
    /// receive it too.
    ///
    /// - Parameters:
    ///   - kind: the callback recorded for the app.
    ///   - app: the app.
    func memoryCallbackDelivered(_ kind: TraceEventKind, in app: Application)
}

extension AppLifeCycle {
    /// Nothing by default: a life cycle whose components hear no app-wide memory callback of
    /// their own (one written before this hook existed keeps compiling).
    public func memoryCallbackDelivered(_ kind: TraceEventKind, in app: Application) {}
}

/// UIKit's life cycle: the runtime records UIKit's callbacks where it runs them; nothing more.
public final class UIKitLifeCycle: AppLifeCycle {
    /// UIKit's life cycle.
    public init() {}
    /// `UIKit`.
    public var name: String { "UIKit" }
    /// None: the trace is the runtime's, as it always was.
    public var omittedKinds: Set<TraceEventKind> { [] }
    /// True: the archive is written in `didEnterBackground`.
    public var savesWhenEnteringBackground: Bool { true }
    /// `applicationDidReceiveMemoryWarning`, whatever the level.
    public func memoryWarningKind(_ level: PressureLevel) -> TraceEventKind { .applicationDidReceiveMemoryWarning }
    /// Nothing: UIKit's callbacks are recorded by the runtime.
    public func willShowInterface(of app: Application, front: ViewController, restored: [ViewController]) {}
    /// Nothing.
    public func didShowInterface(of app: Application) {}
    /// Nothing.
    public func willReturn(_ app: Application) {}
    /// Nothing.
    public func didReturn(_ app: Application) {}
    /// Nothing.
    public func willLeaveFront(_ app: Application) {}
    /// Nothing: the archive was saved in `didEnterBackground`.
    public func didLeaveFront(_ app: Application, save: () throws -> Void) rethrows {}
    /// Nothing: the window runs the appearance callbacks.
    public func frontWillChange(from old: ViewController, to new: ViewController) {}
    /// Nothing.
    public func frontDidChange(in window: Window) {}
    /// Nothing.
    public func frontChangeFailed() {}
    /// Nothing.
    public func processDidEnd() {}
}
