#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Directories that outputs go into.
public enum OutputDirectory {
    /// Creates `path` and any missing parents (`mkdir -p`); an existing directory is fine.
    /// Throws `.cannotWrite(path:reason:)` naming the component that failed and the
    /// system's reason ("Not a directory" when a component is a file).
    public static func create(_ path: String) throws(HarnessError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            if !prefix.isEmpty, !prefix.hasSuffix("/") { prefix += "/" }
            prefix += component
            guard mkdir(prefix, 0o777) != 0 else { continue }
            let code = errno
            var info = stat()
            guard code == EEXIST else { throw .cannotWrite(path: prefix, reason: HarnessError.systemMessage(code)) }
            guard stat(prefix, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                throw .cannotWrite(path: prefix, reason: HarnessError.systemMessage(ENOTDIR))
            }
        }
    }
}
