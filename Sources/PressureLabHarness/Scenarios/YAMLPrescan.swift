/// A cheap pass over YAML text before it is composed, refusing what would make composing
/// or reading it cost more than a file of its expanded size is allowed to.
///
/// Hardened YAML loaders bound alias expansion (SnakeYAML's `maxAliasesForCollections`,
/// go-yaml's alias ratio check). Yams resolves an alias by sharing the anchored node, so a
/// 500-byte file of anchors nested 8 deep expands to 10^8 nodes for whoever walks it, and
/// an alias used as a mapping key is hashed whole by the duplicate-key check while
/// composing, before any reader sees it. This pass finds, without composing:
///
/// - files over ``maximumFileBytes``;
/// - aliases used as mapping keys (`*a: 1`, `? *a`), refused outright;
/// - more than ``maximumAliases`` aliases;
/// - flow collections nested deeper than ``maximumFlowDepth`` (the composer recurses).
///
/// The expanded size of what remains is bounded while reading (``ScenarioReader``'s node
/// budget, ``maximumExpandedNodes``): a file may expand to as many nodes as a file of the
/// maximum size could hold written out, and no more.
///
/// The scan is conservative: it tracks quoted scalars and comments, so a `*` inside a
/// quoted or plain scalar is not an alias; only `*` at the start of a node is.
package enum YAMLPrescan {
    /// The largest scenario, profile or sweep file read (4 MiB).
    package static let maximumFileBytes = 4 << 20
    /// The most aliases a file may use.
    package static let maximumAliases = 64
    /// The deepest nesting of flow collections (`[`, `{`), and of block collections opened on
    /// one line (`- - - x`): the composer recurses once per level.
    package static let maximumFlowDepth = 64
    /// The deepest indentation of a line, in columns (block nesting, which also recurses).
    package static let maximumIndentation = 512
    /// The most YAML nodes a read may visit, aliases expanded. A file written out without
    /// aliases is held to the same number, so an aliased file costs at most what a plain one
    /// may (long scripts use `repeat` and `random`, not written-out steps).
    package static let maximumExpandedNodes = 200_000

    /// A problem found, with its 1-based line and column.
    package struct Finding: Sendable, Equatable {
        package var line: Int
        package var column: Int
        package var message: String
    }

    /// The first problem in `text`, or nil.
    package static func check(_ text: String) -> Finding? {
        let bytes = Array(text.utf8)
        guard bytes.count <= maximumFileBytes else {
            return Finding(line: 1, column: 1, message: "the file has \(bytes.count) bytes, more than the \(maximumFileBytes) "
                + "bytes a scenario file may have")
        }
        var scanner = Scanner(bytes: bytes)
        return scanner.run()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var line = 1
        var lineStart = 0
        var aliases = 0
        var flowDepth = 0
        /// The next non-blank byte starts a node (line start, after `- `, `: `, `? `, `[`, `{`, `,`).
        var atNodeStart = true
        /// The node about to start is a complex key (`? `).
        var afterQuestion = false
        /// Block indicators (`- `, `? `) on the current line.
        var indicatorsOnLine = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        var column: Int { index - lineStart + 1 }

        func finding(_ message: String) -> Finding { Finding(line: line, column: column, message: message) }

        mutating func newline() {
            index += 1
            line += 1
            lineStart = index
            indicatorsOnLine = 0
            atNodeStart = flowDepth == 0 ? true : atNodeStart
            afterQuestion = false
        }

        static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        static func isBreakOrEnd(_ byte: UInt8?) -> Bool { byte == nil || byte == 0x0A || byte == 0x0D }
        static func endsName(_ byte: UInt8) -> Bool {
            isBlank(byte) || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "[")
                || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}")
        }

        func peek(_ offset: Int = 0) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

        /// libyaml's anchor and alias name characters: `[A-Za-z0-9_-]`.
        static func isAnchorCharacter(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }

        /// The indentation (leading spaces) of the line that starts at `start`.
        func indentation(ofLineAt start: Int) -> Int {
            var end = start
            while end < bytes.count, bytes[end] == 0x20 { end += 1 }
            return end - start
        }

        /// Skips a block scalar (`|` or `>`): the rest of this line, then every following line
        /// that is blank or indented deeper than this one.
        mutating func skipBlockScalar() {
            let parentIndent = indentation(ofLineAt: lineStart)
            while let next = peek(), next != 0x0A { index += 1 }
            while index < bytes.count {
                let start = index + 1
                var end = start
                while end < bytes.count, bytes[end] == 0x20 { end += 1 }
                let blank = end >= bytes.count || bytes[end] == 0x0A || bytes[end] == 0x0D
                guard blank || end - start > parentIndent else { break }
                newline()
                while let next = peek(), next != 0x0A { index += 1 }
            }
            atNodeStart = false
        }

        mutating func run() -> Finding? {
            while let byte = peek() {
                if index == lineStart {
                    var indent = index
                    while indent < bytes.count, bytes[indent] == 0x20 { indent += 1 }
                    guard indent - index <= maximumIndentation else {
                        return finding("a line is indented more than \(maximumIndentation) columns")
                    }
                }
                switch byte {
                case 0x0A:
                    newline()
                case 0x0D:
                    index += 1
                case 0x20, 0x09:
                    index += 1
                case UInt8(ascii: "#") where index == lineStart || Self.isBlank(bytes[index - 1]):
                    while let next = peek(), next != 0x0A { index += 1 }
                case UInt8(ascii: "\"") where atNodeStart:
                    if let problem = skipQuoted(double: true) { return problem }
                    atNodeStart = false
                case UInt8(ascii: "'") where atNodeStart:
                    if let problem = skipQuoted(double: false) { return problem }
                    atNodeStart = false
                case UInt8(ascii: "*") where atNodeStart:
                    if let problem = alias() { return problem }
                case UInt8(ascii: "|") where atNodeStart && flowDepth == 0, UInt8(ascii: ">") where atNodeStart && flowDepth == 0:
                    skipBlockScalar()
                case UInt8(ascii: "&") where atNodeStart, UInt8(ascii: "!") where atNodeStart:
                    // An anchor or a tag: the node itself follows it.
                    index += 1
                    while let next = peek(), byte == UInt8(ascii: "&") ? Self.isAnchorCharacter(next) : !Self.endsName(next) { index += 1 }
                case UInt8(ascii: "[") where atNodeStart || flowDepth > 0, UInt8(ascii: "{") where atNodeStart || flowDepth > 0:
                    flowDepth += 1
                    guard flowDepth <= maximumFlowDepth else {
                        return finding("flow collections ([ ] and { }) are nested more than \(maximumFlowDepth) deep")
                    }
                    index += 1
                    atNodeStart = true
                case UInt8(ascii: "]") where flowDepth > 0, UInt8(ascii: "}") where flowDepth > 0:
                    flowDepth -= 1
                    index += 1
                    atNodeStart = false
                    // A flow collection used as a key would be hashed whole while composing.
                    var look = index
                    while look < bytes.count, Self.isBlank(bytes[look]) { look += 1 }
                    if look < bytes.count, bytes[look] == UInt8(ascii: ":"),
                       look + 1 >= bytes.count || Self.isBlank(bytes[look + 1]) || Self.isBreakOrEnd(bytes[look + 1]) || flowDepth > 0 {
                        return finding("a flow collection ([ ] or { }) may not be used as a mapping key")
                    }
                case UInt8(ascii: ",") where flowDepth > 0:
                    index += 1
                    atNodeStart = true
                case UInt8(ascii: "-") where atNodeStart && (Self.isBlank(peek(1) ?? 0x20) || Self.isBreakOrEnd(peek(1))),
                     UInt8(ascii: "?") where atNodeStart && (Self.isBlank(peek(1) ?? 0x20) || Self.isBreakOrEnd(peek(1))):
                    indicatorsOnLine += 1
                    guard indicatorsOnLine <= maximumFlowDepth else {
                        return finding("block collections are nested more than \(maximumFlowDepth) deep on one line")
                    }
                    if byte == UInt8(ascii: "?") {
                        return finding("explicit keys ('? ') are not used in these files; write 'key: value'")
                    }
                    index += 1
                case UInt8(ascii: ":") where Self.isBlank(peek(1) ?? 0x20) || Self.isBreakOrEnd(peek(1)) || flowDepth > 0:
                    index += 1
                    atNodeStart = true
                    afterQuestion = false
                default:
                    // A plain scalar: up to ': ', ' #', a line break or (in flow) an indicator.
                    index += 1
                    atNodeStart = false
                    while let next = peek() {
                        if next == 0x0A { break }
                        if next == UInt8(ascii: ":"), Self.isBlank(peek(1) ?? 0x20) || Self.isBreakOrEnd(peek(1)) { break }
                        if next == UInt8(ascii: "#"), Self.isBlank(bytes[index - 1]) { break }
                        if flowDepth > 0, [UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ":")].contains(next) {
                            break
                        }
                        index += 1
                    }
                }
            }
            return nil
        }

        mutating func alias() -> Finding? {
            let start = (line, column)
            aliases += 1
            guard aliases <= maximumAliases else {
                return Finding(line: start.0, column: start.1,
                               message: "the file uses more than \(maximumAliases) YAML aliases; write the values out")
            }
            if afterQuestion {
                return Finding(line: start.0, column: start.1, message: "a YAML alias may not be used as a mapping key")
            }
            index += 1
            while let next = peek(), Self.isAnchorCharacter(next) { index += 1 }
            var look = index
            while look < bytes.count, Self.isBlank(bytes[look]) { look += 1 }
            if look < bytes.count, bytes[look] == UInt8(ascii: ":") {
                return Finding(line: start.0, column: start.1, message: "a YAML alias may not be used as a mapping key")
            }
            atNodeStart = false
            return nil
        }

        mutating func skipQuoted(double: Bool) -> Finding? {
            let quote = bytes[index]
            index += 1
            while let next = peek() {
                if next == 0x0A {
                    newline()
                    atNodeStart = false
                    continue
                }
                if double, next == UInt8(ascii: "\\") {
                    index += 1
                    if peek() == 0x0A { continue }  // an escaped line break: counted as a line above
                    index += 1
                    continue
                }
                index += 1
                if next == quote {
                    if !double, peek() == quote {
                        index += 1
                        continue
                    }
                    return nil
                }
            }
            return nil
        }
    }
}
