/// Where pressure levels come from. The device's level is the highest any source reports.
public protocol PressureSource: AnyObject {
    /// The source's name in reports.
    var name: String { get }
    /// The level this source reports, given memory in use and the budget (bytes).
    func level(usedBytes: Int, budgetBytes: Int) -> PressureLevel
}

/// Rise and clear thresholds, as fractions of the budget in use (hysteresis: a level rises
/// at its rise threshold and clears only below its clear threshold).
public struct PressureThresholds: Sendable, Equatable, Codable {
    /// The warning level rises at this fraction in use.
    public var warningRise: Double
    /// The warning level clears below this fraction.
    public var warningClear: Double
    /// The critical level rises at this fraction.
    public var criticalRise: Double
    /// The critical level clears below this fraction.
    public var criticalClear: Double

    /// 80% / 70% for warning, 92% / 85% for critical (the scenario format's example values).
    public static let `default` = PressureThresholds(warningRise: 0.80, warningClear: 0.70,
                                                     criticalRise: 0.92, criticalClear: 0.85)

    /// Thresholds with each fraction given.
    public init(warningRise: Double, warningClear: Double, criticalRise: Double, criticalClear: Double) {
        self.warningRise = warningRise
        self.warningClear = warningClear
        self.criticalRise = criticalRise
        self.criticalClear = criticalClear
    }

    /// Nil when valid, else what is wrong.
    public var problem: String? {
        let values = [warningRise, warningClear, criticalRise, criticalClear]
        guard values.allSatisfy({ $0 > 0 && $0 <= 1 }) else { return "thresholds must be fractions in (0, 1]" }
        guard warningClear < warningRise else { return "warning clear (\(warningClear)) must be below its rise (\(warningRise))" }
        guard criticalClear < criticalRise else { return "critical clear (\(criticalClear)) must be below its rise (\(criticalRise))" }
        guard warningRise <= criticalRise else { return "warning rise (\(warningRise)) must not exceed critical rise (\(criticalRise))" }
        return nil
    }
}

/// The level computed from measured use, with hysteresis.
public final class MeasuredPressure: PressureSource {
    public let name = "measured"
    /// The thresholds.
    public let thresholds: PressureThresholds
    /// The level now.
    public private(set) var current: PressureLevel = .normal

    /// A source at `normal`.
    public init(thresholds: PressureThresholds = .default) {
        self.thresholds = thresholds
    }

    public func level(usedBytes: Int, budgetBytes: Int) -> PressureLevel {
        let fraction = Double(usedBytes) / Double(max(budgetBytes, 1))
        switch current {
        case .normal:
            if fraction >= thresholds.criticalRise { current = .critical } else if fraction >= thresholds.warningRise { current = .warning }
        case .warning:
            if fraction >= thresholds.criticalRise { current = .critical } else if fraction < thresholds.warningClear { current = .normal }
        case .critical:
            if fraction < thresholds.warningClear { current = .normal } else if fraction < thresholds.criticalClear { current = .warning }
        }
        return current
    }
}

/// Warnings injected by a script: each injected level is reported once.
public final class ScriptedPressure: PressureSource {
    public let name = "scripted"
    private var pending: PressureLevel?

    /// A source with nothing injected.
    public init() {}

    /// Reports `level` at the next evaluation.
    public func inject(_ level: PressureLevel) {
        pending = max(pending ?? .normal, level)
    }

    public func level(usedBytes: Int, budgetBytes: Int) -> PressureLevel {
        defer { pending = nil }
        return pending ?? .normal
    }
}
