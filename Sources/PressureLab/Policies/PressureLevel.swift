/// How hard the system is asking for memory (XNU's memorystatus levels).
public enum PressureLevel: Int, Comparable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    case normal = 0
    case warning = 1
    case critical = 2

    public static func < (lhs: PressureLevel, rhs: PressureLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .normal: return "normal"
        case .warning: return "warning"
        case .critical: return "critical"
        }
    }
}

/// Android's `ComponentCallbacks2.onTrimMemory` levels (compare with >=).
public enum TrimLevel: Int, Comparable, Sendable, Codable, CaseIterable {
    case runningModerate = 5
    case runningLow = 10
    case runningCritical = 15
    case uiHidden = 20
    case background = 40
    case moderate = 60
    case complete = 80

    public static func < (lhs: TrimLevel, rhs: TrimLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The pressure a trim level stands for, for policies written in UIKit's terms.
    public var pressure: PressureLevel {
        switch self {
        case .runningModerate, .uiHidden, .background: return .warning
        case .runningLow, .runningCritical, .moderate, .complete: return .critical
        }
    }
}

/// Why a cleanup runs: a memory warning at a level, or an Android trim level.
public enum CleanupTrigger: Sendable, Equatable {
    case memoryWarning(PressureLevel)
    case trimMemory(TrimLevel)

    /// The pressure behind the trigger.
    public var pressure: PressureLevel {
        switch self {
        case .memoryWarning(let level): return level
        case .trimMemory(let level): return level.pressure
        }
    }
}
