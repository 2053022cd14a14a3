/// Plain-text tables: columns padded to their widest cell, numbers right-aligned.
enum TextTable {
    static func render(header: [String], rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                let numeric = cell.first.map { $0.isNumber || $0 == "-" } ?? false
                return column > 0 && numeric ? padding + cell : cell + padding
            }.joined(separator: "  ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}

/// Human units for bytes and durations.
enum ByteFormat {
    static func mebibytes(_ bytes: Int) -> String {
        let value = Double(bytes) / 1_048_576
        return formatted(value, decimals: 2) + " MiB"
    }

    static func duration(nanoseconds: UInt64) -> String {
        if nanoseconds < 10_000 { return "\(nanoseconds) ns" }
        if nanoseconds < 10_000_000 { return formatted(Double(nanoseconds) / 1_000, decimals: 1) + " us" }
        return formatted(Double(nanoseconds) / 1_000_000, decimals: 2) + " ms"
    }

    static func formatted(_ value: Double, decimals: Int) -> String {
        let scale = decimals == 1 ? 10.0 : 100.0
        let rounded = (value * scale).rounded() / scale
        var text = String(rounded)
        if let dot = text.firstIndex(of: ".") {
            let fraction = text.distance(from: dot, to: text.endIndex) - 1
            if fraction < decimals { text += String(repeating: "0", count: decimals - fraction) }
        } else {
            text += "." + String(repeating: "0", count: decimals)
        }
        return text
    }
}
