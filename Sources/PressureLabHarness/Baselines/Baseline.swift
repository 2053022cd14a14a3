import Foundation
import PressureLabHeap

/// A saved set of results to gate against: `pressurelab.baseline/1` (JSON).
///
/// Byte metrics are deterministic and stored as measured; latency metrics are stored as
/// medians over the repeats of each run, since single timings are noise.
public struct Baseline: Codable, Sendable, Equatable {
    public var schema = "pressurelab.baseline/1"
    public var name: String
    public var toolVersion: String
    /// The allocator and its options when the baseline was measured: a check under another
    /// configuration warns, since byte counts depend on it.
    public var allocator: String
    public var allocatorOptions: [String: String]
    /// The compressors' libraries by codec when the baseline was measured (absent in older
    /// baselines): a check with other versions warns, since compressed sizes depend on them.
    public var compressors: [String: String]?
    public var entries: [Entry]

    /// One scenario under one policy pair.
    public struct Entry: Codable, Sendable, Equatable {
        public var scenario: String
        public var policy: String
        public var termination: String
        public var seed: UInt64
        public var repeats: Int
        /// Metric name to value (bytes, counts, or nanoseconds for latencies).
        public var metrics: [String: Double]

        /// The key that pairs an entry with a run: scenario, policy and termination.
        public var key: String { "\(scenario) / \(policy) / \(termination)" }
    }

    /// Byte metrics (deterministic: gated tightly).
    public static let byteMetrics = ["peakRetainedBytes", "finalRetainedBytes", "meanRetainedBytes", "dataLossBytes"]
    /// Device-time metrics (modelled, deterministic: gated exactly by default).
    public static let deviceTimeMetrics = ["coldLaunchDeviceNs.p50", "resumeDeviceNs.p50", "viewReloadDeviceNs.p50",
                                           "reloadDeviceTimeNs"]
    /// Latency metrics (medians over repeats: gated with a noise tolerance).
    public static let latencyMetrics = ["viewReloadLatencyNs.p50", "viewReloadLatencyNs.p99", "coldLaunchLatencyNs.p50",
                                        "coldLaunchLatencyNs.p99", "resumeLatencyNs.p50", "reloadTimeNs"]

    /// Builds a baseline from runs (repeats of the same scenario and policies are merged:
    /// bytes from the first, latencies as medians).
    public init(name: String, runs: [RunResult]) throws(HeapError) {
        let allocator = try Heap.allocatorInfo()
        self.name = name
        self.toolVersion = ScenarioRunner.toolVersion
        self.allocator = allocator.name
        self.allocatorOptions = allocator.options
        self.compressors = PageCodec.libraries
        self.entries = Baseline.entries(from: runs)
    }

    static func entries(from runs: [RunResult]) -> [Entry] {
        var order: [String] = []
        var groups: [String: [RunResult]] = [:]
        for run in runs {
            let key = "\(run.scenario) / \(run.policy) / \(run.termination)"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(run)
        }
        return order.map { key in
            let group = groups[key]!
            let first = group[0]
            var metrics: [String: Double] = [:]
            for name in byteMetrics { metrics[name] = Double(value(of: name, in: first)) }
            for name in latencyMetrics { metrics[name] = median(group.map { Double(value(of: name, in: $0)) }) }
            // Device time is deterministic, like bytes: the first run's figure, gated exactly.
            if first.metrics.reloadDeviceTimeNs != nil {
                for name in deviceTimeMetrics { metrics[name] = Double(value(of: name, in: first)) }
            }
            metrics["kills"] = Double(first.metrics.kills)
            metrics["coldLaunches"] = Double(first.metrics.coldLaunches)
            return Entry(scenario: first.scenario, policy: first.policy, termination: first.termination, seed: first.seed,
                         repeats: group.count, metrics: metrics)
        }
    }

    static func value(of metric: String, in run: RunResult) -> UInt64 {
        let metrics = run.metrics
        switch metric {
        case "peakRetainedBytes": return UInt64(max(0, metrics.peakRetainedBytes))
        case "finalRetainedBytes": return UInt64(max(0, metrics.finalRetainedBytes))
        case "meanRetainedBytes": return UInt64(max(0, metrics.meanRetainedBytes))
        case "dataLossBytes": return UInt64(max(0, metrics.dataLossBytes))
        case "viewReloadLatencyNs.p50": return metrics.viewReloadLatencyNs.p50
        case "viewReloadLatencyNs.p99": return metrics.viewReloadLatencyNs.p99
        case "coldLaunchLatencyNs.p50": return metrics.coldLaunchLatencyNs.p50
        case "coldLaunchLatencyNs.p99": return metrics.coldLaunchLatencyNs.p99
        case "resumeLatencyNs.p50": return metrics.resumeLatencyNs.p50
        case "reloadTimeNs": return metrics.reloadTimeNs
        case "coldLaunchDeviceNs.p50": return metrics.coldLaunchDeviceNs?.p50 ?? 0
        case "resumeDeviceNs.p50": return metrics.resumeDeviceNs?.p50 ?? 0
        case "viewReloadDeviceNs.p50": return metrics.viewReloadDeviceNs?.p50 ?? 0
        case "reloadDeviceTimeNs": return metrics.reloadDeviceTimeNs ?? 0
        default: return 0
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    // MARK: - Files

    /// Writes the baseline as JSON, atomically.
    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Reads a baseline; a missing or corrupt file is an error that says so, never a pass.
    public static func read(from path: String) throws(GateError) -> Baseline {
        guard let data = FileManager.default.contents(atPath: path) else { throw .baselineMissing(path: path) }
        return try decode(data, path: path)
    }

    /// Decodes a baseline file's bytes; `path` names the file in errors. A baseline that
    /// could not gate anything (no entries, or an entry without metrics) is refused.
    public static func decode(_ data: Data, path: String) throws(GateError) -> Baseline {
        let baseline: Baseline
        do {
            baseline = try JSONDecoder().decode(Baseline.self, from: data)
        } catch {
            throw .baselineCorrupt(path: path, reason: "\(error)")
        }
        guard baseline.schema == "pressurelab.baseline/1" else {
            throw .baselineCorrupt(path: path, reason: "schema '\(baseline.schema)'; this build reads pressurelab.baseline/1")
        }
        guard !baseline.entries.isEmpty else { throw .baselineCorrupt(path: path, reason: "the baseline has no entries") }
        if let empty = baseline.entries.first(where: { $0.metrics.isEmpty }) {
            throw .baselineCorrupt(path: path, reason: "entry '\(empty.key)' has no metrics, so it would gate nothing; "
                                       + "save the baseline again with 'pressurelab baseline save'")
        }
        return baseline
    }
}

/// Why a gate could not judge, or what it found.
public enum GateError: Error, Equatable, CustomStringConvertible {
    case baselineMissing(path: String)
    case baselineCorrupt(path: String, reason: String)
    case thresholdsInvalid(path: String, reason: String)

    public var description: String {
        switch self {
        case .baselineMissing(let path):
            return "\(path): no such baseline; save one first with 'pressurelab baseline save'"
        case .baselineCorrupt(let path, let reason):
            return "\(path): the baseline is unreadable: \(reason)"
        case .thresholdsInvalid(let path, let reason):
            return "\(path): invalid thresholds: \(reason)"
        }
    }
}
