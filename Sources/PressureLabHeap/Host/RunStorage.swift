import Foundation
import SystemPackage

/// Where a run's own files go (view descriptions, model files, archives, freezer files, a
/// device's swap file): a memory file system (tmpfs) when the host has one with room, else the disk
/// (`$TMPDIR`), so that a disk file system's metadata work does not dominate a run. Clean
/// mapped files never go there: they stay on disk, where their pages can be dropped.
///
/// The rule (docs/formats.md, "Storage"):
/// - `PRESSURELAB_STORAGE=disk` or `tmpfs` asks for one; `auto` (or unset) chooses. An
///   explicitly set `$TMPDIR` with `PRESSURELAB_STORAGE` unset asks for the disk: the user
///   pointed the temporary files somewhere.
/// - `auto` takes the first tmpfs candidate (`$XDG_RUNTIME_DIR`, then `/dev/shm`) that is a
///   tmpfs with at least ``StorageNeed/bytes`` free (by `statvfs`, not by existence: a
///   container's `/dev/shm` may hold 64 MiB), and only when those bytes still fit what the
///   host allows the simulation beside its declared memory (files on tmpfs are memory).
/// - `tmpfs` takes the first candidate that is a tmpfs with room, or fails; `disk` never
///   looks.
public struct RunStorage: Sendable, Equatable {
    /// The kind of file system a run's files live on.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case disk, tmpfs
    }

    /// What the environment asks for.
    public enum Request: String, Sendable, CaseIterable {
        case disk, tmpfs, auto
    }

    /// The kind of file system.
    public var kind: Kind
    /// The directory the per-process parent is made in.
    public var directory: String

    public init(kind: Kind, directory: String) {
        self.kind = kind
        self.directory = directory
    }

    /// A directory that could hold a run's files in memory, as the host reports it.
    public struct Candidate: Sendable, Equatable {
        public var path: String
        public var isTmpfs: Bool
        /// Bytes free there (`statvfs`), nil when it cannot be told.
        public var freeBytes: Int?

        public init(path: String, isTmpfs: Bool, freeBytes: Int?) {
            self.path = path
            self.isTmpfs = isTmpfs
            self.freeBytes = freeBytes
        }
    }

    /// What a run needs of a tmpfs: `bytes` free there, and `bytes` of room left in the
    /// host's allowance for the simulation after its declared worst case (`memoryRoomBytes`).
    public struct StorageNeed: Sendable, Equatable {
        /// The least a tmpfs must have free: 256 MiB, when nothing larger is declared.
        public static let minimumBytes = 256 << 20
        public var bytes: Int
        public var memoryRoomBytes: Int

        public init(bytes: Int, memoryRoomBytes: Int) {
            self.bytes = max(bytes, Self.minimumBytes)
            self.memoryRoomBytes = memoryRoomBytes
        }

        /// Before a scenario is known: the minimum, with the room not limiting.
        public static let minimum = StorageNeed(bytes: 0, memoryRoomBytes: .max)
    }

    /// Why a requested tmpfs cannot be had.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The choice (see the type's rule) from the request, the candidates in order of
    /// preference, the disk directory and the run's need. Pure: tests inject the figures.
    public static func choose(request: Request, candidates: [Candidate], disk: String,
                              need: StorageNeed) throws(Refusal) -> RunStorage {
        guard request != .disk else { return RunStorage(kind: .disk, directory: disk) }
        let fits = need.bytes <= need.memoryRoomBytes
        let roomy = candidates.first { $0.isTmpfs && ($0.freeBytes ?? 0) >= need.bytes }
        if fits, let roomy { return RunStorage(kind: .tmpfs, directory: roomy.path) }
        guard request == .tmpfs else { return RunStorage(kind: .disk, directory: disk) }
        let looked = candidates.map { "\($0.path) (\($0.isTmpfs ? "tmpfs, \($0.freeBytes ?? 0) bytes free" : "not tmpfs"))" }
        throw Refusal(description: !fits
            ? "PRESSURELAB_STORAGE=tmpfs: the run's files (\(need.bytes) bytes) would be memory beyond what this host "
                + "allows the simulation (\(max(0, need.memoryRoomBytes)) bytes left beside its declared memory)"
            : "PRESSURELAB_STORAGE=tmpfs: no tmpfs with \(need.bytes) bytes free; looked at "
                + (looked.isEmpty ? "none" : looked.joined(separator: ", ")))
    }

    /// The request in an environment: `PRESSURELAB_STORAGE`, else disk when `TMPDIR` is set,
    /// else auto. An unknown value is a refusal.
    public static func request(in environment: [String: String]) throws(Refusal) -> Request {
        guard let value = environment["PRESSURELAB_STORAGE"], !value.isEmpty else {
            return (environment["TMPDIR"]?.isEmpty ?? true) ? .auto : .disk
        }
        guard let request = Request(rawValue: value) else {
            throw Refusal(description: "PRESSURELAB_STORAGE='\(value)': expected disk, tmpfs or auto")
        }
        return request
    }

    /// The tmpfs candidates of an environment, in order of preference: `$XDG_RUNTIME_DIR`
    /// (when set to an absolute path), then `/dev/shm`.
    public static func candidatePaths(in environment: [String: String]) -> [String] {
        var paths: [String] = []
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            var path = runtime
            while path.count > 1, path.hasSuffix("/") { path.removeLast() }
            paths.append(path)
        }
        if !paths.contains("/dev/shm") { paths.append("/dev/shm") }
        return paths
    }

    /// The candidates as this host reports them (existing directories only).
    public static func currentCandidates(in environment: [String: String]) -> [Candidate] {
        candidatePaths(in: environment).compactMap { path in
            guard let info = HostFiles.statusIfPresent(FilePath(path)), info.type == .directory else { return nil }
            return Candidate(path: path, isTmpfs: CleanMapping.isOnTmpfs(FilePath(path)),
                             freeBytes: HostFiles.freeBytes(at: FilePath(path)))
        }
    }
}
