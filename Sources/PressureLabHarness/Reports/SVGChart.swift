import Foundation

/// Small SVG building blocks: scales, nice axis ticks, escaped text.
enum SVG {
    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f"]
    static let levelColors = ["normal": "#c7e9c0", "warning": "#fdd49e", "critical": "#fc9272"]

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func number(_ value: Double) -> String { String(format: "%.1f", value) }

    /// About `count` round tick values covering 0...maximum.
    static func ticks(upTo maximum: Double, count: Int = 5) -> [Double] {
        guard maximum > 0 else { return [0] }
        let raw = maximum / Double(count)
        let magnitude = pow(10, floor(log10(raw)))
        let step = [1.0, 2.0, 2.5, 5.0, 10.0].map { $0 * magnitude }.first { $0 >= raw } ?? raw
        let top = (maximum / step).rounded(.up) * step
        return stride(from: 0.0, through: top + step * 0.001, by: step).map { $0 }
    }

    /// A power of ten of nanoseconds as a round label: 1 ns, 10 us, 100 ms, 1 s.
    static func decade(_ exponent: Double) -> String {
        let units = [(9.0, "s"), (6.0, "ms"), (3.0, "us"), (0.0, "ns")]
        for (power, unit) in units where exponent >= power {
            return "\(Int(pow(10, exponent - power).rounded())) \(unit)"
        }
        return "1 ns"
    }

    /// A linear scale from a data interval to a pixel interval (either may run downwards).
    struct Scale {
        var domain: (Double, Double)
        var range: (Double, Double)
        func callAsFunction(_ value: Double) -> Double {
            let span = domain.1 - domain.0
            let t = span == 0 ? 0 : (value - domain.0) / span
            return range.0 + t * (range.1 - range.0)
        }
    }

    static func legend(_ names: [String], x: Double, y: Double) -> String {
        var parts: [String] = []
        for (index, name) in names.enumerated() {
            let rowY = y + Double(index) * 16
            parts.append("<rect x=\"\(number(x))\" y=\"\(number(rowY - 9))\" width=\"12\" height=\"10\" fill=\"\(palette[index % palette.count])\"/>")
            parts.append("<text x=\"\(number(x + 16))\" y=\"\(number(rowY))\" class=\"legend\">\(escape(name))</text>")
        }
        return "<g class=\"legend\">" + parts.joined() + "</g>"
    }
}
