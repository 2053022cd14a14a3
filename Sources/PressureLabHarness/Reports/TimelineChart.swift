import Foundation
import PressureLab

/// Retained bytes over the steps: one series a run, its marks (kills, launches, warnings,
/// freezes, the app life cycle) and a strip of its pressure level. Readable at any length:
/// past one step a pixel column, a run is drawn as the band between the least and the most
/// it retained in each column (every column's true minimum and maximum), and its marks are
/// thinned to one a kind a column, with their count. Runs whose series coincide are said to
/// coincide in the legend (`ios3 = ios6 = aggressive`): only the last one drawn would show.
extension HTMLReport {
    /// The least and the most a run retained over the steps of one pixel column.
    struct Band: Equatable {
        var column: Int
        var minimum: Int
        var maximum: Int
    }

    /// The pixel column of `step` on a plot of `columns` columns spanning steps 0...`steps`.
    static func column(of step: Int, steps: Int, columns: Int) -> Int {
        guard steps > 0, columns > 0 else { return 0 }
        return min(columns - 1, max(0, Int(Double(step) / Double(steps) * Double(columns))))
    }

    /// Every column's true minimum and maximum of retained bytes, in column order (columns
    /// with no step are left out).
    static func bands(_ timeline: [RunResult.TimelineEntry], steps: Int, columns: Int) -> [Band] {
        var bands: [Band] = []
        for entry in timeline {
            let column = column(of: entry.step, steps: steps, columns: columns)
            if let last = bands.last, last.column == column {
                bands[bands.count - 1].minimum = min(last.minimum, entry.retainedBytes)
                bands[bands.count - 1].maximum = max(last.maximum, entry.retainedBytes)
            } else {
                bands.append(Band(column: column, minimum: entry.retainedBytes, maximum: entry.retainedBytes))
            }
        }
        return bands
    }

    /// Runs whose retained series and levels are the same, step for step, by index: each
    /// group in the order its first run comes.
    static func coincidingGroups(_ runs: [RunResult]) -> [[Int]] {
        var groups: [[Int]] = []
        for index in runs.indices {
            let series = runs[index].timeline.map { ($0.retainedBytes, $0.level) }
            if let group = groups.firstIndex(where: { group in
                let other = runs[group[0]].timeline
                return other.count == series.count && zip(other, series).allSatisfy { $0.retainedBytes == $1.0 && $0.level == $1.1 }
            }) {
                groups[group].append(index)
            } else {
                groups.append([index])
            }
        }
        return groups
    }

    static func timelineChart(_ runs: [RunResult], id: String) -> String {
        let width = 960.0, plotTop = 20.0, plotHeight = 260.0, left = 70.0, right = 180.0
        let stripHeight = 8.0
        let columns = Int(width - right - left)
        let steps = runs.map { $0.timeline.last?.step ?? 0 }.max() ?? 0
        let maxBytes = Double(runs.flatMap { $0.timeline.map(\.retainedBytes) }.max() ?? 0)
        let maxMiB = max(maxBytes / 1_048_576, 0.001)
        let ticks = SVG.ticks(upTo: maxMiB)
        let x = SVG.Scale(domain: (0, Double(max(steps, 1))), range: (left, (width - right)))
        let y = SVG.Scale(domain: (0, (ticks.last ?? maxMiB)), range: ((plotTop + plotHeight), plotTop))
        func yBytes(_ bytes: Int) -> Double { y(Double(bytes) / 1_048_576) }
        let groups = coincidingGroups(runs)
        let legendLines = groups.map { group in group.map { runs[$0].policy.description }.joined(separator: " = ") }
        let stripsTop = plotTop + plotHeight + 34
        let height = max(stripsTop + Double(runs.count) * (stripHeight + 6) + 30, plotTop + Double(groups.count) * 16 + 20)
        var svg = ["<svg id=\"\(id)\" class=\"chart timeline\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"retained bytes over the steps\">"]
        for tick in ticks {
            svg.append("<line class=\"grid\" x1=\"\(left)\" x2=\"\(width - right)\" y1=\"\(SVG.number(y(tick)))\" y2=\"\(SVG.number(y(tick)))\"/>")
            svg.append("<text x=\"\(left - 6)\" y=\"\(SVG.number(y(tick) + 4))\" text-anchor=\"end\">\(SVG.number(tick))</text>")
        }
        for tick in SVG.ticks(upTo: Double(max(steps, 1)), count: 8) where tick <= Double(max(steps, 1)) {
            svg.append("<text x=\"\(SVG.number(x(tick)))\" y=\"\(SVG.number(plotTop + plotHeight + 16))\" text-anchor=\"middle\">\(Int(tick))</text>")
        }
        svg.append("<g class=\"axis\"><line x1=\"\(left)\" x2=\"\(left)\" y1=\"\(plotTop)\" y2=\"\(plotTop + plotHeight)\"/>"
            + "<line x1=\"\(left)\" x2=\"\(width - right)\" y1=\"\(plotTop + plotHeight)\" y2=\"\(plotTop + plotHeight)\"/></g>")
        svg.append("<text x=\"14\" y=\"\(SVG.number(plotTop + plotHeight / 2))\" transform=\"rotate(-90 14 \(SVG.number(plotTop + plotHeight / 2)))\" text-anchor=\"middle\">retained (MiB)</text>")
        svg.append("<text x=\"\(SVG.number((left + width - right) / 2))\" y=\"\(SVG.number(plotTop + plotHeight + 30))\" text-anchor=\"middle\">step</text>")
        for (index, run) in runs.enumerated() {
            let group = groups.firstIndex { $0.contains(index) } ?? index
            let color = SVG.palette[group % SVG.palette.count]
            let attributes = "data-policy=\"\(SVG.escape(run.policy.description))\" data-peak=\"\(run.metrics.peakRetainedBytes)\""
            if run.timeline.count > columns {
                let bands = bands(run.timeline, steps: steps, columns: columns)
                let top = bands.map { "\(SVG.number(left + Double($0.column) + 0.5)),\(SVG.number(yBytes($0.maximum)))" }
                let bottom = bands.reversed().map { "\(SVG.number(left + Double($0.column) + 0.5)),\(SVG.number(yBytes($0.minimum)))" }
                svg.append("<polygon class=\"band\" \(attributes) data-columns=\"\(bands.count)\" data-steps=\"\(run.timeline.count)\" "
                    + "fill=\"\(color)\" fill-opacity=\"0.35\" stroke=\"\(color)\" stroke-width=\"0.5\" points=\"\((top + bottom).joined(separator: " "))\"/>")
            } else {
                var points = ["\(SVG.number(x(0))),\(SVG.number(y(0)))"]
                for entry in run.timeline { points.append("\(SVG.number(x(Double(entry.step)))),\(SVG.number(yBytes(entry.retainedBytes)))") }
                svg.append("<polyline class=\"series\" \(attributes) data-points=\"\(run.timeline.count + 1)\" "
                    + "fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.5\" points=\"\(points.joined(separator: " "))\"/>")
            }
            svg += marks(run, thinned: run.timeline.count > columns, steps: steps, columns: columns, x: x, y: yBytes, plotTop: plotTop)
            // The run's pressure level, step by step, in a strip under the plot.
            let stripY = stripsTop + Double(index) * (stripHeight + 6)
            svg.append("<text x=\"\(left - 6)\" y=\"\(SVG.number(stripY + 7))\" text-anchor=\"end\">\(SVG.escape(run.policy.description))</text>")
            let timeline = run.timeline
            var segmentStart = 0
            for index in 0...timeline.count where index > 0 {
                guard index == timeline.count || timeline[index].level != timeline[segmentStart].level else { continue }
                let level = timeline[segmentStart].level.description
                let fromX = x(Double(segmentStart == 0 ? 0 : timeline[segmentStart - 1].step))
                let toX = x(Double(timeline[index - 1].step))
                svg.append("<rect class=\"level \(level)\" x=\"\(SVG.number(fromX))\" y=\"\(SVG.number(stripY))\" width=\"\(SVG.number(max(toX - fromX, 0.5)))\" height=\"\(stripHeight)\" fill=\"\(SVG.levelColors[level] ?? "#ccc")\"><title>\(level)</title></rect>")
                segmentStart = index
            }
        }
        // The legend: one entry a group of coinciding runs.
        for (group, line) in legendLines.enumerated() {
            let rowY = plotTop + 10 + Double(group) * 16
            svg.append("<rect x=\"\(SVG.number(width - right + 16))\" y=\"\(SVG.number(rowY - 9))\" width=\"12\" height=\"10\" fill=\"\(SVG.palette[group % SVG.palette.count])\"/>")
            svg.append("<text class=\"legend\" x=\"\(SVG.number(width - right + 32))\" y=\"\(SVG.number(rowY))\">\(SVG.escape(line))"
                + "<title>\(SVG.escape(groups[group].count > 1 ? "\(line): the same retained bytes at every step" : line))</title></text>")
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n")
    }

    /// A run's marks: each at its step, or, thinned, one a kind a pixel column with the count
    /// and the steps it covers.
    static func marks(_ run: RunResult, thinned: Bool, steps: Int, columns: Int, x: SVG.Scale, y: (Int) -> Double,
                      plotTop: Double) -> [String] {
        struct Placed { var category: TimelineMark.Category; var mark: TimelineMark; var step: Int; var lastStep: Int; var bytes: Int; var count: Int; var texts: [String] }
        var placed: [Placed] = []
        var byColumn: [String: Int] = [:]
        for entry in run.timeline {
            for mark in entry.marks ?? [] where mark.category != .other {
                let key = "\(column(of: entry.step, steps: steps, columns: columns))/\(mark.category)"
                if thinned, let index = byColumn[key] {
                    placed[index].count += 1
                    placed[index].lastStep = entry.step
                    if placed[index].texts.count < 5 { placed[index].texts.append(mark.description) }
                } else {
                    if thinned { byColumn[key] = placed.count }
                    placed.append(Placed(category: mark.category, mark: mark, step: entry.step, lastStep: entry.step,
                                         bytes: entry.retainedBytes, count: 1, texts: [mark.description]))
                }
            }
        }
        return placed.map { item in
            let px = SVG.number(x(Double(item.step))), py = y(item.bytes)
            let steps = item.lastStep == item.step ? "step \(item.step)" : "steps \(item.step)-\(item.lastStep)"
            let counted = item.count > 1 ? "\(item.count) marks: " : ""
            let more = item.count > item.texts.count ? ", ..." : ""
            let text = steps + ": " + counted + item.texts.joined(separator: ", ") + more
            let title = "<title>" + SVG.escape(text) + "</title>"
            let count = item.count > 1 ? " data-count=\"\(item.count)\"" : ""
            switch item.category {
            case .kill:
                return "<path class=\"mark kill\"\(count) d=\"M\(px) \(SVG.number(py - 4))l4 4l-4 4l-4 -4z\" fill=\"#d62728\">\(title)</path>"
            case .launch:
                let fill: String
                switch item.mark {
                case .coldLaunch: fill = "#1f3b73"
                case .thaw: fill = "#17becf"
                default: fill = "#2ca02c"
                }
                return "<path class=\"mark launch\"\(count) d=\"M\(px) \(SVG.number(py - 5))l4 7h-8z\" fill=\"\(fill)\">\(title)</path>"
            case .warning:
                return "<line class=\"mark warning\"\(count) x1=\"\(px)\" x2=\"\(px)\" y1=\"\(plotTop)\" y2=\"\(plotTop + 8)\" stroke=\"#ff7f0e\" stroke-width=\"2\">\(title)</line>"
            case .freeze:
                return "<circle class=\"mark freeze\"\(count) cx=\"\(px)\" cy=\"\(SVG.number(py))\" r=\"3\" fill=\"#9ecae1\">\(title)</circle>"
            case .lifeCycle, .other:
                // Interruptions, background launches, Home terminating, background time over.
                return "<rect class=\"mark lifecycle\"\(count) x=\"\(SVG.number(x(Double(item.step)) - 3))\" y=\"\(SVG.number(py - 3))\" "
                    + "width=\"6\" height=\"6\" fill=\"#9467bd\">\(title)</rect>"
            }
        }
    }
}
