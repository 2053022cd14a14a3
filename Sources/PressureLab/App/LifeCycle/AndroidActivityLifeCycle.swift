/// Android's app life cycle: each controller that comes to the front of an app's window is an
/// Activity, and the trace names Android's callbacks in the orders frameworks/base runs them.
///
/// Sources (AOSP frameworks/base, Android 10 and 14; read as the code search quoted them,
/// docs/app-life-cycle.md, "Android's life cycle"):
/// - `core/java/android/app/servertransaction/TransactionExecutorHelper.java`,
///   `getLifecyclePath`: a launch goes ON_CREATE, ON_START, ON_RESUME; a stopped activity
///   brought back goes ON_RESTART, ON_START, ON_RESUME; a paused one only ON_RESUME.
/// - `core/java/android/app/ActivityThread.java`, `handleStartActivity`: `onStart`, then
///   `onRestoreInstanceState` when the activity was created from saved state (`r.state`), then
///   `onPostCreate`; `callActivityOnStop`: "Before P onSaveInstanceState was called before
///   onStop, starting with P it's called after" (`r.isPreP()`, the app's target SDK below 28).
/// - Starting another activity or app: the one in front pauses first, the next is created (or
///   restarted), started and resumed, and only then is the previous one stopped (the stop waits
///   for the next activity to be idle); back (`Activity.finish`) pauses the top, resumes the one
///   below, then stops and destroys the finished one.
///
/// Memory warnings are `onTrimMemory` at the running level ActivityManager gives the
/// foreground app for that pressure (``TrimMemoryRules/runningLevel(for:)``); the cleanup
/// they carry out is the same as UIKit's warning (the policy's plan), so only names change.
/// Trims and `onLowMemory` reach the Application and each activity
/// (``memoryCallbackDelivered(_:in:)``). What is not modelled: fragments (a tab is an activity
/// of its own here), `onPostCreate`,
/// `onTopResumedActivityChanged`, the saved Bundle of an activity covered inside the app (its
/// `onSaveInstanceState` is recorded; the app's archive is written when the app leaves the front).
public final class AndroidActivityLifeCycle: AppLifeCycle {
    /// An activity's state, as `ActivityClientRecord` keeps it (ON_CREATE ... ON_STOP).
    enum ActivityState { case created, resumed, paused, stopped }

    /// Whether `onSaveInstanceState` follows `onStop` (API 28 and later), else precedes it.
    public let savesStateAfterStop: Bool
    /// The activities of the process, by controller.
    var activities: [ControllerID: ActivityState] = [:]
    /// The activity in front (resumed, or paused while the app leaves).
    var front: ViewController?
    /// Controllers restored from the archive whose activity is not created yet: created from
    /// saved state (`onRestoreInstanceState`) when they first come to the front.
    var savedState: Set<ControllerID> = []
    /// Whether the app's front activity is resumed: the window's changes are activity changes.
    var isResumed = false
    /// The change in progress (``frontWillChange(from:to:)``).
    var moving: (old: ViewController, new: ViewController, created: Bool)?

    /// Android's life cycle; `savesStateAfterStop` for API 28 and later (``OSRelease/androidAPILevel``).
    ///
    /// - Parameter savesStateAfterStop: whether `onSaveInstanceState` follows `onStop`.
    public init(savesStateAfterStop: Bool) {
        self.savesStateAfterStop = savesStateAfterStop
    }

    /// `Android activities`.
    public var name: String { "Android activities" }
    /// UIKit's callbacks and app states: an Android trace has none of them.
    public var omittedKinds: Set<TraceEventKind> { Self.uikitKinds }
    /// False: the archive is written when the activity is stopped (`onSaveInstanceState`).
    public var savesWhenEnteringBackground: Bool { false }

    /// UIKit's controller, container and app-delegate callbacks, and its Suspended state.
    public static let uikitKinds: Set<TraceEventKind> = [
        .loadView, .viewDidLoad, .viewWillAppear, .viewWillLayoutSubviews, .viewDidLayoutSubviews,
        .viewDidAppear, .viewWillDisappear, .viewDidDisappear, .didReceiveMemoryWarning,
        .viewWillUnload, .viewDidUnload, .deinitialized,
        .willMoveToParent, .didMoveToParent, .willMoveToNilParent, .didMoveToNilParent,
        .didFinishLaunching, .didBecomeActive, .willResignActive, .didEnterBackground, .willEnterForeground,
        .willTerminate, .applicationDidReceiveMemoryWarning, .memoryWarningNotification, .suspended,
    ]

    /// `onTrimMemory` at the foreground's running level for `level`.
    public func memoryWarningKind(_ level: PressureLevel) -> TraceEventKind {
        .onTrimMemory(TrimMemoryRules.runningLevel(for: level))
    }

    /// `onCreate` of the activity in front (its views are inflated in it: `setContentView`).
    public func willShowInterface(of app: Application, front: ViewController, restored: [ViewController]) {
        activities = [:]
        savedState = Set(restored.map(\.id))
        front.record(.onCreate)
        activities[front.id] = .created
        self.front = front
    }

    /// `onStart`, `onRestoreInstanceState` (from saved state), `onResume`.
    public func didShowInterface(of app: Application) {
        guard let front else { return }
        start(front)
        resume(front)
    }

    /// `onRestart`, `onStart` of a stopped activity in front.
    public func willReturn(_ app: Application) {
        guard let front, activities[front.id] == .stopped else { return }
        front.record(.onRestart)
        front.record(.onStart)
        activities[front.id] = .created
    }

    /// `onResume` of the activity in front.
    public func didReturn(_ app: Application) {
        guard let front, !isResumed else { return }
        resume(front)
    }

    /// `onPause` of the activity in front.
    public func willLeaveFront(_ app: Application) {
        guard let front, isResumed else { return }
        front.record(.onPause)
        activities[front.id] = .paused
        isResumed = false
    }

    /// `onStop` and `onSaveInstanceState` (in the release's order) of the paused activity in front;
    /// `save` writes the archive at `onSaveInstanceState`.
    public func didLeaveFront(_ app: Application, save: () throws -> Void) rethrows {
        guard let front, activities[front.id] == .paused else { return }
        try stop(front, save: save)
    }

    /// `onPause` of the old activity; `onCreate` of the new one if it has none yet.
    public func frontWillChange(from old: ViewController, to new: ViewController) {
        guard isResumed, old !== new else { return }
        old.record(.onPause)
        activities[old.id] = .paused
        isResumed = false
        let created = activities[new.id] == nil
        if created {
            new.record(.onCreate)
            activities[new.id] = .created
        }
        moving = (old, new, created)
    }

    /// The new activity started and resumed (`onRestart` first if it was stopped); then the old
    /// one stopped: saved if it is still in the hierarchy (covered), destroyed if it was
    /// finished (back); activities finished below it without coming back are destroyed too.
    public func frontDidChange(in window: Window) {
        guard let (old, new, _) = moving else { return }
        moving = nil
        if activities[new.id] == .stopped {
            new.record(.onRestart)
        }
        start(new)
        resume(new)
        front = new
        let alive = Set(window.rootViewController.map(collectIDs) ?? [])
        if alive.contains(old.id) {
            stop(old, save: {})
        } else {
            old.record(.onStop)
            old.record(.onDestroy)
            activities[old.id] = nil
        }
        for id in activities.keys.sorted() where !alive.contains(id) {
            activities[id] = nil
            old.runtime.trace.record(app: old.runtime.app, controller: id, .onDestroy)
        }
    }

    /// The old activity resumes again; the new one's record (if just created) is dropped.
    public func frontChangeFailed() {
        guard let (old, new, created) = moving else { return }
        moving = nil
        if created { activities[new.id] = nil }
        resume(old)
    }

    /// Everything is forgotten: a dead process has no activities (a killed one gets no callback).
    public func processDidEnd() {
        activities = [:]
        savedState = []
        front = nil
        isResumed = false
        moving = nil
    }

    /// Every activity of the process that is not destroyed gets `kind` after the Application:
    /// `ActivityThread.handleTrimMemory` and `handleLowMemory` call each callback of
    /// `collectComponentCallbacks(true)`, the Application first, then every activity not
    /// finished, paused or not (services and providers are not modelled). The activities' order
    /// there is `mActivities`' (an `ArrayMap` by token); here, the window's hierarchy from its
    /// root (the bottom of a stack first: an estimate).
    public func memoryCallbackDelivered(_ kind: TraceEventKind, in app: Application) {
        guard !activities.isEmpty, app.runtime.trace.isEnabled else { return }
        let hierarchy = app.window.rootViewController.map(collectIDs) ?? []
        let ordered = hierarchy.filter { activities[$0] != nil }
        let rest = activities.keys.filter { !ordered.contains($0) }.sorted()
        for id in ordered + rest { app.runtime.trace.record(app: app.runtime.app, controller: id, kind) }
    }

    // MARK: - Steps of the path

    private func start(_ activity: ViewController) {
        activity.record(.onStart)
        if savedState.remove(activity.id) != nil { activity.record(.onRestoreInstanceState) }
        activities[activity.id] = .created
    }

    private func resume(_ activity: ViewController) {
        activity.record(.onResume)
        activities[activity.id] = .resumed
        front = activity
        isResumed = true
    }

    private func stop(_ activity: ViewController, save: () throws -> Void) rethrows {
        if !savesStateAfterStop {
            activity.record(.onSaveInstanceState)
            try save()
        }
        activity.record(.onStop)
        activities[activity.id] = .stopped
        if savesStateAfterStop {
            activity.record(.onSaveInstanceState)
            try save()
        }
    }

    private func collectIDs(_ root: ViewController) -> [ControllerID] {
        var ids: [ControllerID] = []
        root.forEachInHierarchy { ids.append($0.id) }
        return ids
    }
}

/// Android's activity and memory callbacks (`android.app.Activity`, `ComponentCallbacks`).
extension TraceEventKind {
    /// `Activity.onCreate`.
    public static let onCreate = TraceEventKind("onCreate")
    /// `Activity.onStart`.
    public static let onStart = TraceEventKind("onStart")
    /// `Activity.onRestart`.
    public static let onRestart = TraceEventKind("onRestart")
    /// `Activity.onRestoreInstanceState`.
    public static let onRestoreInstanceState = TraceEventKind("onRestoreInstanceState")
    /// `Activity.onResume`.
    public static let onResume = TraceEventKind("onResume")
    /// `Activity.onPause`.
    public static let onPause = TraceEventKind("onPause")
    /// `Activity.onStop`.
    public static let onStop = TraceEventKind("onStop")
    /// `Activity.onSaveInstanceState`.
    public static let onSaveInstanceState = TraceEventKind("onSaveInstanceState")
    /// `Activity.onDestroy`.
    public static let onDestroy = TraceEventKind("onDestroy")
    /// `ComponentCallbacks.onLowMemory`.
    public static let onLowMemory = TraceEventKind("onLowMemory")
}
