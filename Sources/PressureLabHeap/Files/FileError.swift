import SystemPackage

/// What a file operation was doing when it failed.
public enum FileOperation: String, Sendable {
    case open, read, write, close, rename, remove
    case sync = "flush to disk"
    case status = "inspect"
    case createDirectory = "create the directory"
    case changePermissions = "change the permissions of"
    /// Take an advisory lock on (``FileLock``).
    case lock
}

/// A file operation that failed: what it did, to which path, and the system's error
/// (`errno`), kept as it was so that callers can tell a missing file from a full disk.
public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was being done.
    public let operation: FileOperation
    /// The path it was done to.
    public let path: FilePath
    /// The system's error.
    public let errno: Errno

    public init(_ operation: FileOperation, _ path: FilePath, _ errno: Errno) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// True when the file (or a directory on its path) does not exist.
    public var isMissing: Bool { errno == .noSuchFileOrDirectory }

    /// The system's text for the error ("No space left on device").
    public var reason: String { errno.description }

    /// "cannot OPERATION: REASON" (for messages that give the path already).
    public var summary: String { "cannot \(operation.rawValue): \(reason)" }

    /// "PATH: cannot OPERATION: REASON".
    public var description: String { "\(path): cannot \(operation.rawValue): \(reason)" }
}
