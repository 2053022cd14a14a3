/// A Markdown report of a results file: the comparison, latency percentiles and the top
/// owners at the peak, per scenario.
public enum MarkdownReport {
    /// The report of a results file, as Markdown.
    public static func render(_ results: ResultsFile) -> String {
        if SweepSummary.isSweep(results.runs) { return SweepReport.markdown(results) }
        var lines = ["# PressureLab report", "",
                     "\(results.runs.count) runs, \(results.host.allocator), \(results.host.cpus) CPUs. Bytes measured by jemalloc; "
                        + "latencies: device time (modelled with \(results.host.profile?.name ?? HTMLReport.runProfiles(results)): the work counted times the profile's costs), then host time (measured here).",
                     "", ResultFormatter.markdown(ResultFormatter.comparison(results.runs))]
        let scenarios = results.runs.map(\.scenario).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for scenario in scenarios {
            let runs = results.runs.filter { $0.scenario == scenario }
            lines.append("## \(RunResult.labelled(scenario, memoryScale: runs.first?.memoryScale))")
            lines.append("")
            lines.append("| policy | reload | count | device p50 | device p90 | device p99 | host p50 | host p90 | host p99 |")
            lines.append("|---|---|---:|---:|---:|---:|---:|---:|---:|")
            for run in runs {
                for (kind, title) in HTMLReport.latencyKinds([run]) {
                    let summary = HTMLReport.summary(run, kind: kind)
                    let device = HTMLReport.deviceSummary(run, kind: kind)
                    func show(_ value: UInt64?) -> String { value.map { Units.duration($0) } ?? "-" }
                    lines.append("| \(run.policy) | \(title) | \(summary.count) | \(show(device?.p50)) | \(show(device?.p90)) | "
                        + "\(show(device?.p99)) | \(Units.duration(summary.p50)) | \(Units.duration(summary.p90)) | "
                        + "\(Units.duration(summary.p99)) |")
                }
            }
            lines.append("")
            for run in runs {
                let owners = (run.peakOwners ?? run.owners).sorted { $0.retainedBytes > $1.retainedBytes }.prefix(5)
                lines.append("Top owners at the peak under \(run.policy): "
                    + owners.map { "\($0.app)/\($0.controller) \(Units.mebibytes($0.retainedBytes))" }.joined(separator: ", "))
                lines.append("")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
