/// XNU's jetsam priority bands (higher survives longer).
public enum JetsamBand: Int, Comparable, Sendable, Codable {
    case idle = 0
    case aging1 = 10
    case aging2 = 20
    case background = 30
    case freezer = 75
    case foreground = 100
    case home = 160
    case important = 180
    case critical = 190

    public static func < (lhs: JetsamBand, rhs: JetsamBand) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One app as a termination policy sees it.
public struct AppSnapshot: Sendable, Equatable {
    public var name: String
    public var state: AppState
    public var isForeground: Bool
    public var isFrozen: Bool
    /// Measured bytes the app holds.
    public var bytes: Int
    /// Simulated time of its last use (seconds).
    public var lastUsed: Double
    /// Order of last use: higher is more recent (breaks ties in time).
    public var useOrder: UInt64
    /// Its jetsam band.
    public var band: JetsamBand
    /// Its Android `oom_score_adj`.
    public var oomScoreAdj: Int
    /// Whether its memory is in the in-RAM compressed pool (its bytes are its compressed footprint).
    public var isCompressed: Bool

    public init(name: String, state: AppState, isForeground: Bool, isFrozen: Bool, bytes: Int, lastUsed: Double,
                useOrder: UInt64, band: JetsamBand, oomScoreAdj: Int, isCompressed: Bool = false) {
        self.isCompressed = isCompressed
        self.name = name
        self.state = state
        self.isForeground = isForeground
        self.isFrozen = isFrozen
        self.bytes = bytes
        self.lastUsed = lastUsed
        self.useOrder = useOrder
        self.band = band
        self.oomScoreAdj = oomScoreAdj
    }

    /// Whether the process exists and is not the foreground app.
    public var isKillableInBackground: Bool { state.hasProcess && !isForeground }
}

/// The device as a termination policy sees it.
public struct DeviceSnapshot: Sendable {
    public var apps: [AppSnapshot]
    public var usedBytes: Int
    public var budgetBytes: Int
    public var level: PressureLevel
    /// Bytes to free to get below the warning clear threshold (and the budget).
    public var bytesToFree: Int
    /// Bytes the freezer may still write.
    public var freezeBudgetBytes: Int
    /// Whether running apps were warned in this round already.
    public var runningAppsWarned: Bool

    public init(apps: [AppSnapshot], usedBytes: Int, budgetBytes: Int, level: PressureLevel, bytesToFree: Int,
                freezeBudgetBytes: Int, runningAppsWarned: Bool) {
        self.apps = apps
        self.usedBytes = usedBytes
        self.budgetBytes = budgetBytes
        self.level = level
        self.bytesToFree = bytesToFree
        self.freezeBudgetBytes = freezeBudgetBytes
        self.runningAppsWarned = runningAppsWarned
    }
}

/// What a termination policy does next.
public enum ReclaimAction: Sendable, Equatable {
    /// Kill a background or suspended app (no callback: SIGKILL).
    case kill(String)
    /// Freeze a suspended app: its memory goes to a file and is freed.
    case freeze(String)
    /// Send a memory warning to every running app.
    case warnRunningApps
    /// Kill the foreground app: an out-of-memory crash.
    case killForeground
}

/// Decides whom to kill or freeze when the device needs memory back.
///
/// Requirements:
/// - ``nextAction(_:)`` returns one action at a time; the device performs it, measures
///   again, and asks again until memory is below the warning clear threshold or the policy
///   returns nil. A policy must not return the same kill twice (the app is gone).
/// - Trim levels (Android) are delivered by the device at the moments the policy names
///   (``trimLevels(whenBackgrounded:)``, ``trimLevels(forLevel:apps:)``); policies of iOS
///   style return none.
public protocol TerminationPolicy {
    var name: String { get }
    func nextAction(_ device: DeviceSnapshot) -> ReclaimAction?
    /// Trim levels for an app that just left the foreground.
    func trimLevels(whenBackgrounded app: AppSnapshot) -> [TrimLevel]
    /// Trim levels per app when the pressure level rises.
    func trimLevels(forLevel level: PressureLevel, apps: [AppSnapshot]) -> [(app: String, level: TrimLevel)]
}

extension TerminationPolicy {
    public func trimLevels(whenBackgrounded app: AppSnapshot) -> [TrimLevel] { [] }
    public func trimLevels(forLevel level: PressureLevel, apps: [AppSnapshot]) -> [(app: String, level: TrimLevel)] { [] }
}
