/// One problem in a scenario file: where, which key, what is wrong and what would be valid.
public struct ScenarioDiagnostic: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var column: Int
    /// The key path, e.g. `apps.photos.screens.grid.rows`.
    public var key: String
    public var message: String

    public var description: String {
        "\(path):\(line):\(column): \(key.isEmpty ? "" : "\(key): ")\(message)"
    }
}

/// A scenario that cannot run: every problem found in it.
public struct ScenarioError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [ScenarioDiagnostic]

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
