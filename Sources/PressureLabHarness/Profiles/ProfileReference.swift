import SystemPackage

/// A device profile as a command, a plan or a scenario names it: a bundled profile by
/// name (`pixel-3-2018`), or a profile file by path (anything with a `/` or ending in
/// `.yaml`/`.yml`).
public enum ProfileReference: Hashable, Sendable, CustomStringConvertible {
    /// A bundled profile (`profiles/NAME.yaml` in the library the tool carries).
    case bundled(String)
    /// A profile file.
    case file(String)

    /// The default profile (``ProfileLibrary/defaultName``).
    public static let `default` = ProfileReference.bundled(ProfileLibrary.defaultName)

    /// Reads an argument: a path when it has a `/` or a YAML extension, else a bundled name.
    public init(_ argument: String) {
        if argument.contains("/") || argument.hasSuffix(".yaml") || argument.hasSuffix(".yml") {
            self = .file(argument)
        } else {
            self = .bundled(argument)
        }
    }

    /// A profile file's relative path read against `directory` (the folder of the file that
    /// names it: a scenario, a sweep file); a bundled name, or an absolute path, as it is.
    /// The result is lexically normal: `./p.yaml` against `.` is `p.yaml`, against `dir` it is
    /// `dir/p.yaml`, never `././p.yaml`.
    public func resolved(against directory: String) -> ProfileReference {
        guard case .file(let path) = self, !path.hasPrefix("/") else { return self }
        let base = directory.isEmpty || directory == "." ? FilePath(path) : FilePath(directory).appending(FilePath(path).components)
        let normal = base.lexicallyNormalized()
        return .file(normal.isEmpty ? path : normal.string)
    }

    /// The name or path, as given.
    public var description: String {
        switch self {
        case .bundled(let name): return name
        case .file(let path): return path
        }
    }
}
