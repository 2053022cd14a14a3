/// How hard the system is asking for memory (XNU's memorystatus levels).
public enum PressureLevel: Int, Comparable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// No pressure.
    case normal = 0
    /// Memory is short: apps are warned.
    case warning = 1
    /// Memory is very short: kills follow.
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
    /// `TRIM_MEMORY_RUNNING_MODERATE`.
    case runningModerate = 5
    /// `TRIM_MEMORY_RUNNING_LOW`.
    case runningLow = 10
    /// `TRIM_MEMORY_RUNNING_CRITICAL`.
    case runningCritical = 15
    /// `TRIM_MEMORY_UI_HIDDEN`.
    case uiHidden = 20
    /// `TRIM_MEMORY_BACKGROUND`.
    case background = 40
    /// `TRIM_MEMORY_MODERATE`.
    case moderate = 60
    /// `TRIM_MEMORY_COMPLETE`.
    case complete = 80

    public static func < (lhs: TrimLevel, rhs: TrimLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The level as Android names it (`ComponentCallbacks2`'s constant, `TRIM_MEMORY_UI_HIDDEN`):
    /// what a trace's `onTrimMemory` event carries.
    public var constantName: String {
        switch self {
        case .runningModerate: return "TRIM_MEMORY_RUNNING_MODERATE"
        case .runningLow: return "TRIM_MEMORY_RUNNING_LOW"
        case .runningCritical: return "TRIM_MEMORY_RUNNING_CRITICAL"
        case .uiHidden: return "TRIM_MEMORY_UI_HIDDEN"
        case .background: return "TRIM_MEMORY_BACKGROUND"
        case .moderate: return "TRIM_MEMORY_MODERATE"
        case .complete: return "TRIM_MEMORY_COMPLETE"
        }
    }

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
    /// A memory warning at a level (iOS).
    case memoryWarning(PressureLevel)
    /// A trim level (Android).
    case trimMemory(TrimLevel)

    /// The pressure behind the trigger.
    public var pressure: PressureLevel {
        switch self {
        case .memoryWarning(let level): return level
        case .trimMemory(let level): return level.pressure
        }
    }
}
