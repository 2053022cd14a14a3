#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// An exclusive advisory lock (`flock`) on an existing file, for a read-modify-write of it by
/// several processes at once (two `import --merge` into one scenario): the second waits for the
/// first, then reads what the first wrote. A file replaced by a rename while a process waited
/// (an atomic write makes a new file) is locked again at its path, so the holder always holds
/// the file that is there.
public final class FileLock {
    /// The locked file's path.
    public let path: FilePath
    private var descriptor: FileDescriptor?

    /// Waits for and takes the lock on the file at `path` (which must exist).
    public init(exclusive path: FilePath) throws(FileError) {
        self.path = path
        while true {
            let descriptor: FileDescriptor
            do {
                descriptor = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec, .nonBlocking], retryOnInterrupt: true)
            } catch {
                throw FileError(.open, path, (error as? Errno) ?? .ioError)
            }
            var result: Int32
            repeat { result = flock(descriptor.rawValue, LOCK_EX) } while result != 0 && errno == EINTR
            guard result == 0 else {
                let failure = Errno.current
                try? descriptor.close()
                throw FileError(.lock, path, failure)
            }
            // Still the file at the path? (Replaced while we waited: lock the new one.)
            var held = stat(), current = stat()
            let same = fstat(descriptor.rawValue, &held) == 0
                && path.withPlatformString { stat($0, &current) } == 0
                && held.st_dev == current.st_dev && held.st_ino == current.st_ino
            if same {
                self.descriptor = descriptor
                return
            }
            try? descriptor.close()
        }
    }

    /// Gives the lock up (also when the lock is released).
    public func unlock() {
        guard let descriptor else { return }
        try? descriptor.close()
        self.descriptor = nil
    }

    deinit { unlock() }
}
