import PressureLab

/// A policy as results name it: a built-in one by its kind, or one written in Swift by its
/// own name (``CleanupPolicy/name``, as the README's `DropModelsFirst`). Written as its name
/// (`ios6`, `jetsam`, `drop-models-first`).
public enum PolicyName<BuiltIn>: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral
where BuiltIn: RawRepresentable & Hashable & Sendable, BuiltIn.RawValue == String {
    case builtIn(BuiltIn)
    case custom(String)

    /// The built-in policy of that name, else a policy written in Swift.
    public init(_ name: String) {
        self = BuiltIn(rawValue: name).map(Self.builtIn) ?? .custom(name)
    }

    public init(stringLiteral name: String) { self.init(name) }

    public var description: String {
        switch self {
        case .builtIn(let kind): return kind.rawValue
        case .custom(let name): return name
        }
    }

    public init(from decoder: any Decoder) throws { self.init(try decoder.singleValueContainer().decode(String.self)) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// The cleanup policy a run used.
public typealias CleanupPolicyName = PolicyName<CleanupKind>
/// The termination policy a run used.
public typealias TerminationPolicyName = PolicyName<TerminationKind>
