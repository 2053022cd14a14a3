import PressureLab
import PressureLabHarness

/// One `<node>` of a `uiautomator dump`, in preorder.
package struct AutomatorNode: Sendable, Equatable {
    /// Nesting under `<hierarchy>` (0: a window's root).
    package var depth: Int
    /// The index of the enclosing node in the reader's list, nil for a root.
    package var parent: Int?
    package var className: String
    package var package: String
    package var resourceID: String
    /// `bounds="[left,top][right,bottom]"`, in pixels.
    package var left: Int, top: Int, right: Int, bottom: Int
    /// `visible-to-user="false"` (androidx's UiDevice prints it; `uiautomator dump` skips such nodes).
    package var invisible: Bool
    /// `NAF="true"`: "not accessibility friendly" (clickable, no text or description).
    package var naf: Bool
    package var line: Int
    package var column: Int
    /// Nodes directly inside.
    package var children = 0
}

/// Reads `adb shell uiautomator dump` XML (AccessibilityNodeInfoDumper, frameworks/testing
/// and androidx.test.uiautomator): `<?xml ...?><hierarchy rotation="0"><node index="0" text=""
/// resource-id="" class="android.widget.FrameLayout" package="com.x" ... bounds="[0,0][1080,2160]">
/// ...</node></hierarchy>`, usually all on one line, often followed by `UI hierchary dumped to:
/// /dev/tty` (the tool's own spelling).
///
/// A small tolerant tokenizer, not a general XML parser: lines before `<hierarchy` and text
/// after `</hierarchy>` are skipped; `<?...?>` and comments are skipped; attribute values in
/// either quote, with `&amp; &lt; &gt; &quot; &apos; &#N; &#xH;` decoded (an unknown entity is
/// kept as written). Only `hierarchy` and `node` elements are expected; anything else, a
/// truncated dump, more than ``maximumNodes`` nodes or nesting deeper than ``maximumDepth`` is
/// an error at its line and column.
package enum UIAutomatorReader {
    /// Deeper nesting than any real screen (Android warns past a few dozen levels).
    package static let maximumDepth = 256
    package static let maximumNodes = ScenarioLimits.viewsPerTree
    /// The most pixels a bound may be from the origin.
    package static let maximumCoordinate = 1_000_000

    /// The `rotation` attribute and the nodes.
    package static func nodes(_ text: DumpText) throws(ImportError) -> (rotation: String?, nodes: [AutomatorNode]) {
        var scanner = Scanner(text)
        return try scanner.hierarchy()
    }

    struct Scanner {
        let text: DumpText
        let bytes: [UInt8]
        /// The offset of each line's first byte.
        let lineStarts: [Int]
        var offset = 0

        init(_ text: DumpText) {
            self.text = text
            bytes = Array(text.lines.joined(separator: "\n").utf8)
            var starts = [0]
            for (index, byte) in bytes.enumerated() where byte == 10 { starts.append(index + 1) }
            lineStarts = starts
        }

        /// 1-based line and column (in bytes) of `position`.
        func location(_ position: Int) -> (line: Int, column: Int) {
            var low = 0, high = lineStarts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if lineStarts[middle] <= position { low = middle } else { high = middle - 1 }
            }
            return (low + 1, position - lineStarts[low] + 1)
        }

        func error(_ position: Int, _ message: String) -> ImportError {
            let (line, column) = location(position)
            return text.error(line, message + " (column \(column))")
        }

        /// What is at `position`, quoted for a message.
        func found(_ position: Int) -> String {
            guard position < bytes.count else { return "the end of the dump (truncated?)" }
            let end = min(bytes.count, position + 40)
            var slice = Array(bytes[position..<end])
            while let last = slice.last, last & 0xC0 == 0x80 { slice.removeLast() }
            if let last = slice.last, last >= 0xC0 { slice.removeLast() }
            let shown = String(decoding: slice, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
            return DumpText.quote(shown + (end < bytes.count ? "..." : ""))
        }

        func starts(with literal: String, at position: Int) -> Bool {
            let utf8 = Array(literal.utf8)
            guard position + utf8.count <= bytes.count else { return false }
            return bytes[position..<position + utf8.count].elementsEqual(utf8)
        }

        func find(_ literal: String, from position: Int) -> Int? {
            let utf8 = Array(literal.utf8)
            guard let first = utf8.first, utf8.count <= bytes.count else { return nil }
            var index = position
            while index + utf8.count <= bytes.count {
                if bytes[index] == first, bytes[index..<index + utf8.count].elementsEqual(utf8) { return index }
                index += 1
            }
            return nil
        }

        static func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 10 || byte == 13 }
        static func isNameByte(_ byte: UInt8) -> Bool {
            (byte >= 97 && byte <= 122) || (byte >= 65 && byte <= 90) || (byte >= 48 && byte <= 57) || byte == 45 || byte == 95 || byte == 58 || byte == 46
        }

        mutating func skipSpaces() { while offset < bytes.count, Self.isSpace(bytes[offset]) { offset += 1 } }

        mutating func name() -> String {
            let start = offset
            while offset < bytes.count, Self.isNameByte(bytes[offset]) { offset += 1 }
            return String(decoding: bytes[start..<offset], as: UTF8.self)
        }

        /// `<hierarchy ...>` and every node to `</hierarchy>`.
        mutating func hierarchy() throws(ImportError) -> (rotation: String?, nodes: [AutomatorNode]) {
            guard let start = find("<hierarchy", from: 0) else {
                let first = text.lines.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                throw ImportError(path: text.path, line: text.lines.isEmpty ? 0 : 1, "expected uiautomator dump's '<hierarchy rotation=\"0\">', "
                    + "found none in \(text.lines.count) lines" + (first.map { " (the first: \(DumpText.quote($0)))" } ?? ""))
            }
            offset = start + 1
            _ = name()
            let (attributes, closed) = try self.attributes()
            guard !closed else { throw error(start, "expected nodes in the hierarchy, found an empty '<hierarchy/>'") }
            var nodes: [AutomatorNode] = []
            var open: [Int] = []
            while true {
                skipSpaces()
                guard offset < bytes.count else {
                    throw error(offset, "expected " + (open.isEmpty ? "</hierarchy>" : "</node> (\(open.count) open)") + ", found the end of the dump (truncated?)")
                }
                let here = offset
                guard bytes[here] == 60 else {   // '<'
                    throw error(here, "expected '<node ...>' or a closing tag, found \(found(here))")
                }
                if starts(with: "<!--", at: here) {
                    guard let end = find("-->", from: here + 4) else { throw error(here, "expected '-->' closing the comment, found the end of the dump") }
                    offset = end + 3
                    continue
                }
                if starts(with: "<?", at: here) {
                    guard let end = find("?>", from: here + 2) else { throw error(here, "expected '?>', found the end of the dump") }
                    offset = end + 2
                    continue
                }
                if starts(with: "</", at: here) {
                    offset = here + 2
                    let closing = name()
                    skipSpaces()
                    guard offset < bytes.count, bytes[offset] == 62 else { throw error(offset, "expected '>' closing </\(closing), found \(found(offset))") }
                    offset += 1
                    if let last = open.last {
                        guard closing == "node" else { throw error(here, "expected </node> (the node at line \(nodes[last].line):\(nodes[last].column)), found </\(closing)>") }
                        open.removeLast()
                        continue
                    }
                    guard closing == "hierarchy" else { throw error(here, "expected </hierarchy>, found </\(closing)>") }
                    guard !nodes.isEmpty else { throw error(start, "expected nodes in the hierarchy, found none") }
                    return (attributes["rotation"], nodes)
                }
                offset = here + 1
                let element = name()
                guard element == "node" else {
                    // Appium's page source names each element by the view's class.
                    let appium = element.contains(".") ? ": Appium's page source (elements named by their class), not uiautomator "
                        + "dump's XML; dump the screen with adb shell uiautomator dump" : ""
                    throw error(here, "expected '<node ...>' or a closing tag, found \(found(here))\(appium)")
                }
                let (values, selfClosed) = try self.attributes()
                guard open.count < maximumDepth else {
                    throw error(here, "expected nodes nested at most \(maximumDepth) deep, found one deeper")
                }
                guard nodes.count < maximumNodes else { throw error(here, "expected at most \(maximumNodes) nodes, found more") }
                let (line, column) = location(here)
                guard let bounds = values["bounds"] else {
                    throw error(here, "expected the node's bounds=\"[left,top][right,bottom]\", found none")
                }
                guard let box = Self.bounds(bounds) else {
                    throw error(here, "expected bounds \"[left,top][right,bottom]\" of whole pixels within \(maximumCoordinate), found \(DumpText.quote(bounds))")
                }
                if let parent = open.last { nodes[parent].children += 1 }
                nodes.append(AutomatorNode(depth: open.count, parent: open.last, className: values["class"] ?? "", package: values["package"] ?? "",
                                           resourceID: values["resource-id"] ?? "", left: box.0, top: box.1, right: box.2, bottom: box.3,
                                           invisible: values["visible-to-user"] == "false", naf: values["NAF"] == "true", line: line, column: column))
                if !selfClosed { open.append(nodes.count - 1) }
            }
        }

        /// Attributes up to `>` or `/>` (then true).
        mutating func attributes() throws(ImportError) -> ([String: String], Bool) {
            var values: [String: String] = [:]
            while true {
                skipSpaces()
                guard offset < bytes.count else { throw error(offset, "expected an attribute or '>', found the end of the dump (truncated?)") }
                if bytes[offset] == 62 { offset += 1; return (values, false) }
                if bytes[offset] == 47, offset + 1 < bytes.count, bytes[offset + 1] == 62 { offset += 2; return (values, true) }
                let start = offset
                let key = name()
                skipSpaces()
                guard !key.isEmpty, offset < bytes.count, bytes[offset] == 61 else {
                    throw error(start, "expected an attribute name=\"value\" or '>', found \(found(start))")
                }
                offset += 1
                skipSpaces()
                guard offset < bytes.count, bytes[offset] == 34 || bytes[offset] == 39 else {
                    throw error(offset, "expected a quoted value for \(key), found \(found(offset))")
                }
                let quote = bytes[offset]
                let valueStart = offset + 1
                var end = valueStart
                while end < bytes.count, bytes[end] != quote { end += 1 }
                guard end < bytes.count else { throw error(start, "expected the closing quote of \(key)=, found the end of the dump (truncated?)") }
                if values[key] == nil { values[key] = Self.decoded(bytes[valueStart..<end]) }
                offset = end + 1
            }
        }

        /// An attribute value with XML's entities decoded; an unknown one is kept as written.
        static func decoded(_ raw: ArraySlice<UInt8>) -> String {
            let text = String(decoding: raw, as: UTF8.self)
            guard text.contains("&") else { return text }
            var out = ""
            var rest = Substring(text)
            while let amp = rest.firstIndex(of: "&") {
                out += rest[..<amp]
                let after = rest[amp...]
                guard let semicolon = after.prefix(12).firstIndex(of: ";") else { out += "&"; rest = rest[rest.index(after: amp)...]; continue }
                let entity = after[after.index(after: amp)..<semicolon]
                var scalar: Unicode.Scalar?
                switch entity {
                case "amp": scalar = "&"
                case "lt": scalar = "<"
                case "gt": scalar = ">"
                case "quot": scalar = "\""
                case "apos": scalar = "'"
                default:
                    if entity.hasPrefix("#x") || entity.hasPrefix("#X") { scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init) }
                    else if entity.hasPrefix("#") { scalar = UInt32(entity.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init) }
                }
                if let scalar { out.unicodeScalars.append(scalar) } else { out += after[amp...semicolon] }
                rest = rest[rest.index(after: semicolon)...]
            }
            return out + rest
        }

        /// `[left,top][right,bottom]`, each an integer (a sign allowed) within ``maximumCoordinate``.
        static func bounds(_ text: String) -> (Int, Int, Int, Int)? {
            let parts = text.split(whereSeparator: { $0 == "[" || $0 == "]" || $0 == "," }).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 4, text.hasPrefix("["), text.hasSuffix("]"), text.filter({ $0 == "[" }).count == 2 else { return nil }
            var numbers: [Int] = []
            for part in parts {
                guard part.count <= 8, let value = Int(part), abs(value) <= maximumCoordinate else { return nil }
                numbers.append(value)
            }
            return (numbers[0], numbers[1], numbers[2], numbers[3])
        }
    }
}
