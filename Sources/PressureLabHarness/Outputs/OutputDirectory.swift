import PressureLabHeap
import SystemPackage

/// Directories that outputs go into.
package enum OutputDirectory {
    /// Creates `path` and any missing parents (`mkdir -p`); an existing directory is fine.
    /// Throws `.cannotWrite(path:reason:)` naming the component that failed and the
    /// system's reason ("Not a directory" when a component is a file).
    package static func create(_ path: String) throws(HarnessError) {
        do {
            try HostFiles.makeDirectories(FilePath(path))
        } catch {
            throw .cannotWrite(path: error.path.string, reason: error.reason)
        }
    }
}
