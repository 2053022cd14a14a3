import Foundation

/// The report of a sweep (``SweepSummary``): what wins where, at a glance. One
/// self-contained HTML page (no network, no scripts) or Markdown for a pull request: the
/// aggregate per configuration, the frontier charts, the spread over seeds, the win matrix,
/// and the cells themselves folded away.
public enum SweepReport {
    /// The pairs of figures the frontier charts plot (x, y).
    static let frontiers: [(SweepSummary.Metric, SweepSummary.Metric)] = [(.meanFootprint, .reloadTime), (.cachedApps, .coldLaunch)]
    /// The figures the aggregate table shows.
    static let tableMetrics: [SweepSummary.Metric] = SweepSummary.Metric.allCases

    /// What the page says about the runs: cells, scenarios, seeds, and the profiles device
    /// time was modelled with (the runs' own, not the file's header alone).
    static func meta(_ results: ResultsFile, _ summary: SweepSummary) -> String {
        let profiles = Set(results.runs.compactMap(\.profile)).sorted()
        let modelled = profiles.isEmpty ? "no profile: reload time is host time (measured)"
            : "device time modelled with \(profiles.joined(separator: ", ")) from the work counted"
        return "\(results.runs.count) cells: \(summary.scenarios.count) scenarios x \(summary.configurations.count) configurations"
            + " x up to \(summary.seedsPerCell) seeds; bytes measured by jemalloc; \(modelled). Figures: median [quartiles]"
            + " over every scenario and seed (nearest rank)."
    }

    static func cell(_ spread: SweepSummary.Spread?, _ metric: SweepSummary.Metric) -> String {
        guard let spread else { return "-" }
        return "\(metric.format(spread.median)) [\(metric.format(spread.lowerQuartile))–\(metric.format(spread.upperQuartile))]"
    }

    /// The winner and its margin; a tie names up to three (`ios3 = ios6`, `ios2 = ios3 = ios6
    /// + 2 more`), and a tie of every configuration that ran says so.
    /// The median, and the quartiles under it, smaller.
    static func htmlCell(_ spread: SweepSummary.Spread?, _ metric: SweepSummary.Metric) -> String {
        guard let spread else { return "-" }
        return SVG.escape(metric.format(spread.median)) + "<br><span class=\"spread\">"
            + SVG.escape("\(metric.format(spread.lowerQuartile))–\(metric.format(spread.upperQuartile))") + "</span>"
    }

    static func winText(_ win: SweepSummary.Win, _ summary: SweepSummary, of candidates: Int) -> String {
        let names: String
        if win.best.count > 1, win.best.count == candidates {
            names = "all \(candidates) tie"
        } else {
            let shown = win.best.prefix(3).map { $0.label(summary.axes) }.joined(separator: " = ")
            names = shown + (win.best.count > 3 ? " + \(win.best.count - 3) more" : "")
        }
        return names + (win.marginPercent.map { $0 > 0 && $0 < 0.05 ? " (<0.1%)" : String(format: " (%.1f%%)", $0) } ?? "")
    }

    /// A scenario's name as the tables show it, with its memory scale (``RunResult/labelled(_:memoryScale:)``).
    static func label(_ scenario: String, _ results: ResultsFile) -> String {
        RunResult.labelled(scenario, memoryScale: results.runs.first { $0.scenario == scenario }?.memoryScale)
    }

    /// How many configurations ran a scenario.
    static func candidates(_ summary: SweepSummary, _ results: ResultsFile, scenario: String) -> Int {
        let runs = results.runs.filter { $0.scenario == scenario }
        let keys = runs.map { run -> String in
            let profile = summary.axes.profile ? (run.profile ?? "") : ""
            return "\(run.policy)\u{0}\(run.termination)\u{0}\(profile)"
        }
        return Set(keys).count
    }

    // MARK: - HTML

    /// The sweep report of a results file, as one self-contained page.
    public static func html(_ results: ResultsFile) -> String {
        let summary = SweepSummary(results.runs)
        let dominated = summary.dominated(.meanFootprint, .reloadTime)
        var body = ["<h1>PressureLab sweep report</h1>", "<p class=\"meta\">\(SVG.escape(meta(results, summary)))</p>"]
        body.append("<h2>Per configuration</h2>")
        var table = ["<table id=\"aggregate\"><thead><tr><th>configuration</th><th>cells</th>"
            + tableMetrics.map { "<th>\(SVG.escape($0.title))</th>" }.joined() + "<th>dominated</th></tr></thead><tbody>"]
        for configuration in summary.configurations {
            let spreads = summary.spreads[configuration] ?? [:]
            let isDominated = dominated.contains(configuration)
            table.append("<tr class=\"\(isDominated ? "dominated" : "")\"><td>\(SVG.escape(configuration.label(summary.axes)))</td>"
                + "<td>\(spreads[.meanFootprint]?.count ?? 0)</td>"
                + tableMetrics.map { "<td>\(htmlCell(spreads[$0], $0))</td>" }.joined()
                + "<td>\(isDominated ? "yes" : "")</td></tr>")
        }
        table.append("</tbody></table><p class=\"meta\">Dominated: another configuration has less or equal median mean footprint and reload time, one of them less.</p>")
        body.append(table.joined(separator: "\n"))
        body.append("<h2>Frontiers</h2><div class=\"row\">")
        for (x, y) in frontiers { body.append(frontierChart(summary, x: x, y: y)) }
        body.append("</div>")
        body.append("<h2>Spread over scenarios and seeds</h2><div class=\"row\">")
        for metric in [SweepSummary.Metric.meanFootprint, .reloadTime] { body.append(boxChart(summary, metric: metric)) }
        body.append("</div>")
        body.append("<h2>Who wins where</h2>")
        body.append(winMatrix(summary, results))
        body.append("<h2>Cells</h2><details><summary>All \(results.runs.count) cells (one row a run)</summary>")
        body.append(HTMLReport.comparisonTable(ResultFormatter.comparison(results.runs)))
        body.append("</details>")
        return HTMLReport.page(title: "PressureLab sweep report", body: body)
    }

    static func winMatrix(_ summary: SweepSummary, _ results: ResultsFile) -> String {
        var html = ["<table id=\"wins\"><thead><tr><th>scenario</th>"
            + SweepSummary.Metric.allCases.map { "<th>\(SVG.escape($0.title))</th>" }.joined() + "</tr></thead><tbody>"]
        for scenario in summary.scenarios {
            let wins = summary.wins.filter { $0.scenario == scenario }
            let count = candidates(summary, results, scenario: scenario)
            html.append("<tr><td>\(SVG.escape(label(scenario, results)))</td>" + SweepSummary.Metric.allCases.map { metric in
                "<td>\(wins.first { $0.metric == metric }.map { SVG.escape(winText($0, summary, of: count)) } ?? "-")</td>"
            }.joined() + "</tr>")
        }
        html.append("</tbody></table><p class=\"meta\">The best configuration by the median over the scenario's seeds, and "
            + "in brackets by how much it beats the runner-up, in percent of the runner-up's figure.</p>")
        return html.joined(separator: "\n")
    }

    /// Medians of two figures, one point a configuration; configurations at the same point
    /// are one point, said to coincide. Points are numbered on the chart and named in a key
    /// under it (labels beside points overlap where configurations crowd); dominated points
    /// are hollow. The axes span the points' range, not zero to the largest.
    static func frontierChart(_ summary: SweepSummary, x: SweepSummary.Metric, y: SweepSummary.Metric) -> String {
        let width = 560.0, plotHeight = 300.0, left = 80.0, right = 20.0, top = 30.0, bottom = 50.0
        let dominated = summary.dominated(x, y)
        var groups: [(x: Double, y: Double, members: [SweepSummary.Configuration])] = []
        for configuration in summary.configurations {
            guard let px = summary.spreads[configuration]?[x]?.median, let py = summary.spreads[configuration]?[y]?.median else { continue }
            if let index = groups.firstIndex(where: { $0.x == px && $0.y == py }) {
                groups[index].members.append(configuration)
            } else {
                groups.append((px, py, [configuration]))
            }
        }
        func span(_ values: [Double]) -> (Double, Double) {
            guard let low = values.min(), let high = values.max() else { return (0, 1) }
            let pad = high > low ? (high - low) * 0.08 : max(abs(high) * 0.05, 1)
            return (max(0, low - pad), high + pad)
        }
        let (x0, x1) = span(groups.map(\.x)), (y0, y1) = span(groups.map(\.y))
        let sx = SVG.Scale(domain: (x0, x1), range: (left, width - right))
        let sy = SVG.Scale(domain: (y0, y1), range: (top + plotHeight, top))
        let keyTop = top + plotHeight + bottom
        let height = keyTop + Double(groups.count) * 14 + 10
        var svg = ["<svg class=\"frontier\" data-x=\"\(x.rawValue)\" data-y=\"\(y.rawValue)\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">"]
        svg.append("<text class=\"title\" x=\"8\" y=\"16\">\(SVG.escape("\(y.title) against \(x.title) (medians; hollow: dominated)"))</text>")
        svg.append("<line class=\"axis\" x1=\"\(left)\" y1=\"\(top + plotHeight)\" x2=\"\(width - right)\" y2=\"\(top + plotHeight)\"/>")
        svg.append("<line class=\"axis\" x1=\"\(left)\" y1=\"\(top)\" x2=\"\(left)\" y2=\"\(top + plotHeight)\"/>")
        svg.append("<text x=\"\(SVG.number((left + width - right) / 2))\" y=\"\(SVG.number(top + plotHeight + 32))\" text-anchor=\"middle\">\(SVG.escape(x.title))"
            + "\(x.largerIsBetter ? " (more is better)" : "")</text>")
        svg.append("<text x=\"14\" y=\"\(SVG.number(top + plotHeight / 2))\" transform=\"rotate(-90 14 \(SVG.number(top + plotHeight / 2)))\" text-anchor=\"middle\">\(SVG.escape(y.title))</text>")
        for tick in [0.0, 0.5, 1.0] {
            let xValue = x0 + (x1 - x0) * tick, yValue = y0 + (y1 - y0) * tick
            svg.append("<text x=\"\(SVG.number(sx(xValue)))\" y=\"\(SVG.number(top + plotHeight + 14))\" text-anchor=\"middle\">\(SVG.escape(x.format(xValue)))</text>")
            svg.append("<text x=\"\(SVG.number(left - 4))\" y=\"\(SVG.number(sy(yValue) + 4))\" text-anchor=\"end\">\(SVG.escape(y.format(yValue)))</text>")
        }
        for (index, group) in groups.enumerated() {
            let color = SVG.palette[index % SVG.palette.count]
            // A point is dominated when its configurations are (they share its figures).
            let isDominated = group.members.allSatisfy(dominated.contains)
            let names = group.members.map { $0.label(summary.axes) }.joined(separator: " = ")
            // The key names three of a crowd; the point's tooltip names them all.
            let shown = group.members.count > 3
                ? group.members.prefix(3).map { $0.label(summary.axes) }.joined(separator: " = ") + " + \(group.members.count - 3) more" : names
            let figures = "(\(x.format(group.x)), \(y.format(group.y)))"
            let label = "\(index + 1): \(names) \(figures)"
            svg.append("<circle class=\"point\(isDominated ? " dominated" : "")\" data-label=\"\(SVG.escape(names))\" data-members=\"\(group.members.count)\" "
                + "cx=\"\(SVG.number(sx(group.x)))\" cy=\"\(SVG.number(sy(group.y)))\" r=\"4\" "
                + (isDominated ? "fill=\"none\" stroke=\"\(color)\"" : "fill=\"\(color)\"") + "><title>\(SVG.escape(label))</title></circle>")
            svg.append("<text x=\"\(SVG.number(sx(group.x) + 6))\" y=\"\(SVG.number(sy(group.y) - 4))\" font-size=\"9\">\(index + 1)</text>")
            svg.append("<text class=\"key\" x=\"8\" y=\"\(SVG.number(keyTop + Double(index) * 14))\" font-size=\"10\" fill=\"\(color)\">"
                + "\(SVG.escape("\(index + 1): \(shown) \(figures)" + (isDominated ? ", dominated" : "")))</text>")
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n")
    }

    /// One horizontal box a configuration: whiskers from minimum to maximum, the box between
    /// the quartiles, a tick at the median.
    static func boxChart(_ summary: SweepSummary, metric: SweepSummary.Metric) -> String {
        let rows = summary.configurations.compactMap { configuration in summary.spreads[configuration]?[metric].map { (configuration, $0) } }
        let width = 560.0, left = 190.0, right = 20.0, top = 30.0, rowHeight = 16.0
        let height = top + Double(rows.count) * rowHeight + 30
        let maxValue = max(rows.map(\.1.maximum).max() ?? 1, 1e-9)
        let scale = SVG.Scale(domain: (0, maxValue), range: (left, width - right))
        var svg = ["<svg class=\"boxes\" data-metric=\"\(metric.rawValue)\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">"]
        svg.append("<text class=\"title\" x=\"8\" y=\"16\">\(SVG.escape("\(metric.title): minimum, quartiles, median, maximum"))</text>")
        for (index, (configuration, spread)) in rows.enumerated() {
            let y = top + Double(index) * rowHeight + rowHeight / 2
            svg.append("<text x=\"\(left - 6)\" y=\"\(SVG.number(y + 4))\" text-anchor=\"end\">\(SVG.escape(configuration.label(summary.axes)))</text>")
            svg.append("<line x1=\"\(SVG.number(scale(spread.minimum)))\" x2=\"\(SVG.number(scale(spread.maximum)))\" y1=\"\(SVG.number(y))\" y2=\"\(SVG.number(y))\" stroke=\"#888\"/>")
            svg.append("<rect class=\"box\" x=\"\(SVG.number(scale(spread.lowerQuartile)))\" y=\"\(SVG.number(y - 5))\" "
                + "width=\"\(SVG.number(max(scale(spread.upperQuartile) - scale(spread.lowerQuartile), 1)))\" height=\"10\" fill=\"#9ecae1\" stroke=\"#3182bd\"/>")
            svg.append("<line x1=\"\(SVG.number(scale(spread.median)))\" x2=\"\(SVG.number(scale(spread.median)))\" y1=\"\(SVG.number(y - 6))\" y2=\"\(SVG.number(y + 6))\" stroke=\"#08519c\" stroke-width=\"2\"/>")
        }
        svg.append("<text x=\"\(left)\" y=\"\(SVG.number(height - 8))\">0</text><text x=\"\(SVG.number(width - right))\" y=\"\(SVG.number(height - 8))\" text-anchor=\"end\">\(SVG.escape(metric.format(maxValue)))</text>")
        svg.append("</svg>")
        return svg.joined(separator: "\n")
    }

    // MARK: - Markdown

    /// The sweep report of a results file, as Markdown.
    public static func markdown(_ results: ResultsFile) -> String {
        let summary = SweepSummary(results.runs)
        let dominated = summary.dominated(.meanFootprint, .reloadTime)
        var lines = ["# PressureLab sweep report", "", meta(results, summary), "", "## Per configuration", "",
                     "| configuration | cells | " + tableMetrics.map(\.title).joined(separator: " | ") + " | dominated |",
                     "|---|---:|" + tableMetrics.map { _ in "---:" }.joined(separator: "|") + "|---|"]
        for configuration in summary.configurations {
            let spreads = summary.spreads[configuration] ?? [:]
            var name = configuration.label(summary.axes)
            if dominated.contains(configuration) { name = "~~\(name)~~" }
            lines.append("| \(name) | \(spreads[.meanFootprint]?.count ?? 0) | "
                + tableMetrics.map { cell(spreads[$0], $0) }.joined(separator: " | ") + " | \(dominated.contains(configuration) ? "yes" : "") |")
        }
        lines += ["", "## Who wins where", "", "| scenario | " + SweepSummary.Metric.allCases.map(\.title).joined(separator: " | ") + " |",
                  "|---|" + SweepSummary.Metric.allCases.map { _ in "---" }.joined(separator: "|") + "|"]
        for scenario in summary.scenarios {
            let wins = summary.wins.filter { $0.scenario == scenario }
            let count = candidates(summary, results, scenario: scenario)
            lines.append("| \(label(scenario, results)) | " + SweepSummary.Metric.allCases.map { metric in
                wins.first { $0.metric == metric }.map { winText($0, summary, of: count) } ?? "-"
            }.joined(separator: " | ") + " |")
        }
        lines += ["", "Best by the median over the scenario's seeds; in brackets, by how much it beats the runner-up (percent of "
                  + "the runner-up's figure). The \(results.runs.count) cells are in the HTML report and the results file.", ""]
        return lines.joined(separator: "\n")
    }
}
