import PressureLab
import PressureLabHarness
import Foundation

/// What tools wrap around a `recursiveDescription` line, taken off before the view is read,
/// and the view's own fields.
extension RecursiveDescriptionReader {
    /// The dump's lines with lldb's and Cycript's string wrapping undone: `@"...\n..."`
    /// (escapes, on one line or, with Cycript's `?expand`, over several), Swift's `Optional(...)`.
    /// - Complexity: O(n).
    static func unwrapped(_ text: DumpText) -> [(Int, String)] {
        var result: [(Int, String)] = []
        let lastText = text.lines.lastIndex { !$0.isEmpty } ?? -1
        for (offset, raw) in text.lines.enumerated() {
            var line = raw
            if line.utf8.contains(0x40), let start = line.firstRange(of: "@\"") {
                line = String(line[start.upperBound...])
                if line.hasSuffix("\"") { line.removeLast() }
                let parts = line.replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\t", with: " ")
                    .components(separatedBy: "\\n")
                for part in parts { result.append((offset + 1, part)) }
                continue
            }
            if line.hasPrefix("Optional(") { line = String(line.dropFirst("Optional(".count)) }
            if line.hasSuffix(">)"), offset >= lastText { line.removeLast() }
            result.append((offset + 1, line))
        }
        return result
    }

    /// A line's body (after its `   | ` levels) without what a tool printed before the view:
    /// Cycript's opening backtick, a stray quote, lldb's result prefix (`(id) $1 = 0x0a61c0f0 `,
    /// `(UIView *) $2 = 0x... `), iOS 6's view-controller annotation (`'VC:0x1c54a3f0' 1
    /// child[Other:0x...] `), and the extra `<` of a description inside a description
    /// (`<<_UITextContainerView: ...> minSize = ...>`).
    static func framed(_ body: Substring) -> Substring {
        var body = body
        while let first = body.first, first == "`" || first == "\"" { body = body.dropFirst() }
        if body.hasPrefix("("), let close = body.firstIndex(of: ")") {
            let rest = body[body.index(after: close)...]
            if rest.hasPrefix(" $"), let equals = rest.range(of: " = ") {
                var value = rest[equals.upperBound...]
                if value.hasPrefix("0x") {
                    let hex = value.dropFirst(2).prefix { $0.isHexDigit }
                    value = value.dropFirst(2 + hex.count).drop { $0 == " " }
                }
                body = value
            }
        }
        if body.hasPrefix("'"), let close = body.dropFirst().firstIndex(of: "'"), body[..<close].contains(":0x"),
           let open = body[close...].firstIndex(of: "<") {
            body = body[open...]
        }
        while body.hasPrefix("<<") { body = body.dropFirst() }
        return body
    }

    /// `<` minus `>` outside quoted text (`text = '<b>'` does not count), fed a piece at a
    /// time: a wrapped entry is counted once, whatever its length.
    struct BracketBalance {
        var balance = 0
        var quoted = false
        var previous: Character = " "

        /// Whether a `<` is still open.
        var isOpen: Bool { balance > 0 }

        mutating func feed<Text: StringProtocol>(_ text: Text) {
            for character in text {
                if character == "'", previous == " " || previous == "=" || quoted { quoted.toggle() }
                else if !quoted, character == "<" { balance += 1 }
                else if !quoted, character == ">" { balance -= 1 }
                previous = character
            }
        }
    }

    /// One view's class, base class, frame and `hidden`.
    static func view(_ entry: String, depth: Int, line: Int, text: DumpText) throws(ImportError) -> DumpedView {
        let inner = entry.dropFirst()
        guard let colon = inner.firstIndex(of: ":"), !inner[..<colon].contains(" ") else {
            throw text.error(line, "expected '<Class: 0x...', found \(DumpText.quote(entry))")
        }
        let className = String(inner[..<colon])
        guard let frameRange = entry.firstRange(of: "frame = ("), let close = entry[frameRange.upperBound...].firstIndex(of: ")") else {
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
        if let base = entry.firstRange(of: "baseClass = ") {
            baseClass = String(entry[base.upperBound...].prefix { $0 != ";" && $0 != ">" })
        }
        var contentHeight: Double?
        if let content = entry.firstRange(of: "contentSize: {") {
            let numbers = entry[content.upperBound...].prefix { $0 != "}" }.split(separator: ",")
            if numbers.count == 2, let height = Double(numbers[1].trimmingCharacters(in: .whitespaces)), height.isFinite, height >= 0 {
                contentHeight = height
            }
        }
        return DumpedView(depth: depth, className: className, baseClass: baseClass, width: width, height: height,
                          hidden: entry.firstRange(of: "hidden = YES") != nil || entry.firstRange(of: "alpha = 0;") != nil, line: line,
                          contentHeight: contentHeight)
    }
}
