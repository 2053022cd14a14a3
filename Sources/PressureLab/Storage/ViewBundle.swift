import PressureLabHeap
import SystemPackage

/// A per-run directory of view description files and model files: the app's bundle.
///
/// `loadView` reads a screen's description from here and a model reload reads the
/// model file, so reloads cost the real I/O and decoding they would on a device.
///
/// Not `Sendable`: a bundle is one run's, used by that run's thread (its file tables are
/// plain dictionaries).
public final class ViewBundle {
    /// The directory holding the files.
    public let directory: String
    private let removesOnDeinit: Bool

    /// Uses an existing directory (created if missing); it is left in place afterwards.
    public init(directory: String) throws(RuntimeError) {
        self.directory = directory
        self.removesOnDeinit = false
        try ViewBundle.makeDirectory(directory)
    }

    /// Creates a fresh, unique directory `<prefix>-bundle-XXXXXX` under this process's
    /// temporary parent directory in the run storage (`<dir>/pressurelab-<pid>-XXXXXX/`, a
    /// tmpfs when the host has one with room, else `$TMPDIR`: see `TemporaryFiles` and
    /// docs/formats.md, "Storage"), removed with the bundle, at exit, at SIGINT or SIGTERM in the
    /// command-line tool, or by the next run's sweep after a crash.
    public init(temporaryWithPrefix prefix: String = "pressurelab") throws(RuntimeError) {
        do {
            self.directory = try TemporaryFiles.makeDirectory(prefix: "\(prefix)-bundle")
        } catch {
            throw .bundle(path: error.path.string, reason: "cannot create a temporary directory: \(error.reason)")
        }
        self.removesOnDeinit = true
    }

    deinit {
        if removesOnDeinit { TemporaryFiles.removeTree(directory) }
    }

    /// The path of a screen's view description file.
    public func descriptionPath(for screen: String) -> String { "\(directory)/\(screen).plview" }

    /// The path of a screen's model file.
    public func modelPath(for screen: String) -> String { "\(directory)/\(screen).model" }

    /// Writes a view description atomically.
    public func write(_ description: ViewDescription, for screen: String) throws(RuntimeError) {
        let path = descriptionPath(for: screen)
        let bytes = ViewDescriptionCodec.encode(description)
        try Self.writeScratch(path) { write in bytes.withUnsafeBytes(write) }
        descriptionFiles[screen] = FilePath(path)
    }

    /// Reads and decodes a screen's view description.
    public func readDescription(for screen: String) throws(ViewDescriptionError) -> ViewDescription {
        if let file = descriptionFiles[screen] {
            return try ViewDescriptionCodec.read(file: file, path: descriptionPath(for: screen))
        }
        return try ViewDescriptionCodec.read(path: descriptionPath(for: screen))
    }

    /// The description files written, by screen: a view load reads its file without making its
    /// path again (a `FilePath` made from a `String` is normalized character by character,
    /// about 3,000 instructions, at every load).
    private var descriptionFiles: [String: FilePath] = [:]

    /// Writes a model file of `bytes` bytes (a deterministic pattern) atomically.
    public func writeModel(bytes: Int, for screen: String, fill: ContentFill? = nil) throws(RuntimeError) {
        let path = modelPath(for: screen)
        let pattern = ModelPattern.byte(for: screen)
        // Streamed a chunk at a time (a whole number of the fill's pages), never held whole: a
        // model of gigabytes takes one chunk of memory to write.
        let pageBytes = fill?.pageBytes ?? 4096
        let chunkBytes = max(pageBytes, Self.modelChunkBytes / pageBytes * pageBytes)
        var buffer = [UInt8](repeating: 0, count: min(bytes, chunkBytes))
        let failure: FileError? = buffer.withUnsafeMutableBytes { chunk in
            do throws(FileError) {
                let file = try AtomicFile(replacing: FilePath(path))
                var offset = 0
                while offset < bytes {
                    let length = min(chunk.count, bytes - offset)
                    let part = UnsafeMutableRawBufferPointer(rebasing: chunk[0..<length])
                    if let fill {
                        fill.fill(part, salt: UInt64(pattern), firstPage: offset / pageBytes)
                    } else if offset == 0 {
                        part.initializeMemory(as: UInt8.self, repeating: pattern)
                    }
                    file.write(UnsafeRawBufferPointer(part))
                    offset += length
                }
                try file.commit(durable: false)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw .bundle(path: path, reason: failure.summary) }
        pendingModels[screen] = nil
    }

    /// The bytes a model file is written in at a time.
    static let modelChunkBytes = 1 << 20

    /// Declares a screen's model without writing it: its file is written (streamed) when the
    /// model is first read, so a screen the script never shows costs no disk and no memory.
    public func declareModel(bytes: Int, for screen: String, fill: ContentFill? = nil) {
        pendingModels[screen] = (bytes, fill)
    }

    /// Gives every model declared and not written yet `fill` as its contents.
    func refillPendingModels(_ fill: ContentFill?) {
        for screen in pendingModels.keys { pendingModels[screen]?.fill = fill }
    }

    /// Writes the screen's model file if it was declared and not written yet (before a timed
    /// read, so that the write is not counted as the read).
    public func writePendingModel(for screen: String) throws(RuntimeError) {
        if let pending = pendingModels[screen] { try writeModel(bytes: pending.bytes, for: screen, fill: pending.fill) }
    }

    /// Models declared and not yet written, by screen (a bundle is used by one run's thread).
    private var pendingModels: [String: (bytes: Int, fill: ContentFill?)] = [:]

    /// Writes a scratch file of the bundle atomically, without flushing it to the device:
    /// every run rewrites them, so a crash loses nothing worth keeping.
    private static func writeScratch(_ path: String, _ withBytes: ((UnsafeRawBufferPointer) -> FileError?) -> FileError?) throws(RuntimeError) {
        let failure = withBytes { bytes in
            do throws(FileError) {
                try HostFiles.writeAtomically(FilePath(path), bytes, durable: false)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw .bundle(path: path, reason: failure.summary) }
    }

    /// Reads a screen's model file into a new heap block, admitted by `gate`.
    public func readModel(for screen: String, gate: MemoryGate? = nil) throws(RuntimeError) -> HeapBlock {
        if let pending = pendingModels[screen] { try writeModel(bytes: pending.bytes, for: screen, fill: pending.fill) }
        let path = modelPath(for: screen)
        do {
            return try HeapBlock(readingFile: path, gate: gate)
        } catch .refused {
            throw .memoryRefused(app: screen, gate?.refusal ?? .hostAllocationFailed(bytes: (try? HostFiles.size(of: FilePath(path))) ?? 0))
        } catch {
            throw .bundle(path: path, reason: error.message)
        }
    }

    private static func makeDirectory(_ path: String) throws(RuntimeError) {
        do {
            try HostFiles.makeDirectories(FilePath(path))
        } catch {
            throw .bundle(path: path, reason: "cannot create the bundle directory: \(error)")
        }
    }
}

/// The byte a screen's model file is filled with (stable across runs).
enum ModelPattern {
    static func byte(for screen: String) -> UInt8 {
        var hash: UInt8 = 0x6D
        for unit in screen.utf8 { hash = hash &* 31 &+ unit }
        return hash
    }
}
