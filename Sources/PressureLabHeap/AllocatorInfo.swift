/// The allocator a run measured with: its version and the options that change figures.
///
/// Results carry this so that a comparison across allocator configurations can warn.
public struct AllocatorInfo: Sendable, Equatable, Codable {
    /// `"jemalloc"` followed by its version, e.g. `jemalloc 5.3.0`.
    public var name: String
    /// The full version string, e.g. `5.3.0-0-g54eaed1d8b56b1aa528be3bdd1877e59c56fa90c`.
    public var version: String
    /// `opt.*` and `config.*` settings, as text (`"true"`, `"4"`, `"10000"`, `"disabled"`).
    public var options: [String: String]

    static func read() -> AllocatorInfo {
        let version = (try? Mallctl.readString(MallctlName.version)) ?? "unknown"
        let shortVersion = version.split(separator: "-").first.map(String.init) ?? version
        var options: [String: String] = [:]
        for (name, type) in MallctlName.reportedOptions {
            if let value = readOption(name, type) { options[name] = value }
        }
        return AllocatorInfo(name: "jemalloc \(shortVersion)", version: version, options: options)
    }

    private static func readOption(_ name: String, _ type: MallctlValueType) -> String? {
        switch type {
        case .bool: return (try? Mallctl.read(name, as: Bool.self)).map { String($0) }
        case .unsigned: return (try? Mallctl.read(name, as: UInt32.self)).map { String($0) }
        case .size: return (try? Mallctl.read(name, as: Int.self)).map { String($0) }
        case .signedSize: return (try? Mallctl.read(name, as: Int.self)).map { String($0) }
        case .string: return try? Mallctl.readString(name)
        }
    }
}
