import Foundation

/// The verdict of a check: every metric compared, the regressions named.
public struct GateReport: Sendable {
    /// One metric of one entry.
    public struct Finding: Sendable, Equatable, CustomStringConvertible {
        /// The entry, `scenario / policy / termination`.
        public var key: String
        /// The metric's name (a `GatedMetric` raw value).
        public var metric: String
        /// The baseline's value.
        public var baseline: Double
        /// The value measured now.
        public var measured: Double
        /// The increase allowed over the baseline (its thresholds).
        public var allowed: Double
        /// Whether the measured value is over the baseline plus the allowance.
        public var isRegression: Bool
        /// For a host latency: the repeats its median is over now, and their spread (largest
        /// less smallest); nil for deterministic figures.
        public var spread: (repeats: Int, nanoseconds: Double)?

        /// Whether two findings are the same: every field, the spread's too.
        public static func == (a: Finding, b: Finding) -> Bool {
            a.key == b.key && a.metric == b.metric && a.baseline == b.baseline && a.measured == b.measured
                && a.allowed == b.allowed && a.isRegression == b.isRegression
                && a.spread?.repeats == b.spread?.repeats && a.spread?.nanoseconds == b.spread?.nanoseconds
        }

        /// How far over the allowance (0 when within it).
        public var over: Double { max(0, measured - baseline - allowed) }
        /// The change from the baseline, in percent of it (100 when the baseline is 0 and the value
        /// is not).
        public var deltaPercent: Double { baseline == 0 ? (measured == 0 ? 0 : 100) : (measured - baseline) / baseline * 100 }

        public var description: String {
            "\(key): \(metric) measured \(Self.format(measured, metric)), baseline \(Self.format(baseline, metric)), "
                + "allowed up to \(Self.format(baseline + allowed, metric)) (\(String(format: "%+.2f", deltaPercent))%)"
                + (spread.map { " (median of \($0.repeats) repeats, spread \(Self.format($0.nanoseconds, metric)))" } ?? "")
                + (isRegression ? ", over by \(Self.format(over, metric))" : "")
        }

        static func format(_ value: Double, _ metric: String) -> String {
            (GatedMetric(rawValue: metric)?.unit ?? .count).format(value)
        }
    }

    /// The baseline's name.
    public var baselineName: String
    /// Every metric of every entry compared.
    public var findings: [Finding]
    /// Entries of the baseline that no run matched, and runs the baseline does not have.
    public var missing: [String]
    /// Runs the baseline has no entry for.
    public var unexpected: [String]
    /// Warnings (a different allocator configuration).
    public var warnings: [String]
    /// What was not gated and why, one line a kind of figure (host latencies unless a
    /// thresholds file names them; docs/gating.md, "What is gated").
    public var notGated: [String] = []

    /// The findings over their allowance.
    public var regressions: [Finding] { findings.filter(\.isRegression) }
    /// Whether nothing regressed and every entry of the baseline had a run.
    public var passed: Bool { regressions.isEmpty && missing.isEmpty }

    /// Compares runs with a baseline under thresholds.
    public static func check(_ runs: [RunResult], against baseline: Baseline, thresholds: Thresholds = .default,
                             allocator: String? = nil, allocatorOptions: [String: String]? = nil,
                             compressors: [String: String]? = nil) -> GateReport {
        let current = Dictionary(Baseline.entries(from: runs).map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        var findings: [Finding] = []
        var missing: [String] = []
        var warnings: [String] = []
        var ungatedLatencies: [String] = []
        for entry in baseline.entries {
            guard let now = current[entry.key] else {
                missing.append(entry.key)
                continue
            }
            for (metric, base) in entry.metrics.sorted(by: { $0.key < $1.key }) {
                // Never compared with 0: a metric this tool does not know (a newer tool's), or
                // one this run did not measure (device time without a profile), is said.
                guard GatedMetric.baselinedNames.contains(metric) else {
                    warnings.append("\(entry.key): the baseline's metric '\(metric)' is unknown to this tool (saved by "
                        + "pressurelab \(baseline.toolVersion)); not checked")
                    continue
                }
                guard let measured = now.metrics[metric] else {
                    warnings.append("\(entry.key): '\(metric)' was not measured by this run (device time needs a profile); "
                        + "not checked")
                    continue
                }
                // Host time is this machine's, and other work on it changes it: gated only when
                // the thresholds name it (docs/gating.md, "What is gated").
                guard thresholds.gates(metric) else {
                    if !ungatedLatencies.contains(metric) { ungatedLatencies.append(metric) }
                    continue
                }
                let allowed = thresholds.allowance(for: metric).allowed(over: base)
                let spread = GatedMetric(rawValue: metric)?.kind == .latency
                    ? (repeats: now.repeats, nanoseconds: now.spreads?[metric] ?? 0) : nil
                findings.append(Finding(key: entry.key, metric: metric, baseline: base, measured: measured, allowed: allowed,
                                        isRegression: measured - base > allowed, spread: spread))
            }
        }
        let known = Set(baseline.entries.map(\.key))
        if let allocator, allocator != baseline.allocator || (allocatorOptions != nil && allocatorOptions != baseline.allocatorOptions) {
            warnings.append("the baseline was measured with \(baseline.allocator) and other options than this run's "
                + "\(allocator); byte counts may differ for that reason alone")
        }
        if let compressors, let measuredWith = baseline.compressors {
            for (codec, library) in compressors.sorted(by: { $0.key < $1.key }) {
                guard let then = measuredWith[codec], then != library else { continue }
                warnings.append("the baseline was measured with \(then), this run has \(library); compressed sizes, "
                    + "and footprints and device times with compression, may differ for that reason alone")
            }
        }
        if let then = baseline.storage, let now = Baseline.storage(of: runs), then != now {
            warnings.append("the baseline's runs kept their files on \(then), this run's on \(now) (PRESSURELAB_STORAGE); "
                + "reload latencies may differ for that reason alone")
        }
        var notGated: [String] = []
        let order = GatedMetric.allCases.map(\.rawValue)
        ungatedLatencies.sort { (order.firstIndex(of: $0) ?? 0) < (order.firstIndex(of: $1) ?? 0) }
        if !ungatedLatencies.isEmpty {
            notGated.append("host latencies (\(ungatedLatencies.joined(separator: ", "))): this machine's time, which other work "
                + "on it changes; a thresholds file that names them gates them over --repeat 3 or more (docs/gating.md)")
        }
        return GateReport(baselineName: baseline.name, findings: findings, missing: missing,
                          unexpected: current.keys.filter { !known.contains($0) }.sorted(), warnings: warnings, notGated: notGated)
    }

    /// Plain text: regressions first, then a count of what passed.
    public var text: String {
        var lines: [String] = warnings.map { "warning: \($0)" }
        for finding in regressions { lines.append("REGRESSION \(finding)") }
        for key in missing { lines.append("MISSING \(key): in the baseline but not run") }
        for figure in notGated { lines.append("not gated: \(figure)") }
        lines.append(passed
            ? "baseline '\(baselineName)': \(findings.count) metrics checked, no regression"
            : "baseline '\(baselineName)': \(regressions.count) regressions in \(findings.count) metrics checked"
                + (missing.isEmpty ? "" : ", \(missing.count) entries missing"))
        return lines.joined(separator: "\n") + "\n"
    }

    /// A Markdown summary fit for a pull-request comment.
    public var markdown: String {
        var lines = ["### PressureLab footprint gate: \(passed ? "passed" : "**failed**")", ""]
        for warning in warnings { lines.append("> warning: \(warning)") }
        lines.append("| scenario / policy / termination | metric | baseline | measured | change | allowed up to | |")
        lines.append("|---|---|---:|---:|---:|---:|---|")
        let shown = findings.filter { $0.isRegression || Baseline.byteMetrics.contains($0.metric) && $0.metric == "peakRetainedBytes" }
        for finding in shown {
            lines.append("| \(finding.key) | \(finding.metric) | \(Finding.format(finding.baseline, finding.metric)) | "
                + "\(Finding.format(finding.measured, finding.metric)) | \(String(format: "%+.2f%%", finding.deltaPercent)) | "
                + "\(Finding.format(finding.baseline + finding.allowed, finding.metric)) | \(finding.isRegression ? "regression" : "ok") |")
        }
        for key in missing { lines.append("| \(key) | - | - | - | - | - | missing |") }
        lines.append("")
        for figure in notGated { lines.append("Not gated: \(figure).") }
        if !notGated.isEmpty { lines.append("") }
        lines.append("\(regressions.count) regressions, \(findings.count) metrics checked against baseline `\(baselineName)`.")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `customSmallerIsBetter` JSON that benchmark-tracking actions read: one entry a
    /// metric of each run.
    public static func customSmallerIsBetter(_ runs: [RunResult]) throws -> String {
        struct Point: Encodable { var name: String; var unit: String; var value: Double }
        var points: [Point] = []
        for entry in Baseline.entries(from: runs) {
            for (metric, value) in entry.metrics.sorted(by: { $0.key < $1.key }) {
                let unit = (GatedMetric(rawValue: metric)?.unit ?? .count).rawValue
                points.append(Point(name: "\(entry.key) / \(metric)", unit: unit, value: value))
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(points), as: UTF8.self) + "\n"
    }
}
