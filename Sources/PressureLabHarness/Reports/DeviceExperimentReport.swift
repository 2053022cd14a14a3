import Foundation

/// `pressurelab device --format html`: one page with, for each configuration of the device
/// experiment, the apps alive after each launch as the model gives them and, where the
/// experiment's authors published them, as the phone gave them (both curves on one chart),
/// and the hot launches per app beside the published ones with their relative errors.
/// Modelled figures are device time and counts from the simulation; published ones are
/// measurements, named as such on the page.
package enum DeviceExperimentReport {
    /// What the page shows of one configuration.
    package struct Configuration: Sendable {
        package var name: String
        package var aliveAfterLaunch: [Int]
        /// Modelled hot launches by app (device time, ns).
        package var hotLaunchDeviceNs: [String: LatencySummary]
        package var publishedAlive: [Int]?
        /// Published hot-launch samples by app (ms).
        package var publishedHotLaunchMs: [String: [Double]]?

        package init(name: String, aliveAfterLaunch: [Int], hotLaunchDeviceNs: [String: LatencySummary],
                    publishedAlive: [Int]?, publishedHotLaunchMs: [String: [Double]]?) {
            self.name = name
            self.aliveAfterLaunch = aliveAfterLaunch
            self.hotLaunchDeviceNs = hotLaunchDeviceNs
            self.publishedAlive = publishedAlive
            self.publishedHotLaunchMs = publishedHotLaunchMs
        }

        package init(_ outcome: DeviceExperiment.Outcome) {
            self.init(name: outcome.name, aliveAfterLaunch: outcome.aliveAfterLaunch, hotLaunchDeviceNs: outcome.hotLaunchDeviceNs,
                      publishedAlive: outcome.published?.aliveAfterLaunch, publishedHotLaunchMs: outcome.published?.hotLaunchMs)
        }
    }

    /// The whole page.
    package static func html(experiment: String, source: String?, configurations: [Configuration]) -> String {
        var page = ["<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset=\"utf-8\">",
                    "<title>\(SVG.escape(experiment)): modelled beside published</title>",
                    "<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:60em}"
                        + "table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right}th:first-child,td:first-child{text-align:left}"
                        + ".axis{stroke:#888}.label,.legend{font-size:11px}.published{stroke-dasharray:5 3}</style></head><body>",
                    "<h1>\(SVG.escape(experiment)): modelled beside published</h1>",
                    "<p>Modelled: counts and device time from the simulation (work counted times the profile's costs). "
                        + "Published: measured on the phone by the experiment's authors"
                        + (source.map { " (\(SVG.escape($0)))" } ?? "") + ". Relative error: (modelled - published) / published.</p>"]
        for (index, configuration) in configurations.enumerated() {
            page.append("<section class=\"configuration\" data-name=\"\(SVG.escape(configuration.name))\">")
            page.append("<h2>\(SVG.escape(configuration.name))</h2>")
            page.append(summary(configuration))
            page.append(aliveChart(configuration, id: "alive-\(index)"))
            page.append(hotLaunchTable(configuration))
            page.append("</section>")
        }
        page.append("</body></html>")
        return page.joined(separator: "\n") + "\n"
    }

    static func mean(_ values: [Int]) -> Double { PublishedComparison.mean(values) ?? 0 }

    static func relativeError(_ modelled: Double, _ published: Double) -> String {
        PublishedComparison.relativeError(modelled, published).map { String(format: "%+.1f%%", $0 * 100) } ?? "-"
    }

    static func summary(_ configuration: Configuration) -> String {
        let modelledMean = mean(configuration.aliveAfterLaunch), modelledMax = Double(configuration.aliveAfterLaunch.max() ?? 0)
        var rows = "<tr><th></th><th>mean alive</th><th>max alive</th></tr>"
            + "<tr><td>modelled</td><td>\(String(format: "%.2f", modelledMean))</td><td>\(Int(modelledMax))</td></tr>"
        if let published = configuration.publishedAlive, !published.isEmpty {
            let publishedMean = mean(published), publishedMax = Double(published.max() ?? 0)
            rows += "<tr><td>published</td><td>\(String(format: "%.2f", publishedMean))</td><td>\(Int(publishedMax))</td></tr>"
                + "<tr><td>relative error</td><td>\(relativeError(modelledMean, publishedMean))</td>"
                + "<td>\(relativeError(modelledMax, publishedMax))</td></tr>"
        }
        return "<table class=\"alive-summary\">\(rows)</table>"
    }

    /// Apps alive after each launch: the modelled curve, and the published one dashed.
    static func aliveChart(_ configuration: Configuration, id: String) -> String {
        let width = 680.0, height = 260.0, left = 44.0, right = 170.0, top = 12.0, bottom = 34.0
        let published = configuration.publishedAlive ?? []
        let launches = max(configuration.aliveAfterLaunch.count, published.count, 1)
        let highest = Double(max(configuration.aliveAfterLaunch.max() ?? 0, published.max() ?? 0, 1))
        let ticks = SVG.ticks(upTo: highest)
        let x = SVG.Scale(domain: (1, Double(max(launches, 2))), range: (left, width - right))
        let y = SVG.Scale(domain: (0, ticks.last ?? highest), range: (height - bottom, top))
        var svg = ["<svg id=\"\(id)\" class=\"chart alive\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
                   + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"apps alive after each launch\">"]
        svg.append("<line class=\"axis\" x1=\"\(SVG.number(left))\" y1=\"\(SVG.number(height - bottom))\" "
                   + "x2=\"\(SVG.number(width - right))\" y2=\"\(SVG.number(height - bottom))\"/>")
        for tick in ticks {
            svg.append("<text class=\"label\" x=\"\(SVG.number(left - 6))\" y=\"\(SVG.number(y(tick) + 4))\" text-anchor=\"end\">\(Int(tick))</text>")
        }
        for launch in stride(from: 1, through: launches, by: max(1, launches / 6)) {
            svg.append("<text class=\"label\" x=\"\(SVG.number(x(Double(launch))))\" y=\"\(SVG.number(height - bottom + 14))\" "
                       + "text-anchor=\"middle\">\(launch)</text>")
        }
        svg.append("<text class=\"label\" x=\"\(SVG.number((left + width - right) / 2))\" y=\"\(SVG.number(height - 4))\" "
                   + "text-anchor=\"middle\">launch</text>")
        func line(_ values: [Int], series: String, color: String) -> String {
            let points = values.enumerated().map { "\(SVG.number(x(Double($0.offset + 1)))),\(SVG.number(y(Double($0.element))))" }
            return "<polyline class=\"series \(series)\" data-series=\"\(series)\" data-points=\"\(values.count)\" fill=\"none\" "
                + "stroke=\"\(color)\" stroke-width=\"2\" points=\"\(points.joined(separator: " "))\"/>"
        }
        svg.append(line(configuration.aliveAfterLaunch, series: "modelled", color: SVG.palette[0]))
        var names = ["modelled"]
        if !published.isEmpty {
            svg.append(line(published, series: "published", color: SVG.palette[1]))
            names.append("published (measured)")
        }
        svg.append(SVG.legend(names, x: width - right + 12, y: top + 12))
        svg.append("</svg>")
        return svg.joined()
    }

    /// Hot launches per app: modelled p50 (device time) beside the published samples' median.
    static func hotLaunchTable(_ configuration: Configuration) -> String {
        let apps = Set(configuration.hotLaunchDeviceNs.keys).union(configuration.publishedHotLaunchMs.map { Array($0.keys) } ?? []).sorted()
        guard !apps.isEmpty else { return "<p>No hot launch.</p>" }
        var rows = ["<tr><th>app</th><th>modelled p50 (ms)</th><th>published median (ms)</th><th>relative error</th></tr>"]
        for app in apps {
            let modelled = configuration.hotLaunchDeviceNs[app].map { Double($0.p50) / 1e6 }
            let published = configuration.publishedHotLaunchMs?[app].flatMap(PublishedComparison.median)
            let error = modelled.flatMap { m in published.map { relativeError(m, $0) } } ?? "-"
            rows.append("<tr><td>\(SVG.escape(app))</td><td>\(modelled.map { String(format: "%.1f", $0) } ?? "-")</td>"
                        + "<td>\(published.map { String(format: "%.1f", $0) } ?? "-")</td><td>\(error)</td></tr>")
        }
        return "<table class=\"hot-launches\">\(rows.joined())</table>"
    }
}
