import Foundation

/// A figure of a run that baselines record, gates check and `Footprint` expectations name:
/// one type, with its kind (which decides its default allowance) and its unit. The raw value
/// is the name a baseline file and a thresholds file use.
public enum GatedMetric: String, CaseIterable, Sendable {
    // Measured bytes (deterministic: gated tightly).
    /// Retained bytes (peak, final, mean over the steps) and user data lost, measured.
    case peakRetainedBytes, finalRetainedBytes, meanRetainedBytes, dataLossBytes
    /// Bytes retained more at the end of each cycle of the scenario's `repeat:` (the slope,
    /// ``RunMetrics/growthPerCycleBytes``): a leak shows here before it shows in the peak.
    case growthPerCycleBytes
    // Host latencies (medians over repeats: gated with a noise tolerance).
    /// The median host time of view reloads.
    case viewReloadP50 = "viewReloadLatencyNs.p50"
    /// The 99th percentile host time of view reloads.
    case viewReloadP99 = "viewReloadLatencyNs.p99"
    /// The median host time of cold launches.
    case coldLaunchP50 = "coldLaunchLatencyNs.p50"
    /// The 99th percentile host time of cold launches.
    case coldLaunchP99 = "coldLaunchLatencyNs.p99"
    /// The median host time of resumes.
    case resumeP50 = "resumeLatencyNs.p50"
    /// The host time of every reload, summed.
    case reloadTimeNs
    // Device time (modelled with the run's profile, deterministic: gated exactly; 0 without one).
    /// The median device time of cold launches.
    case coldLaunchDeviceP50 = "coldLaunchDeviceNs.p50"
    /// The median device time of resumes.
    case resumeDeviceP50 = "resumeDeviceNs.p50"
    /// The median device time of view reloads.
    case viewReloadDeviceP50 = "viewReloadDeviceNs.p50"
    /// The device time of every reload, summed.
    case reloadDeviceTimeNs
    // Counts.
    /// Processes killed, cold launches and view reloads, counted.
    case kills, coldLaunches, viewReloads

    /// What kind of figure it is.
    public enum Kind: Sendable {
        /// Measured bytes, host latencies, device times and counts.
        case bytes, latency, deviceTime, count
    }

    /// What kind of figure it is (its default allowance follows from it).
    public var kind: Kind {
        switch self {
        case .peakRetainedBytes, .finalRetainedBytes, .meanRetainedBytes, .dataLossBytes, .growthPerCycleBytes: return .bytes
        case .viewReloadP50, .viewReloadP99, .coldLaunchP50, .coldLaunchP99, .resumeP50, .reloadTimeNs: return .latency
        case .coldLaunchDeviceP50, .resumeDeviceP50, .viewReloadDeviceP50, .reloadDeviceTimeNs: return .deviceTime
        case .kills, .coldLaunches, .viewReloads: return .count
        }
    }

    /// The unit its values are in.
    public var unit: MetricUnit {
        switch kind {
        case .bytes: return .bytes
        case .latency, .deviceTime: return .nanoseconds
        case .count: return .count
        }
    }

    /// Whether baselines record it (view reloads are not gated: a policy's choice, not a cost).
    public var isBaselined: Bool { self != .viewReloads }

    /// The metric's value in a run.
    public func value(in run: RunResult) -> Double {
        let metrics = run.metrics
        switch self {
        case .peakRetainedBytes: return Double(max(0, metrics.peakRetainedBytes))
        case .finalRetainedBytes: return Double(max(0, metrics.finalRetainedBytes))
        case .meanRetainedBytes: return Double(max(0, metrics.meanRetainedBytes))
        case .dataLossBytes: return Double(max(0, metrics.dataLossBytes))
        case .growthPerCycleBytes: return Double(metrics.growthPerCycleBytes ?? 0)
        case .viewReloadP50: return Double(metrics.viewReloadLatencyNs.p50)
        case .viewReloadP99: return Double(metrics.viewReloadLatencyNs.p99)
        case .coldLaunchP50: return Double(metrics.coldLaunchLatencyNs.p50)
        case .coldLaunchP99: return Double(metrics.coldLaunchLatencyNs.p99)
        case .resumeP50: return Double(metrics.resumeLatencyNs.p50)
        case .reloadTimeNs: return Double(metrics.reloadTimeNs)
        case .coldLaunchDeviceP50: return Double(metrics.coldLaunchDeviceNs?.p50 ?? 0)
        case .resumeDeviceP50: return Double(metrics.resumeDeviceNs?.p50 ?? 0)
        case .viewReloadDeviceP50: return Double(metrics.viewReloadDeviceNs?.p50 ?? 0)
        case .reloadDeviceTimeNs: return Double(metrics.reloadDeviceTimeNs ?? 0)
        case .kills: return Double(metrics.kills)
        case .coldLaunches: return Double(metrics.coldLaunches)
        case .viewReloads: return Double(metrics.viewReloads)
        }
    }

    /// Every metric a baseline holds, by name.
    public static let baselinedNames = Set(allCases.filter(\.isBaselined).map(\.rawValue))

    /// The names of the baselined metrics of one kind, in declaration order.
    static func names(_ kind: Kind) -> [String] {
        allCases.filter { $0.kind == kind && $0.isBaselined }.map(\.rawValue)
    }
}

/// The unit of a gated metric's values; the raw value is how tracking files name it.
public enum MetricUnit: String, Sendable, CaseIterable {
    /// Bytes.
    case bytes
    /// Nanoseconds (`ns`).
    case nanoseconds = "ns"
    /// A count.
    case count

    /// A value in this unit for people: `1024 B`, `1.50 ms`, `3`; with `mebibytes`, bytes
    /// also in MiB.
    public func format(_ value: Double, mebibytes: Bool = false) -> String {
        guard value.isFinite, abs(value) < 9e18 else { return String(format: "%.3g", value) }
        switch self {
        case .bytes: return "\(Int(value)) B" + (mebibytes ? " (\(Units.mebibytes(Int(value))))" : "")
        case .nanoseconds: return Units.duration(UInt64(max(0, value)))
        case .count: return String(Int(value))
        }
    }
}
