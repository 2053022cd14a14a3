import Foundation
import PressureLabHeap
import SystemPackage

/// How much worse than the baseline a metric may get: the larger of an absolute and a
/// relative allowance. Bytes gate tightly (they are deterministic); latencies loosely.
public struct Thresholds: Codable, Sendable, Equatable {
    /// One metric's allowance.
    public struct Allowance: Codable, Sendable, Equatable {
        /// Allowed increase in the metric's unit (bytes, nanoseconds, count).
        public var absolute: Double
        /// Allowed increase in percent of the baseline value.
        public var relativePercent: Double

        /// An allowance of `absolute` units or `relativePercent` of the baseline, whichever is larger.
        public init(absolute: Double, relativePercent: Double) {
            self.absolute = absolute
            self.relativePercent = relativePercent
        }

        /// The allowed increase over `baseline`.
        public func allowed(over baseline: Double) -> Double { max(absolute, baseline * relativePercent / 100) }
    }

    /// For byte metrics without their own entry.
    public var bytes: Allowance
    /// For latency metrics without their own entry.
    public var latency: Allowance
    /// For counts (kills, cold launches) without their own entry.
    public var counts: Allowance
    /// For device-time metrics without their own entry (modelled and deterministic: exact).
    public var deviceTime: Allowance
    /// Per metric, overriding the defaults (e.g. `"peakRetainedBytes"`, `"viewReloadLatencyNs.p99"`).
    public var metrics: [String: Allowance]
    /// The host latencies this file asks to gate, by name (nil or empty: none). Host time is
    /// this machine's and changes with whatever else it runs, so it is gated only when a
    /// thresholds file names it: a `latency` allowance names every host latency, a
    /// `metrics` entry names one (docs/gating.md, "What is gated").
    public var hostLatencies: [String]?

    /// Whether `metric` is gated: every byte, device-time and count metric; a host latency
    /// only when ``hostLatencies`` names it.
    public func gates(_ metric: String) -> Bool {
        GatedMetric(rawValue: metric)?.kind != .latency || (hostLatencies ?? []).contains(metric)
    }

    /// Bytes: 0.5% or 16 KiB; latencies: 50% or 200 us (medians, on noisy machines; gated only
    /// when a thresholds file names them, ``hostLatencies``); counts: 0. Device time: 0 (it is
    /// the same on every host for the same work).
    public static let `default` = Thresholds(bytes: .init(absolute: 16_384, relativePercent: 0.5),
                                             latency: .init(absolute: 200_000, relativePercent: 50),
                                             counts: .init(absolute: 0, relativePercent: 0), metrics: [:])

    /// Allowances by kind of metric, and per metric where `metrics` names one.
    public init(bytes: Allowance, latency: Allowance, counts: Allowance, deviceTime: Allowance = .init(absolute: 0, relativePercent: 0),
                metrics: [String: Allowance]) {
        self.bytes = bytes
        self.latency = latency
        self.counts = counts
        self.deviceTime = deviceTime
        self.metrics = metrics
    }

    /// The allowance for `metric`.
    public func allowance(for metric: String) -> Allowance {
        if let specific = metrics[metric] { return specific }
        switch GatedMetric(rawValue: metric)?.kind {
        case .bytes: return bytes
        case .latency: return latency
        case .deviceTime: return deviceTime
        case .count, nil: return counts
        }
    }

    /// Reads thresholds from a JSON file; keys left out keep their defaults.
    public static func read(from path: String) throws(GateError) -> Thresholds {
        let data: Data
        do {
            data = Data(try InputKind.thresholds.text(of: path).text.utf8)
        } catch {
            let (line, column) = error.location
            throw .thresholdsInvalid(path: path, reason: line == 0 ? "cannot read the file: \(error)"
                : "line \(line), column \(column): not a JSON text file: \(error)")
        }
        return try decode(data, path: path)
    }

    /// Decodes a thresholds file's bytes (JSON; keys left out keep their defaults); `path`
    /// names the file in errors. Unknown metrics and negative allowances are refused.
    public static func decode(_ data: Data, path: String) throws(GateError) -> Thresholds {
        struct Partial: Decodable {
            var bytes: Allowance?
            var latency: Allowance?
            var counts: Allowance?
            var deviceTime: Allowance?
            var metrics: [String: Allowance]?
        }
        do {
            // Every top-level key must be one this tool reads: a misspelt one would gate with
            // the defaults without a word.
            if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
                let allowed = ["bytes", "latency", "counts", "deviceTime", "metrics"]
                if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
                    throw GateError.thresholdsInvalid(path: path, reason: "unknown key '\(unknown)'; keys: \(allowed.joined(separator: ", "))")
                }
            }
            let partial = try JSONDecoder().decode(Partial.self, from: data)
            var thresholds = Thresholds.default
            thresholds.bytes = partial.bytes ?? thresholds.bytes
            thresholds.latency = partial.latency ?? thresholds.latency
            thresholds.counts = partial.counts ?? thresholds.counts
            thresholds.deviceTime = partial.deviceTime ?? thresholds.deviceTime
            thresholds.metrics = partial.metrics ?? [:]
            // Host latencies are gated only when named: all of them by a `latency` allowance,
            // one by its entry in `metrics`.
            let named = GatedMetric.allCases.filter { metric in
                metric.kind == .latency && metric.isBaselined && (partial.latency != nil || thresholds.metrics[metric.rawValue] != nil)
            }
            thresholds.hostLatencies = named.isEmpty ? nil : named.map(\.rawValue)
            let known = Set(GatedMetric.allCases.filter(\.isBaselined).map(\.rawValue))
            for name in thresholds.metrics.keys where !known.contains(name) {
                throw GateError.thresholdsInvalid(path: path, reason: "unknown metric '\(name)'; metrics: \(known.sorted().joined(separator: ", "))")
            }
            let defaults = ["bytes": thresholds.bytes, "latency": thresholds.latency, "counts": thresholds.counts,
                            "deviceTime": thresholds.deviceTime]
            for (name, allowance) in thresholds.metrics.merging(defaults, uniquingKeysWith: { a, _ in a })
                where allowance.absolute < 0 || allowance.relativePercent < 0 {
                throw GateError.thresholdsInvalid(path: path, reason: "'\(name)' has a negative allowance")
            }
            return thresholds
        } catch let error as GateError {
            throw error
        } catch {
            throw .thresholdsInvalid(path: path, reason: "\(error)")
        }
    }
}
