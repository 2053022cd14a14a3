import PressureLab
import PressureLabHarness
import Foundation

/// A dump's text, line by line, read through ``InputKind/dump`` (a regular file of at most
/// 64 MiB) and ``TextInput`` (UTF-8 or UTF-16 with its byte-order mark; `\r\n`, `\r\r\n` and a
/// bare `\r` are line ends), with the helpers every importer shares: numbers read strictly,
/// errors located.
package struct DumpText: Sendable {
    /// The file as the user named it (errors and comments say it).
    package let path: String
    /// The lines, without their terminators.
    package let lines: [String]
    /// What the file was decoded from, when it was not plain UTF-8 with `\n` line ends (the
    /// scenario's first comment says so).
    package var decodedFrom: String?

    /// Text already in memory (tests, fuzzing); `path` names it. Line ends are normalised as
    /// ``TextInput`` does, and a leading byte-order mark is dropped.
    /// - Complexity: O(n) in the text's bytes.
    package init(_ text: String, path: String) {
        self.init(text, path: path, normalised: false)
    }

    /// `normalised`: the text came from ``TextInput/decode(_:lineBreaks:)`` (its line ends are `\n` already).
    init(_ text: String, path: String, normalised: Bool) {
        self.path = path
        var text = normalised ? text : TextInput.normalisingLineEnds(text)
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        var lines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(Substring($0)) }
        if lines.last == "" { lines.removeLast() }
        self.lines = lines
    }

    /// Reads `path`; a file that cannot be read, or is not text, is an ``ImportError`` (at the
    /// line of the first byte that is not text).
    package static func read(_ path: String) throws(ImportError) -> DumpText {
        let decoded: TextInput.Decoded
        do {
            decoded = try InputKind.dump.text(of: path)
        } catch {
            switch error {
            case .unreadable(let problem): throw ImportError(path: path, line: 0, "cannot read the dump: \(problem)")
            case .notText(let refusal): throw ImportError(path: path, line: refusal.line, "column \(refusal.column): \(refusal.message)")
            }
        }
        var text = DumpText(decoded.text, path: path, normalised: true)
        if decoded.encoding != .utf8 || decoded.normalisedLineEnds {
            text.decodedFrom = decoded.encoding.rawValue + (decoded.normalisedLineEnds ? ", line ends \\r\\n or \\r read as one" : "")
        }
        return text
    }

    /// The error at line `line` (1-based).
    package func error(_ line: Int, _ message: String) -> ImportError {
        ImportError(path: path, line: line, message)
    }

    /// `path:line`, the origin comments give.
    package func origin(_ line: Int) -> String { "\(path):\(line)" }

    /// A value quoted for a message, shortened past 60 characters.
    static func quote(_ text: String) -> String {
        "'" + (text.count > 60 ? String(text.prefix(57)) + "..." : text) + "'"
    }

    /// The most kilobytes a figure may have (1 TiB): more is not a phone's app.
    package static let maximumKilobytes = 1 << 30

    /// A whole number of kilobytes as a dump prints it: digits, optionally grouped by commas
    /// in threes (`12,345`: copied from a spreadsheet or another tool). A fraction, another
    /// locale's grouping (`12.345`, `12'345`), a sign or a size over 1 TiB is an error.
    func kilobytes(_ token: Substring, line: Int, what: String) throws(ImportError) -> Int {
        let value = try wholeNumber(token, line: line, what: "\(what) in kB")
        guard value <= Self.maximumKilobytes else {
            throw error(line, "expected \(what) of at most \(Self.maximumKilobytes) kB (1 TiB), found \(value) kB")
        }
        return value
    }

    /// A whole number, digits optionally grouped by commas in threes.
    func wholeNumber(_ token: Substring, line: Int, what: String) throws(ImportError) -> Int {
        if let value = Self.wholeNumber(token) { return value }
        var reason = ""
        if token.contains(".") || token.contains("'") || token.contains("\u{A0}") {
            reason = " (a fraction, or another locale's digit grouping: write digits, or commas in threes)"
        } else if token.hasPrefix("-") {
            reason = " (a negative size)"
        }
        throw error(line, "expected \(what), a whole number, found \(Self.quote(String(token)))\(reason)")
    }

    /// Digits, or digits grouped by commas in threes; nil otherwise or past `Int.max / 1024`.
    static func wholeNumber(_ token: Substring) -> Int? {
        let groups = token.split(separator: ",", omittingEmptySubsequences: false)
        guard !groups.isEmpty, groups.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
        if groups.count > 1 {
            guard groups[0].count <= 3, groups.dropFirst().allSatisfy({ $0.count == 3 }) else { return nil }
        }
        let digits = groups.joined()
        guard digits.count <= 15, let value = Int(digits) else { return nil }
        return value
    }

    /// Whether a token is a number as ``wholeNumber(_:)`` reads it.
    static func isNumber(_ token: Substring) -> Bool { wholeNumber(token) != nil }

    /// Whether a token looks like a figure at all (digits, with separators or a sign): a row's
    /// figures start at the first such token.
    static func looksNumeric(_ token: Substring) -> Bool {
        guard let first = token.first else { return false }
        return first.isNumber || (first == "-" && token.count > 1 && token.dropFirst().first!.isNumber)
    }
}
