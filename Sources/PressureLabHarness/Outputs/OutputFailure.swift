/// An output that could not be written: which file, what it held, and the system's reason.
package struct OutputFailure: Error, Equatable, CustomStringConvertible {
    /// The path as given.
    package let path: String
    /// What the file holds ("the trace", "the results").
    package let what: String
    /// Why (the `errno` text, "No space left on device").
    package let reason: String

    /// Creates a failure.
    package init(path: String, what: String, reason: String) {
        self.path = path
        self.what = what
        self.reason = reason
    }

    /// `PATH: cannot write WHAT: REASON`.
    package var description: String { "\(path): cannot write \(what): \(reason)" }
}
