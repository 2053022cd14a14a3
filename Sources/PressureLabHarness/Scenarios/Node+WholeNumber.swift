import Yams

/// YAML scalars read as whole numbers.
extension Node {
    /// The scalar as a whole number, as Yams reads YAML 1.1 integers (decimal, `0x`, `0o`,
    /// `0b`, `_` separators), except base-60 (`1:30`): Yams multiplies its digits without
    /// checking for overflow, so `200000:000000100000000000020` would trap the process. Every
    /// reader of the tool's files takes whole numbers here, never from `Node.int`.
    public var wholeNumber: Int? {
        guard let scalar, !scalar.string.contains(":") else { return nil }
        return int
    }
}
