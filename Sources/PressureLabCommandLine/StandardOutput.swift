import PressureLabHarness
import PressureLabHeap
import SystemPackage

/// The command's output on standard output, written with checked, unbuffered writes
/// (the host's door) instead of `print`: a failure (a full disk, a closed pipe) is
/// reported on standard error ("standard output: No space left on device") and ends the
/// command with exit 1.
enum StandardOutput {
    /// Writes `text` followed by `terminator`.
    static func print(_ text: String = "", terminator: String = "\n") throws {
        do {
            try HostFiles.writeAll(.standardOutput, text + terminator)
        } catch {
            StandardError.write("pressurelab: standard output: \(error.description)\n")
            throw ExitCodes.runFailed
        }
    }
}

/// Writes to standard error (a failure there has nowhere to be reported).
enum StandardError {
    static func write(_ text: String) {
        try? HostFiles.writeAll(.standardError, text)
    }
}
