import Foundation

/// The bytes retained at the end of each cycle of a scenario's `repeat:`, one small chart a
/// run, titled with its growth per cycle (docs/formats.md, "Growth per cycle").
extension HTMLReport {
    /// A chart of `run`'s cycle series (empty without one): a point a cycle, the first
    /// (left out of the slope) hollow.
    static func cycleChart(_ run: RunResult, id: String) -> String {
        guard let series = run.cycleRetainedBytes, series.count > 1 else { return "" }
        let width = 300.0, height = 160.0, left = 64.0, right = 12.0, top = 28.0, bottom = 24.0
        let low = Double(series.min() ?? 0), high = Double(series.max() ?? 0)
        let x = SVG.Scale(domain: (1, Double(series.count)), range: (left, width - right))
        let y = SVG.Scale(domain: high == low ? (low - 1, high + 1) : (low, high), range: (height - bottom, top))
        let growth = run.metrics.growthPerCycleBytes ?? 0
        var svg = ["<svg id=\"\(id)\" class=\"chart cycles\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"retained bytes at the end of each cycle\" "
            + "data-growth-per-cycle=\"\(growth)\">"]
        svg.append("<text class=\"title\" x=\"8\" y=\"16\">\(SVG.escape(run.policy.description)): growth/cycle \(growth) B "
            + "(R² \(String(format: "%.3f", run.metrics.growthFit ?? 1)), \(series.count) cycles)</text>")
        svg.append("<line class=\"axis\" x1=\"\(left)\" y1=\"\(height - bottom)\" x2=\"\(width - right)\" y2=\"\(height - bottom)\"/>")
        svg.append("<text x=\"4\" y=\"\(SVG.number(y(high) + 4))\">\(Units.mebibytes(Int(high)))</text>")
        svg.append("<text x=\"4\" y=\"\(SVG.number(y(low) + 4))\">\(Units.mebibytes(Int(low)))</text>")
        let points = series.enumerated().map { "\(SVG.number(x(Double($0.offset + 1)))),\(SVG.number(y(Double($0.element))))" }
        svg.append("<polyline fill=\"none\" stroke=\"\(SVG.palette[0])\" points=\"\(points.joined(separator: " "))\"/>")
        for (index, bytes) in series.enumerated() {
            svg.append("<circle cx=\"\(SVG.number(x(Double(index + 1))))\" cy=\"\(SVG.number(y(Double(bytes))))\" r=\"2.5\" "
                + "data-bytes=\"\(bytes)\" fill=\"\(index == 0 ? "#fff" : SVG.palette[0])\" stroke=\"\(SVG.palette[0])\"/>")
        }
        svg.append("<text x=\"\(SVG.number(width - right - 40))\" y=\"\(SVG.number(height - 6))\">cycle</text>")
        svg.append("</svg>")
        return svg.joined(separator: "\n")
    }
}
