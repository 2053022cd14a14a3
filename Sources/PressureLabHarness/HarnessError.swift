import PressureLab

/// Errors of the harness: what failed and where.
public enum HarnessError: Error, Equatable, CustomStringConvertible {
    /// An output file could not be created or written.
    case cannotWrite(path: String, reason: String)
    /// No cleanup policy of that name.
    case unknownPolicy(String)
    /// No termination policy of that name.
    case unknownTermination(String)

    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason): return "\(path): cannot write: \(reason)"
        case .unknownPolicy(let name):
            return "unknown cleanup policy '\(name)'; valid policies are \(CleanupPolicies.builtInNames.joined(separator: ", "))"
        case .unknownTermination(let name):
            return "unknown termination policy '\(name)'; valid policies are \(TerminationPolicies.builtInNames.joined(separator: ", "))"
        }
    }

}
