import Foundation
import PressureLabHeap
import SystemPackage

/// What an app saves on entering the background to come back as the user left it:
/// navigation stacks, the selected tab, the modal chain, and user data (its bytes).
///
/// The file is the archive's JSON followed by a line `#checksum <hex>`; it is written
/// atomically (a temporary file, flushed, renamed), so a reader sees a whole archive or
/// the previous one. A truncated or altered file fails its checksum.
public struct RestorationArchive: Codable, Equatable, Sendable {
    /// One controller of the hierarchy.
    public struct Node: Codable, Equatable, Sendable {
        /// `screen`, `navigation` or `tabs`.
        public var kind: String
        /// The screen (plain controllers).
        public var screen: String?
        /// A stack (navigation) or the tabs.
        public var children: [Node]
        /// The selected tab.
        public var selected: Int?
        /// The user data the controller holds, one entry a block.
        public var userData: [Data]
    }

    /// The archive format.
    public var format = 1
    /// The app.
    public var app: String
    /// The root controller.
    public var root: Node
    /// The presented controllers, bottom first.
    public var modals: [Node]

    /// The total bytes of user data saved.
    public var userDataBytes: Int {
        func bytes(_ node: Node) -> Int { node.userData.reduce(0) { $0 + $1.count } + node.children.reduce(0) { $0 + bytes($1) } }
        return bytes(root) + modals.reduce(0) { $0 + bytes($1) }
    }

    package static let checksumPrefix = "#checksum "

    /// The archive's JSON as `JSONEncoder` with `.sortedKeys` writes it (the reference for
    /// ``directJSON()``, which writes the same bytes without building the encoder's tree).
    func encoderJSON() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(self))
    }

    /// The file's bytes.
    func encoded() throws -> [UInt8] {
        var data = try directJSON() ?? encoderJSON()
        let checksum = data.withUnsafeBytes { RawMemory.checksum($0) }
        data.append(contentsOf: "\n\(Self.checksumPrefix)\(String(checksum, radix: 16))\n".utf8)
        return data
    }

    /// Writes the archive atomically.
    public func write(to path: String) throws(RestorationError) {
        let data: [UInt8]
        do {
            data = try encoded()
        } catch {
            throw .unwritable(path: path, reason: "cannot encode the archive: \(error)")
        }
        let failure = data.withUnsafeBytes { bytes -> FileError? in
            do throws(FileError) {
                try HostFiles.writeAtomically(FilePath(path), bytes)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw .unwritable(path: path, reason: failure.summary) }
    }

    /// Reads and checks an archive; nil when there is none.
    public static func read(from path: String) throws(RestorationError) -> RestorationArchive? {
        let data: Data
        do {
            let block = try HeapBlock(readingFile: path)
            data = block.withUnsafeBytes { Data($0) }
        } catch .file(let error) where error.isMissing {
            return nil
        } catch {
            throw .corrupt(path: path, reason: error.message)
        }
        return try decode(data, path: path)
    }

    package static func decode(_ data: Data, path: String) throws(RestorationError) -> RestorationArchive {
        guard let newline = data.dropLast().lastIndex(of: UInt8(ascii: "\n")) else {
            throw .corrupt(path: path, reason: "no checksum line: the file is truncated")
        }
        let body = data[data.startIndex..<newline]
        let trailer = String(decoding: data[(newline + 1)...], as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard trailer.hasPrefix(checksumPrefix), let expected = UInt64(trailer.dropFirst(checksumPrefix.count), radix: 16)
        else {
            throw .corrupt(path: path, reason: "no checksum line: the file is truncated")
        }
        let actual = body.withUnsafeBytes { RawMemory.checksum($0) }
        guard actual == expected else {
            throw .corrupt(path: path, reason: "checksum mismatch: the archive was altered or damaged")
        }
        do {
            let archive = try JSONDecoder().decode(RestorationArchive.self, from: Data(body))
            guard archive.format == 1 else {
                throw RestorationError.corrupt(path: path, reason: "archive format \(archive.format); this build reads format 1")
            }
            return archive
        } catch let error as RestorationError {
            throw error
        } catch {
            throw .corrupt(path: path, reason: "cannot decode the archive: \(error)")
        }
    }
}

/// Why an archive could not be written or used.
public enum RestorationError: Error, Equatable, CustomStringConvertible {
    /// The archive at `path` could not be written, for `reason`.
    case unwritable(path: String, reason: String)
    /// The archive at `path` does not decode, for `reason`.
    case corrupt(path: String, reason: String)
    /// The archive names a screen the app does not have, or an impossible shape.
    case mismatch(path: String, reason: String)

    public var description: String {
        switch self {
        case .unwritable(let path, let reason): return "\(path): cannot save the restoration archive: \(reason)"
        case .corrupt(let path, let reason): return "\(path): restoration archive is unusable: \(reason)"
        case .mismatch(let path, let reason): return "\(path): restoration archive does not fit the app: \(reason)"
        }
    }
}
