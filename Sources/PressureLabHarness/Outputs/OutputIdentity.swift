import Foundation
import PressureLabHeap
import SystemPackage

/// Which file an output path names, however it is spelled: the path resolved (symbolic
/// links, `.`, `..` and repeated slashes; for a file that does not exist yet, its
/// directory resolved and the name appended), and the device and inode when it exists
/// (which also catches hard links).
///
/// Two outputs on one character device (`/dev/null`, a terminal) do not clash: both are
/// written in place, so neither can replace or lose the other.
package struct OutputIdentity: Equatable, Sendable {
    /// The resolved path.
    package let resolvedPath: String
    /// Device and inode, when the file exists.
    package let fileID: FileID?
    /// True when the path names a character device.
    package let isCharacterDevice: Bool

    /// A file's device and inode numbers.
    package struct FileID: Equatable, Sendable {
        package let device: UInt64
        package let inode: UInt64
    }

    /// Resolves `path` (relative to the working directory).
    package init(path: String) {
        let info = HostFiles.statusIfPresent(FilePath(path))
        fileID = info.map { FileID(device: UInt64($0.deviceID.rawValue), inode: UInt64($0.inode.rawValue)) }
        isCharacterDevice = info?.type == .characterSpecial
        if let resolved = Self.realPath(path) {
            resolvedPath = resolved
            return
        }
        let absolute = URL(fileURLWithPath: path).standardized
        let name = absolute.lastPathComponent
        let directory = absolute.deletingLastPathComponent().path
        if let resolvedDirectory = Self.realPath(directory) {
            resolvedPath = resolvedDirectory == "/" ? "/\(name)" : "\(resolvedDirectory)/\(name)"
        } else {
            resolvedPath = absolute.path
        }
    }

    /// True when both name one file (a character device included).
    package func isSameFile(as other: OutputIdentity) -> Bool {
        if resolvedPath == other.resolvedPath { return true }
        if let fileID, let otherID = other.fileID { return fileID == otherID }
        return false
    }

    /// The first two outputs that name one file other than a character device, as (first
    /// option, second option, path as the second gave it); nil when none do. `outputs`
    /// pairs an option's name with its path; options not given are left out by the caller.
    package static func firstClash(among outputs: [(option: String, path: String)])
        -> (first: String, second: String, path: String)? {
        let identities = outputs.map { OutputIdentity(path: $0.path) }
        for second in outputs.indices {
            for first in outputs.indices where first < second {
                if identities[first].isSameFile(as: identities[second]), !identities[second].isCharacterDevice {
                    return (outputs[first].option, outputs[second].option, outputs[second].path)
                }
            }
        }
        return nil
    }

    static func realPath(_ path: String) -> String? {
        HostFiles.realPath(FilePath(path))?.string
    }
}
