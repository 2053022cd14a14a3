/// What is wrong with a view description, and where.
public enum ViewDescriptionError: Error, Equatable, CustomStringConvertible {
    /// A description with no views.
    case empty
    /// A size or count below zero; `view` is the node's preorder index.
    case negativeSize(view: Int, field: String, value: Int)
    /// Child counts that do not form exactly one tree.
    case malformedTree(view: Int, reason: String)
    /// More views than ``ViewDescription/maximumViewCount``.
    case tooManyViews(limit: Int)
    /// The tree's declared bytes exceed the safe share of the host's memory.
    case tooLargeForHost(declaredBytes: Int, limitBytes: Int)
    /// The description file does not exist.
    case fileMissing(path: String)
    /// The description file exists but cannot be read or decoded.
    case fileCorrupt(path: String, offset: Int, reason: String)
    /// A description inside a file is invalid.
    case invalidFile(path: String, underlying: ViewDescriptionErrorDetail)

    public var description: String {
        switch self {
        case .empty:
            return "a view description needs at least one view"
        case .negativeSize(let view, let field, let value):
            return "view #\(view) (preorder): '\(field)' is \(value); sizes and counts must be 0 or more"
        case .malformedTree(let view, let reason):
            return "view #\(view) (preorder): \(reason)"
        case .tooManyViews(let limit):
            return "the tree has more than \(limit) views"
        case .tooLargeForHost(let declared, let limit):
            return "the tree declares \(declared) bytes, more than the \(limit) bytes this host allows "
                + "a simulation (a safe share of its physical memory or cgroup limit)"
        case .fileMissing(let path):
            return "\(path): view description file not found"
        case .fileCorrupt(let path, let offset, let reason):
            return "\(path): corrupt view description at byte \(offset): \(reason)"
        case .invalidFile(let path, let underlying):
            return "\(path): \(underlying.error.description)"
        }
    }
}

/// Boxes a nested description error (an enum cannot hold itself directly).
public struct ViewDescriptionErrorDetail: Equatable, Sendable {
    private let box: [ViewDescriptionError]
    /// The detail of `error`.
    public init(_ error: ViewDescriptionError) { box = [error] }
    /// The error.
    public var error: ViewDescriptionError { box[0] }
}
