/// One problem in a scenario file: where, which key, what is wrong and what would be valid.
public struct ScenarioDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// The file (or `NAME (Swift)`).
    public var path: String
    /// The line, from 1; 0 for a problem with the file as a whole (printed without a position).
    public var line: Int
    /// The column, from 1.
    public var column: Int
    /// The key path, e.g. `apps.photos.screens.grid.rows`.
    public var key: String
    /// What is wrong, and what would be valid.
    public var message: String

    /// A diagnostic with each field given.
    public init(path: String, line: Int, column: Int, key: String, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.key = key
        self.message = message
    }

    /// One line per diagnostic, always: control characters in the key or message (a quoted
    /// value with a newline) are escaped, so a tool reading `file:line:column:` keeps the location.
    public var description: String {
        let shownKey = Self.escaped(key)
        // Line 0: about the file as a whole (it cannot be read, or is not there), no position in it.
        let location = line == 0 ? path : "\(path):\(line):\(column)"
        return "\(location): \(shownKey.isEmpty ? "" : "\(shownKey): ")\(Self.escaped(message))"
    }

    /// `text` with line breaks, tabs and other control characters (C0, DEL, C1 such as NEL,
    /// U+2028, U+2029, and U+FEFF, which shows as nothing) written as escapes: on one line,
    /// in a diagnostic or a YAML comment, and nothing a terminal would act on.
    package static func escaped(_ text: String) -> String {
        func isControl(_ scalar: Unicode.Scalar) -> Bool {
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
                || scalar.value == 0xFEFF
        }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isControl(scalar):
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// A scenario that cannot run: every problem found in it.
public struct ScenarioError: Error, Sendable, CustomStringConvertible {
    /// Every problem found, in file order.
    public var diagnostics: [ScenarioDiagnostic]

    /// An error of these problems.
    public init(diagnostics: [ScenarioDiagnostic]) {
        self.diagnostics = diagnostics
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
