import Foundation
import PressureLab
import PressureLabHeap
import SystemPackage

/// A saved set of results to gate against: `pressurelab.baseline/1` (JSON).
///
/// Byte metrics are deterministic and stored as measured; latency metrics are stored as
/// medians over the repeats of each run, since single timings are noise.
public struct Baseline: Codable, Sendable, Equatable {
    /// The format and its version, `pressurelab.baseline/1`.
    public var schema = "pressurelab.baseline/1"
    /// The baseline's name (`main`: `baselines/main.json`).
    public var name: String
    /// The version of the tool that saved it.
    public var toolVersion: String
    /// The allocator and its options when the baseline was measured: a check under another
    /// configuration warns, since byte counts depend on it.
    public var allocator: String
    /// The allocator's options that change what it measures, by name.
    public var allocatorOptions: [String: String]
    /// The compressors' libraries by codec when the baseline was measured (absent in older
    /// baselines): a check with other versions warns, since compressed sizes depend on them.
    public var compressors: [String: String]?
    /// Where the runs' own files were (`RunStorage`): `disk`, `tmpfs`, or both as
    /// `disk+tmpfs` (absent in older baselines): a check on other storage warns, since
    /// reload latencies depend on it.
    public var storage: String?
    /// One entry a scenario and policy pair.
    public var entries: [Entry]

    /// One scenario under one policy pair.
    public struct Entry: Codable, Sendable, Equatable {
        /// The scenario's name.
        public var scenario: String
        /// The cleanup policy.
        public var policy: Cleanup
        /// The termination policy.
        public var termination: Termination
        /// The seed the runs used.
        public var seed: UInt64
        /// How many repeats the latency medians are over.
        public var repeats: Int
        /// Metric name to value (bytes, counts, or nanoseconds for latencies).
        public var metrics: [String: Double]
        /// Host latencies' spread over the repeats, largest less smallest, by metric name
        /// (absent with a single repeat, and in older baselines): what one repeat to the next
        /// varied on the machine that measured them.
        public var spreads: [String: Double]?

        /// The key that pairs an entry with a run: scenario, policy and termination.
        public var key: String { "\(scenario) / \(policy) / \(termination)" }
    }

    /// Byte metrics (deterministic: gated tightly), by their names in the file (``GatedMetric``).
    public static let byteMetrics = GatedMetric.names(.bytes)
    /// Device-time metrics (modelled, deterministic: gated exactly by default).
    public static let deviceTimeMetrics = GatedMetric.names(.deviceTime)
    /// Latency metrics (medians over repeats: gated with a noise tolerance).
    public static let latencyMetrics = GatedMetric.names(.latency)

    /// Builds a baseline from runs (repeats of the same scenario and policies are merged:
    /// bytes from the first, latencies as medians with their spread).
    public init(name: String, runs: [RunResult]) throws(HeapError) {
        let allocator = try Heap.allocatorInfo()
        self.name = name
        self.toolVersion = PressureLabVersion.current
        self.allocator = allocator.name
        self.allocatorOptions = allocator.options
        self.compressors = PageCodec.libraries
        self.storage = Baseline.storage(of: runs)
        self.entries = Baseline.entries(from: runs)
    }

    /// The runs' storage kinds, sorted and joined with `+` (nil when none says).
    static func storage(of runs: [RunResult]) -> String? {
        let kinds = Set(runs.compactMap(\.storage?.rawValue)).sorted()
        return kinds.isEmpty ? nil : kinds.joined(separator: "+")
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
            var metrics: [String: Double] = [:], spreads: [String: Double] = [:]
            for metric in GatedMetric.allCases where metric.isBaselined {
                switch metric.kind {
                // Latencies are noise: the median over the repeats, and their spread.
                case .latency:
                    let values = group.map(metric.value(in:))
                    metrics[metric.rawValue] = median(values)
                    if values.count > 1 { spreads[metric.rawValue] = (values.max() ?? 0) - (values.min() ?? 0) }
                // Device time is deterministic, like bytes: the first run's figure, gated
                // exactly; absent without a profile.
                case .deviceTime where first.metrics.reloadDeviceTimeNs == nil: continue
                case .bytes, .deviceTime, .count: metrics[metric.rawValue] = metric.value(in: first)
                }
            }
            return Entry(scenario: first.scenario, policy: first.policy, termination: first.termination, seed: first.seed,
                         repeats: group.count, metrics: metrics, spreads: spreads.isEmpty ? nil : spreads)
        }
    }

    /// Entries' metrics this tool does not know, as (entry key, metric name), in entry order.
    public var unknownMetrics: [(String, String)] {
        entries.flatMap { entry in
            entry.metrics.keys.sorted().filter { !GatedMetric.baselinedNames.contains($0) }.map { (entry.key, $0) }
        }
    }

    /// Whether a newer version of the tool than this one saved the baseline.
    public var isFromNewerTool: Bool {
        func parts(_ version: String) -> [Int] { version.split(separator: ".").map { Int($0) ?? 0 } }
        let saved = parts(toolVersion), this = parts(PressureLabVersion.current)
        for index in 0..<max(saved.count, this.count) {
            let a = index < saved.count ? saved[index] : 0, b = index < this.count ? this[index] : 0
            if a != b { return a > b }
        }
        return false
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
        let file = FilePath(path)
        if !file.removingLastComponent().isEmpty { try HostFiles.makeDirectories(file.removingLastComponent()) }
        try HostFiles.writeAtomically(file, contents: Array(try encoder.encode(self)))
    }

    /// Reads a baseline; a missing or corrupt file is an error that says so, never a pass.
    public static func read(from path: String) throws(GateError) -> Baseline {
        let data: Data
        do {
            data = Data(try InputKind.baseline.text(of: path).text.utf8)
        } catch .unreadable(.unreadable(let error)) where error.isMissing {
            throw .baselineMissing(path: path)
        } catch {
            let (line, column) = error.location
            throw .baselineCorrupt(path: path, reason: line == 0 ? "\(error)" : "line \(line), column \(column): not a JSON text file: \(error)")
        }
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
        // A metric name this tool does not know would be compared with nothing and pass: an
        // error, unless a newer tool saved the baseline (its new metrics are warned of in the
        // check and left out).
        if !baseline.isFromNewerTool, let (entry, name) = baseline.unknownMetrics.first {
            throw .baselineCorrupt(path: path, reason: "entry '\(entry)' has the metric '\(name)', which this tool does not know; "
                + "metrics: \(GatedMetric.baselinedNames.sorted().joined(separator: ", "))")
        }
        if let empty = baseline.entries.first(where: { $0.metrics.isEmpty }) {
            throw .baselineCorrupt(path: path, reason: "entry '\(empty.key)' has no metrics, so it would gate nothing; "
                                       + "save the baseline again with 'pressurelab baseline save'")
        }
        return baseline
    }
}

/// Why a gate could not judge, or what it found.
public enum GateError: Error, Equatable, CustomStringConvertible {
    /// No baseline file at `path`.
    case baselineMissing(path: String)
    /// The baseline file at `path` does not parse, for `reason`.
    case baselineCorrupt(path: String, reason: String)
    /// The thresholds file at `path` does not parse, for `reason`.
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
