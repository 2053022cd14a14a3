import PressureLab
import PressureLabHarness
import Foundation

/// One view of a dumped hierarchy, in preorder: its depth, class, frame and line.
package struct DumpedView: Sendable, Equatable {
    package var depth: Int
    /// The class as printed (`UILabel`, `MyApp.FeedCell`), and UIKit's `baseClass` when given.
    package var className: String
    package var baseClass: String?
    /// The frame's size in points (UIKit) or pixels (Android); negative as printed.
    package var width: Double
    package var height: Double
    /// `hidden = YES` or `alpha = 0`: nothing of it is drawn.
    package var hidden: Bool
    package var line: Int
    /// A scroll view's content height (`contentSize: {w, h}`), when printed.
    package var contentHeight: Double?
    /// The column of the view in its line, for dumps printed on one line (uiautomator's).
    package var column: Int?
    /// Whether it draws, or is a cell, when the reader decides (uiautomator's classes); nil:
    /// UIKit's rules in ``ViewTreeImporter``.
    package var drawsOverride: Bool?
    package var isCellOverride: Bool?

    package init(depth: Int, className: String, baseClass: String? = nil, width: Double, height: Double, hidden: Bool, line: Int,
                contentHeight: Double? = nil, column: Int? = nil, drawsOverride: Bool? = nil, isCellOverride: Bool? = nil) {
        self.depth = depth
        self.className = className
        self.baseClass = baseClass
        self.width = width
        self.height = height
        self.hidden = hidden
        self.line = line
        self.contentHeight = contentHeight
        self.column = column
        self.drawsOverride = drawsOverride
        self.isCellOverride = isCellOverride
    }

    /// The class and base class, for matching (`TableViewCell`, `Label`).
    var names: [String] { [className] + (baseClass.map { [$0] } ?? []) }
}

/// Reads UIKit's `recursiveDescription` as lldb prints it: `po` (the text as it is, or in
/// Swift `Optional(...)`), or `p`/`expr` (`(NSString *) $0 = 0x... @"..."`, newlines escaped).
/// One view a line, `<Class: 0xADDR; frame = (x y; w h); ...>`, each level indented by
/// `   | `; a line wrapped inside `<...>` (a long `text = '...'`) continues until its
/// brackets close. Several windows are several roots.
package enum RecursiveDescriptionReader {
    /// The views, in preorder.
    package static func views(_ text: DumpText) throws(ImportError) -> [DumpedView] {
        let lines = unwrapped(text)
        var views: [DumpedView] = []
        var index = 0
        while index < lines.count {
            let (number, line) = lines[index]
            index += 1
            let prefix = line.prefix { $0 == " " || $0 == "|" || $0 == "\t" }
            let body = line.dropFirst(prefix.count)
            guard body.hasPrefix("<") else {
                if body.trimmingCharacters(in: .whitespaces).isEmpty || views.isEmpty { continue }
                throw text.error(number, "expected a view, '<Class: 0x...; frame = (x y; w h); ...>', found \(DumpText.quote(String(body)))")
            }
            // The entry: until its angle brackets balance (lines wrapped inside <...>).
            var entry = String(body)
            var balance = bracketBalance(entry)
            while balance > 0, index < lines.count {
                entry += " " + lines[index].1.trimmingCharacters(in: .whitespaces)
                balance = bracketBalance(entry)
                index += 1
            }
            guard balance <= 0 else {
                throw text.error(number, "expected the view's closing '>', found the end of the dump (truncated?)")
            }
            let depth = prefix.filter { $0 == "|" }.count
            guard depth <= (views.last.map { $0.depth + 1 } ?? 0) else {
                throw text.error(number, "expected a view at depth \((views.last?.depth ?? -1) + 1) or less, found depth \(depth) "
                    + "(a level of '   | ' too many)")
            }
            views.append(try view(entry, depth: depth, line: number, text: text))
            guard views.count <= ScenarioLimits.viewsPerTree else {
                throw text.error(number, "expected at most \(ScenarioLimits.viewsPerTree) views, found more")
            }
        }
        guard !views.isEmpty else {
            throw ImportError(path: text.path, line: text.lines.isEmpty ? 0 : 1, "expected recursiveDescription's "
                + "'<UIWindow: 0x...; frame = (0 0; 375 812); ...>', found no view in \(text.lines.count) lines")
        }
        return views
    }

    /// The dump's lines with lldb's wrapping undone: `@"...\n..."` (escapes) or `Optional(...)`.
    static func unwrapped(_ text: DumpText) -> [(Int, String)] {
        var result: [(Int, String)] = []
        for (offset, raw) in text.lines.enumerated() {
            var line = raw
            if let start = line.range(of: "@\"") {
                line = String(line[start.upperBound...])
                if line.hasSuffix("\"") { line.removeLast() }
                let parts = line.replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\t", with: " ")
                    .components(separatedBy: "\\n")
                for part in parts { result.append((offset + 1, part)) }
                continue
            }
            if line.hasPrefix("Optional(") { line = String(line.dropFirst("Optional(".count)) }
            if line.hasSuffix(">)"), offset == text.lines.count - 1 || text.lines[(offset + 1)...].allSatisfy({ $0.isEmpty }) {
                line.removeLast()
            }
            result.append((offset + 1, line))
        }
        return result
    }

    /// `<` minus `>` outside quoted text (`text = '<b>'` does not count).
    static func bracketBalance(_ text: String) -> Int {
        var balance = 0
        var quoted = false
        var previous: Character = " "
        for character in text {
            if character == "'", previous == " " || previous == "=" || quoted { quoted.toggle() }
            else if !quoted, character == "<" { balance += 1 }
            else if !quoted, character == ">" { balance -= 1 }
            previous = character
        }
        return balance
    }

    /// One view's class, base class, frame and `hidden`.
    static func view(_ entry: String, depth: Int, line: Int, text: DumpText) throws(ImportError) -> DumpedView {
        let inner = entry.dropFirst()
        guard let colon = inner.firstIndex(of: ":"), !inner[..<colon].contains(" ") else {
            throw text.error(line, "expected '<Class: 0x...', found \(DumpText.quote(entry))")
        }
        let className = String(inner[..<colon])
        guard let frameRange = entry.range(of: "frame = (") , let close = entry[frameRange.upperBound...].firstIndex(of: ")") else {
            throw text.error(line, "expected the view's 'frame = (x y; w h)', found \(DumpText.quote(entry))")
        }
        let frame = entry[frameRange.upperBound..<close]
        let halves = frame.split(separator: ";")
        let size = halves.count == 2 ? halves[1].split(separator: " ") : []
        guard size.count == 2, let width = Double(size[0]), let height = Double(size[1]), width.isFinite, height.isFinite,
              abs(width) <= 1e6, abs(height) <= 1e6 else {
            throw text.error(line, "expected a frame '(x y; w h)' of numbers up to 1000000 points, found '(\(frame))'")
        }
        var baseClass: String?
        if let base = entry.range(of: "baseClass = ") {
            baseClass = String(entry[base.upperBound...].prefix { $0 != ";" && $0 != ">" })
        }
        var contentHeight: Double?
        if let content = entry.range(of: "contentSize: {") {
            let numbers = entry[content.upperBound...].prefix { $0 != "}" }.split(separator: ",")
            if numbers.count == 2, let height = Double(numbers[1].trimmingCharacters(in: .whitespaces)), height.isFinite, height >= 0 {
                contentHeight = height
            }
        }
        return DumpedView(depth: depth, className: className, baseClass: baseClass, width: width, height: height,
                          hidden: entry.contains("hidden = YES") || entry.contains("alpha = 0;"), line: line, contentHeight: contentHeight)
    }
}
