/// An output that could not be written: which file, what it held, and the system's reason.
public struct OutputFailure: Error, Equatable, CustomStringConvertible {
    /// The path as given.
    public let path: String
    /// What the file holds ("the trace", "the results").
    public let what: String
    /// Why (the `errno` text, "No space left on device").
    public let reason: String

    /// Creates a failure.
    public init(path: String, what: String, reason: String) {
        self.path = path
        self.what = what
        self.reason = reason
    }

    /// `PATH: cannot write WHAT: REASON`.
    public var description: String { "\(path): cannot write \(what): \(reason)" }
}
