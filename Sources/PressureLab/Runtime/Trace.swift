import PressureLabHeap
/// The name of something that happened: a lifecycle callback or a state change.
///
/// Open like `Notification.Name`: the runtime defines its events as static members;
/// containers, apps and the device add theirs.
public struct TraceEventKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// An event kind named `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

extension TraceEventKind {
    // View controller callbacks (UIKit names).
    /// `loadView()`.
    public static let loadView = TraceEventKind("loadView")
    /// `viewDidLoad()`.
    public static let viewDidLoad = TraceEventKind("viewDidLoad")
    /// `viewWillAppear(_:)`.
    public static let viewWillAppear = TraceEventKind("viewWillAppear")
    /// `viewWillLayoutSubviews()`.
    public static let viewWillLayoutSubviews = TraceEventKind("viewWillLayoutSubviews")
    /// `viewDidLayoutSubviews()`.
    public static let viewDidLayoutSubviews = TraceEventKind("viewDidLayoutSubviews")
    /// `viewDidAppear(_:)`.
    public static let viewDidAppear = TraceEventKind("viewDidAppear")
    /// `viewWillDisappear(_:)`.
    public static let viewWillDisappear = TraceEventKind("viewWillDisappear")
    /// `viewDidDisappear(_:)`.
    public static let viewDidDisappear = TraceEventKind("viewDidDisappear")
    /// `didReceiveMemoryWarning()`.
    public static let didReceiveMemoryWarning = TraceEventKind("didReceiveMemoryWarning")
    /// `viewWillUnload()` (iOS 5).
    public static let viewWillUnload = TraceEventKind("viewWillUnload")
    /// `viewDidUnload()` (iPhone OS 3 to iOS 5).
    public static let viewDidUnload = TraceEventKind("viewDidUnload")
    /// The controller was deallocated.
    public static let deinitialized = TraceEventKind("deinit")
    // State changes of a controller's memory.
    /// The controller's view was released.
    public static let viewReleased = TraceEventKind("viewReleased")
    /// Its outlets were released.
    public static let outletsReleased = TraceEventKind("outletsReleased")
    /// Its backing stores were drawn.
    public static let backingStoresDrawn = TraceEventKind("backingStoresDrawn")
    /// Its backing stores were released.
    public static let backingStoresPurged = TraceEventKind("backingStoresPurged")
    /// Its cache was filled.
    public static let cacheFilled = TraceEventKind("cacheFilled")
    /// Its cache was released.
    public static let cachePurged = TraceEventKind("cachePurged")
    /// Its model was read.
    public static let modelLoaded = TraceEventKind("modelLoaded")
    /// Its model was released.
    public static let modelReleased = TraceEventKind("modelReleased")
    /// User data was typed into it.
    public static let userDataTyped = TraceEventKind("userDataTyped")
}

/// One recorded event: which step of a run, which app and controller, what happened.
public struct TraceEvent: Sendable, Equatable, CustomStringConvertible {
    /// The step of the scenario that was running (0 before any step).
    public var step: Int
    /// The app the event belongs to.
    public var app: String
    /// The controller's identity (`screen#instance`), or nil for app and device events.
    public var controller: ControllerID?
    /// What happened.
    public var kind: TraceEventKind
    /// When it was recorded: host time (`MonotonicClock`), nanoseconds, stamped when the
    /// recorder has a ``TraceRecorder/sink`` (a writer); 0 otherwise. Measured, never device
    /// time.
    public var hostNanoseconds: UInt64

    /// An event with each field given.
    public init(step: Int, app: String, controller: ControllerID?, kind: TraceEventKind, hostNanoseconds: UInt64 = 0) {
        self.step = step
        self.app = app
        self.controller = controller
        self.kind = kind
        self.hostNanoseconds = hostNanoseconds
    }

    public var description: String {
        controller.map { "\(kind)(\($0))" } ?? "\(kind)"
    }

    /// Events are equal when they say the same thing at the same step; when they were
    /// recorded (host time) does not count, so that two runs compare equal.
    public static func == (lhs: TraceEvent, rhs: TraceEvent) -> Bool {
        lhs.step == rhs.step && lhs.app == rhs.app && lhs.controller == rhs.controller && lhs.kind == rhs.kind
    }
}

/// Records every callback and state change, in order.
///
/// Events are kept in ``events`` (when ``keepsEvents`` is on) and handed to ``sink``
/// as they happen, so a writer can put each on disk at once and a crash loses nothing.
public final class TraceRecorder {
    /// The events recorded so far, oldest first.
    public private(set) var events: [TraceEvent] = []
    /// Whether events are kept in memory (turn off for long runs that stream to a sink).
    public var keepsEvents: Bool
    /// Called with every event as it is recorded.
    public var sink: ((TraceEvent) -> Void)?
    /// The step stamped on new events; the runner advances it.
    public var step = 0
    /// Whether anything is recorded at all.
    public var isEnabled: Bool
    /// Kinds never recorded: the other platform's callbacks (``AppLifeCycle/omittedKinds``).
    public var omittedKinds: Set<TraceEventKind> = []

    /// A recorder; `keepsEvents` keeps them in memory, `sink` receives each as it happens.
    public init(isEnabled: Bool = true, keepsEvents: Bool = true, sink: ((TraceEvent) -> Void)? = nil) {
        self.isEnabled = isEnabled
        self.keepsEvents = keepsEvents
        self.sink = sink
    }

    /// Records one event.
    @inline(__always)
    public func record(app: String, controller: ControllerID?, _ kind: TraceEventKind) {
        guard isEnabled else { return }
        if !omittedKinds.isEmpty, omittedKinds.contains(kind) { return }
        let event = TraceEvent(step: step, app: app, controller: controller, kind: kind,
                               hostNanoseconds: sink == nil ? 0 : MonotonicClock.now())
        if keepsEvents { events.append(event) }
        sink?(event)
    }

    /// Forgets the kept events.
    public func removeAll() { events.removeAll() }

    /// The kept events as `kind(controller)` strings: handy in tests.
    public var summary: [String] { events.map(\.description) }
}
