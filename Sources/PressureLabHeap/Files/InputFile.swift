#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// A file read as input (a scenario, a profile, a sweep, a trace, ...): a regular file of at
/// most a given size, checked on the open descriptor before anything is read. A FIFO, a
/// device, a directory or a socket is refused at once (the open does not wait for a FIFO's
/// writer); a file over the size is refused before it is read, and one that grows past it
/// while being read stops at the size.
public enum InputFile {
    /// Why an input file was refused.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// It could not be opened, inspected or read.
        case unreadable(FileError)
        /// It is not a regular file (the kind it is: "a FIFO", "a directory", ...).
        case notRegular(String)
        /// It holds more than `maximum` bytes (`bytes`, or more while it grew).
        case tooLarge(bytes: Int, maximum: Int)

        /// The reason, without the path: "not a regular file (a FIFO)".
        public var description: String {
            switch self {
            case .unreadable(let error): return error.isMissing ? "no such file" : error.summary
            case .notRegular(let kind): return "not a regular file (\(kind))"
            case .tooLarge(let bytes, let maximum): return "the file has \(bytes) bytes, more than the \(maximum) it may have"
            }
        }
    }

    /// Opens `path` for reading after checking that it is a regular file of at most
    /// `maximumBytes`; returns the open file and its size.
    public static func open(_ path: FilePath, maximumBytes: Int) throws(Problem) -> (file: SequentialFile, bytes: Int) {
        let file: SequentialFile
        do { file = try SequentialFile(readingInput: path) } catch { throw .unreadable(error) }
        let status: Stat
        do { status = try file.status() } catch {
            file.close()
            throw .unreadable(error)
        }
        guard status.type == .regular else {
            file.close()
            throw .notRegular(Self.kind(status.type))
        }
        let bytes = Int(status.size)
        guard bytes <= maximumBytes else {
            file.close()
            throw .tooLarge(bytes: bytes, maximum: maximumBytes)
        }
        return (file, bytes)
    }

    /// The whole contents of a regular file of at most `maximumBytes` (see ``InputFile``).
    public static func contents(of path: FilePath, maximumBytes: Int) throws(Problem) -> [UInt8] {
        let (file, size) = try open(path, maximumBytes: maximumBytes)
        defer { file.close() }
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var count = 0
        while true {
            if count == bytes.count {
                // It grew while being read: read on (in chunks) up to the limit, not past it.
                guard bytes.count <= maximumBytes else { throw .tooLarge(bytes: bytes.count, maximum: maximumBytes) }
                bytes += [UInt8](repeating: 0, count: min(1 << 16, maximumBytes + 1 - bytes.count))
            }
            var failure: FileError?
            let got = bytes.withUnsafeMutableBytes { buffer in
                do throws(FileError) {
                    return try file.readSome(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
                } catch {
                    failure = error
                    return 0
                }
            }
            if let failure { throw .unreadable(failure) }
            if got == 0 { break }
            count += got
        }
        guard count <= maximumBytes else { throw .tooLarge(bytes: count, maximum: maximumBytes) }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    static func kind(_ type: FileType) -> String {
        switch type {
        case .directory: return "a directory"
        case .fifo: return "a FIFO"
        case .characterSpecial: return "a character device"
        case .blockSpecial: return "a block device"
        case .socket: return "a socket"
        case .symbolicLink: return "a symbolic link"
        default: return "not a file"
        }
    }
}

extension SequentialFile {
    /// Opens an existing `path` for reading without waiting (a FIFO with no writer opens at
    /// once), so that its type can be checked before any read.
    public convenience init(readingInput path: FilePath) throws(FileError) {
        try self.init(reading: path, options: [.closeOnExec, .nonBlocking, FileDescriptor.OpenOptions(rawValue: O_NOCTTY)])
    }
}
