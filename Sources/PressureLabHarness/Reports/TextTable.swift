import Foundation

/// Plain-text tables: columns padded to their widest cell, numbers (and signed deltas)
/// right-aligned, lines without trailing spaces. The comparison table and the commands'
/// tables are all rendered here.
package enum TextTable {
    /// The table, without a final newline.
    ///
    /// - Parameter firstNumericColumn: columns before it are text even when a cell starts
    ///   with a digit (a scenario, a policy).
    package static func render(header: [String], rows: [[String]], firstNumericColumn: Int = 1) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                let numeric = column >= firstNumericColumn && (cell.first.map { $0.isNumber || $0 == "-" || $0 == "+" } ?? false)
                return numeric ? padding + cell : cell + padding
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}
