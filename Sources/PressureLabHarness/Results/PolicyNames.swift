import PressureLab

/// The cleanup policy a run used, as results name it: a built-in one by its kind, or one
/// written in Swift by its own name (``CleanupPolicy/name``, as the README's
/// `DropModelsFirst`). Written as its name (`ios6`, `drop-models-first`).
public enum CleanupPolicyName: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    case builtIn(CleanupKind)
    case custom(String)

    /// The built-in policy of that name, else a policy written in Swift.
    public init(_ name: String) {
        self = CleanupKind(rawValue: name).map(Self.builtIn) ?? .custom(name)
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

/// The termination policy a run used, as results name it: a built-in one by its kind, or
/// one written in Swift by its own name. Written as its name (`jetsam`, `lmk`).
public enum TerminationPolicyName: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    case builtIn(TerminationKind)
    case custom(String)

    /// The built-in policy of that name, else a policy written in Swift.
    public init(_ name: String) {
        self = TerminationKind(rawValue: name).map(Self.builtIn) ?? .custom(name)
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
