/// A Markdown report of a results file: the comparison, latency percentiles and the top
/// owners at the peak, per scenario.
public enum MarkdownReport {
    public static func render(_ results: ResultsFile) -> String {
        var lines = ["# PressureLab report", "",
                     "\(results.runs.count) runs, \(results.host.allocator), \(results.host.cpus) CPUs. Bytes measured by jemalloc; latencies in real time.",
                     "", ResultFormatter.markdown(ResultFormatter.comparison(results.runs))]
        let scenarios = results.runs.map(\.scenario).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for scenario in scenarios {
            let runs = results.runs.filter { $0.scenario == scenario }
            lines.append("## \(scenario)")
            lines.append("")
            lines.append("| policy | reload | count | p50 | p90 | p99 | max |")
            lines.append("|---|---|---:|---:|---:|---:|---:|")
            for run in runs {
                for (kind, title) in HTMLReport.latencyKinds([run]) {
                    let summary = HTMLReport.summary(run, kind: kind)
                    lines.append("| \(run.policy) | \(title) | \(summary.count) | \(Units.duration(summary.p50)) | "
                        + "\(Units.duration(summary.p90)) | \(Units.duration(summary.p99)) | \(Units.duration(summary.max)) |")
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
