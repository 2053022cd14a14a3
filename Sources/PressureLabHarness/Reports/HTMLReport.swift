import Foundation

/// A self-contained HTML report of a results file: no network, no scripts; SVG charts of
/// retained bytes over the steps (with pressure levels, warnings, kills and launches
/// marked), reload latency percentiles per kind and policy, retained bytes by owner at
/// the peak, and the comparison table with dominated policies marked.
public enum HTMLReport {
    /// The report of a results file: one self-contained page (docs/reports.md).
    public static func render(_ results: ResultsFile) -> String {
        // A sweep's hundreds of cells are aggregated, not drawn one by one.
        if SweepSummary.isSweep(results.runs) { return SweepReport.html(results) }
        var body: [String] = []
        let scenarios = results.runs.map(\.scenario).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let rows = ResultFormatter.comparison(results.runs)
        body.append("<h1>PressureLab report</h1>")
        body.append("<p class=\"meta\">\(results.runs.count) runs &middot; \(SVG.escape(results.host.allocator)) &middot; "
            + "\(results.host.cpus) CPUs &middot; tool \(SVG.escape(results.tool.version)) &middot; bytes measured by jemalloc, "
            + "latencies: device time (modelled with "
            + "\(SVG.escape(results.host.profile.map { "\($0.name), \($0.hash)" } ?? runProfiles(results))) from the work counted) "
            + "where shown, host time (measured here) beside it</p>")
        body.append(comparisonTable(rows))
        for scenario in scenarios {
            let runs = results.runs.filter { $0.scenario == scenario }
            let id = slug(scenario)
            body.append("<section id=\"scenario-\(id)\"><h2>\(SVG.escape(RunResult.labelled(scenario, memoryScale: runs.first?.memoryScale)))</h2>")
            body.append("<h3>Retained bytes over the steps</h3>")
            body.append(timelineChart(runs, id: "timeline-\(id)"))
            let kinds = latencyKinds(runs)
            if !kinds.isEmpty {
                body.append("<h3>Reload and launch latency percentiles</h3><div class=\"row\">")
                for (kind, title) in kinds { body.append(latencyChart(runs, kind: kind, title: title, id: "latency-\(id)-\(kind)")) }
                body.append("</div>")
            }
            if runs.contains(where: { ($0.cycleRetainedBytes?.count ?? 0) > 1 }) {
                body.append("<h3>Retained bytes at the end of each cycle (growth/cycle)</h3><div class=\"row\">")
                for run in runs { body.append(cycleChart(run, id: "cycles-\(id)-\(slug(run.policy.description))-\(run.repeat)")) }
                body.append("</div>")
            }
            body.append("<h3>Retained bytes by owner at the peak</h3><div class=\"row\">")
            for run in runs { body.append(ownersChart(run, id: "owners-\(id)-\(slug(run.policy.description))-\(run.repeat)")) }
            body.append("</div></section>")
        }
        return page(title: "PressureLab report", body: body)
    }

    /// The profiles the runs name (a merged or mixed results file has no single one in its
    /// header), or "no profile".
    static func runProfiles(_ results: ResultsFile) -> String {
        let names = Set(results.runs.compactMap(\.profile)).sorted()
        return names.isEmpty ? "no profile" : names.joined(separator: ", ")
    }

    /// A self-contained page (no network, no scripts) with the reports' style.
    static func page(title: String, body: [String]) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(SVG.escape(title))</title>
        <style>
        body { font: 14px/1.4 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 24px; color: #222; }
        h1 { font-size: 22px; } h2 { font-size: 18px; border-top: 1px solid #ddd; padding-top: 16px; } h3 { font-size: 15px; color: #444; }
        table { border-collapse: collapse; font-size: 12px; } th, td { border-bottom: 1px solid #eee; padding: 3px 8px; text-align: right; }
        th:nth-child(-n+3), td:nth-child(-n+3) { text-align: left; } tr.dominated td { color: #999; } tr.dominated td:nth-child(2) { text-decoration: line-through; }
        .meta { color: #666; } .row { display: flex; flex-wrap: wrap; gap: 12px; }
        svg { background: #fff; border: 1px solid #e5e5e5; } svg text { font-size: 11px; fill: #333; } .axis line, .axis path, line.axis { stroke: #888; }
        .grid { stroke: #eee; } .title { font-weight: 600; font-size: 12px; }
        #aggregate tr.dominated td:nth-child(2) { text-decoration: none; } #aggregate tr.dominated td:first-child { text-decoration: line-through; }
        #aggregate td { white-space: nowrap; } .spread { color: #888; font-size: 10px; } details summary { cursor: pointer; }
        </style></head>
        <body>
        \(body.joined(separator: "\n"))
        </body></html>
        """
    }

    static func slug(_ text: String) -> String {
        String(text.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
    }

    static func comparisonTable(_ rows: [ComparisonRow]) -> String {
        var html = ["<table id=\"comparison\"><thead><tr>" + ResultFormatter.header.map { "<th>\(SVG.escape($0))</th>" }.joined()
            + "</tr></thead><tbody>"]
        for row in rows {
            let cells = ResultFormatter.cells(row, machine: false).map { "<td>\(SVG.escape($0))</td>" }.joined()
            html.append("<tr class=\"\(row.dominated ? "dominated" : "")\" data-scenario=\"\(SVG.escape(row.scenario))\" "
                + "data-policy=\"\(SVG.escape(row.policy))\" data-peak=\"\(row.peakBytes)\" data-mean=\"\(row.meanBytes)\">\(cells)</tr>")
        }
        html.append("</tbody></table><p class=\"meta\">Struck through: dominated (another policy of the scenario has less or equal mean footprint and reload time).</p>")
        return html.joined(separator: "\n")
    }

    /// Percentile plot: p50, p90, p99 and max of one kind, one line per policy, log scale.
    // MARK: - Latency percentiles

    static func latencyKinds(_ runs: [RunResult]) -> [(String, String)] {
        let all: [(String, String, KeyPath<RunMetrics, LatencySummary>)] = [
            ("view-reload", "view reload", \.viewReloadLatencyNs), ("redraw", "backing-store redraw", \.backingStoreRedrawLatencyNs),
            ("cache-refill", "cache refill", \.cacheRefillLatencyNs), ("model-reload", "model reload", \.modelReloadLatencyNs),
            ("cold-launch", "cold launch", \.coldLaunchLatencyNs), ("resume", "resume", \.resumeLatencyNs), ("thaw", "thaw", \.thawLatencyNs),
        ]
        return all.filter { _, _, path in runs.contains { $0.metrics[keyPath: path].count > 0 } }.map { ($0.0, $0.1) }
    }

    /// The device-time distribution of a latency kind, when the run has device time.
    static func deviceSummary(_ run: RunResult, kind: String) -> LatencySummary? {
        let metrics = run.metrics
        switch kind {
        case "view-reload": return metrics.viewReloadDeviceNs
        case "redraw": return metrics.backingStoreRedrawDeviceNs
        case "cache-refill": return metrics.cacheRefillDeviceNs
        case "model-reload": return metrics.modelReloadDeviceNs
        case "cold-launch": return metrics.coldLaunchDeviceNs
        case "resume": return metrics.resumeDeviceNs
        default: return metrics.thawDeviceNs
        }
    }

    static func summary(_ run: RunResult, kind: String) -> LatencySummary {
        let metrics = run.metrics
        switch kind {
        case "view-reload": return metrics.viewReloadLatencyNs
        case "redraw": return metrics.backingStoreRedrawLatencyNs
        case "cache-refill": return metrics.cacheRefillLatencyNs
        case "model-reload": return metrics.modelReloadLatencyNs
        case "cold-launch": return metrics.coldLaunchLatencyNs
        case "resume": return metrics.resumeLatencyNs
        default: return metrics.thawLatencyNs
        }
    }

    static func latencyChart(_ runs: [RunResult], kind: String, title: String, id: String) -> String {
        let width = 300.0, height = 234.0, left = 56.0, right = 12.0, top = 40.0, bottom = 40.0
        // Device time when every run has it (modelled, deterministic); host time otherwise.
        let device = runs.allSatisfy { deviceSummary($0, kind: kind) != nil }
        let series = runs.enumerated().map { ($0.offset, $0.element, device ? deviceSummary($0.element, kind: kind)! : summary($0.element, kind: kind)) }
            .filter { $0.2.count > 0 }
        // Two lines: the kind, then the clock (a long profile name no longer cuts the title).
        let clock = device ? "device time, modelled: \(runs.first?.profile ?? "profile")" : "host time, measured"
        let title = "\(title) (\(clock))"
        let values = series.flatMap { [$0.2.p50, $0.2.p90, $0.2.p99, $0.2.max] }.map { Double(max($0, 1)) }
        let low = floor(log10(values.min() ?? 1)), high = ceil(log10(values.max() ?? 10))
        let y = SVG.Scale(domain: (low, max(high, low + 1)), range: ((height - bottom), top))
        let labels = ["p50", "p90", "p99", "max"]
        let x = SVG.Scale(domain: (0, 3), range: (left, (width - right - 10)))
        var svg = ["<svg id=\"\(id)\" class=\"chart latency\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(SVG.escape(title)) latency\">"]
        svg.append("<text class=\"title\" x=\"8\" y=\"16\">\(SVG.escape(String(title.prefix { $0 != "(" }).trimmingCharacters(in: .whitespaces)))"
            + "<title>\(SVG.escape(title))</title></text>")
        svg.append("<text class=\"subtitle\" x=\"8\" y=\"30\" font-size=\"10\">\(SVG.escape(clock))</text>")
        for exponent in stride(from: low, through: max(high, low + 1), by: 1) {
            let label = SVG.decade(exponent)
            svg.append("<line class=\"grid\" x1=\"\(left)\" x2=\"\(width - right)\" y1=\"\(SVG.number(y(exponent)))\" y2=\"\(SVG.number(y(exponent)))\"/>")
            svg.append("<text x=\"\(left - 4)\" y=\"\(SVG.number(y(exponent) + 4))\" text-anchor=\"end\">\(label)</text>")
        }
        for (index, label) in labels.enumerated() {
            svg.append("<text x=\"\(SVG.number(x(Double(index))))\" y=\"\(SVG.number(height - bottom + 16))\" text-anchor=\"middle\">\(label)</text>")
        }
        svg.append("<text x=\"\(SVG.number((left + width) / 2))\" y=\"\(SVG.number(height - 6))\" text-anchor=\"middle\">percentile (latency, log scale)</text>")
        svg.append("<g class=\"axis\"><line x1=\"\(left)\" x2=\"\(left)\" y1=\"\(top)\" y2=\"\(height - bottom)\"/></g>")
        for (index, run, summary) in series {
            let color = SVG.palette[index % SVG.palette.count]
            let points = [summary.p50, summary.p90, summary.p99, summary.max].enumerated().map { position, value in
                "\(SVG.number(x(Double(position)))),\(SVG.number(y(log10(Double(max(value, 1))))))"
            }
            svg.append("<polyline class=\"series\" data-policy=\"\(SVG.escape(run.policy.description))\" data-points=\"4\" data-count=\"\(summary.count)\" "
                + "data-p50=\"\(summary.p50)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.5\" points=\"\(points.joined(separator: " "))\"/>")
            for point in points {
                let xy = point.split(separator: ",")
                svg.append("<circle cx=\"\(xy[0])\" cy=\"\(xy[1])\" r=\"2.5\" fill=\"\(color)\"/>")
            }
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n")
    }

    // MARK: - Owners at the peak

    static func ownersChart(_ run: RunResult, id: String) -> String {
        let owners = (run.peakOwners ?? run.owners).filter { $0.retainedBytes > 0 }.sorted { $0.retainedBytes > $1.retainedBytes }
        let shown = Array(owners.prefix(10))
        let width = 460.0, left = 170.0, right = 70.0, top = 26.0, bar = 16.0
        let height = top + Double(max(shown.count, 1)) * (bar + 4) + 34
        let maximum = Double(shown.first?.retainedBytes ?? 1)
        let x = SVG.Scale(domain: (0, maximum), range: (left, (width - right)))
        var svg = ["<svg id=\"\(id)\" class=\"chart owners\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"retained bytes by owner at the peak\">"]
        svg.append("<text class=\"title\" x=\"8\" y=\"16\">\(SVG.escape(run.policy.description)) / \(SVG.escape(run.termination.description)): top owners at the peak (\(Units.mebibytes(run.metrics.peakRetainedBytes)))</text>")
        for (index, owner) in shown.enumerated() {
            let rowY = top + Double(index) * (bar + 4)
            svg.append("<text x=\"\(left - 6)\" y=\"\(SVG.number(rowY + 12))\" text-anchor=\"end\">\(SVG.escape(owner.app)) / \(SVG.escape(owner.controller))</text>")
            svg.append("<rect class=\"bar\" data-bytes=\"\(owner.retainedBytes)\" x=\"\(left)\" y=\"\(SVG.number(rowY))\" width=\"\(SVG.number(max(x(Double(owner.retainedBytes)) - left, 1)))\" height=\"\(bar)\" fill=\"\(SVG.palette[0])\"/>")
            svg.append("<text x=\"\(SVG.number(x(Double(owner.retainedBytes)) + 4))\" y=\"\(SVG.number(rowY + 12))\">\(Units.mebibytes(owner.retainedBytes))</text>")
        }
        svg.append("<text x=\"\(SVG.number((left + width - right) / 2))\" y=\"\(SVG.number(height - 8))\" text-anchor=\"middle\">retained bytes (MiB), measured</text>")
        svg.append("</svg>")
        return svg.joined(separator: "\n")
    }
}
