import PressureLab

/// Errors of the harness: what failed and where.
public enum HarnessError: Error, Equatable, CustomStringConvertible {
    /// An output file could not be created or written.
    case cannotWrite(path: String, reason: String)
    /// An input file (other than a scenario or a profile) could not be read or understood.
    case cannotRead(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason): return "\(path): cannot write: \(reason)"
        case .cannotRead(let path, let reason): return "\(path): cannot read: \(reason)"
        }
    }
}
