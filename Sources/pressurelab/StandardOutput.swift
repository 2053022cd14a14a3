import PressureLabHarness

/// The command's output on standard output (file descriptor 1), written with checked,
/// unbuffered `write(2)` calls instead of `print`: a failure (a full disk, a closed pipe)
/// is reported on standard error ("standard output: No space left on device") and ends
/// the command with exit 1.
enum StandardOutput {
    /// Writes `text` followed by `terminator`.
    static func print(_ text: String = "", terminator: String = "\n") throws {
        let code = Descriptor.writeAll(1, text + terminator)
        guard code == 0 else {
            StandardError.write("pressurelab: standard output: \(Descriptor.errorText(code))\n")
            throw ExitCodes.runFailed
        }
    }
}
