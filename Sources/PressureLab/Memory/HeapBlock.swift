import PressureLabHeap
import SystemPackage

/// A block of real heap memory that is written when it is allocated, so it is resident.
///
/// Caches, models, user data and backing stores are heap blocks; a large block is held in
/// pieces of exact size classes, so it measures its size (docs/limits.md, "Measured against
/// declared"), and is paged out and checksummed piece by piece. The block is freed when
/// the object goes away. Its contents are a deterministic pattern, so a checksum tells
/// whether the bytes survived a round trip (for example through a freeze and thaw).
public final class HeapBlock {
    /// Heap bytes of the block object itself (header, size, pointer), x86-64.
    public static let objectBytes = 32

    /// The block's size in bytes.
    public let count: Int
    private var memory: RawMemory?

    /// Allocates `count` bytes and writes `pattern` to every one of them; nil when `gate`
    /// refuses them or the host has no memory (recorded in the gate, when there is one).
    ///
    /// - Complexity: O(`count`).
    /// - Parameters:
    ///   - count: the block's size in bytes.
    ///   - pattern: the byte written everywhere when there is no `fill`.
    ///   - gate: the owner's memory gate; nil: admitted unchecked.
    ///   - fill: realistic contents (seeded, compressing to a declared ratio) instead
    ///     of the constant `pattern`.
    public init?(count: Int, pattern: UInt8, gate: MemoryGate? = nil, fill: ContentFill? = nil) {
        precondition(count >= 0, "a heap block cannot have a negative size (\(count))")
        guard gate?.admit(count) ?? true else { return nil }
        let memory = RawMemory.allocate(count, filledBy: fill, pattern: pattern, salt: UInt64(pattern))
        guard count == 0 || memory != nil else {
            HeapBlock.noteHostFailure(bytes: count, gate: gate)
            return nil
        }
        self.count = count
        self.memory = memory
    }

    /// Copies `bytes` into a new block; nil when refused or the host has no memory.
    public init?(copying bytes: UnsafeRawBufferPointer, gate: MemoryGate? = nil) {
        guard gate?.admit(bytes.count) ?? true else { return nil }
        let memory = RawMemory.allocate(bytes.count)
        guard bytes.isEmpty || memory != nil else {
            HeapBlock.noteHostFailure(bytes: bytes.count, gate: gate)
            return nil
        }
        count = bytes.count
        self.memory = memory
        guard let memory else { return }
        var offset = 0
        for piece in memory.pieces(count: count) {
            piece.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + piece.count)]))
            offset += piece.count
        }
    }

    /// Records a failure of the host's allocator in `gate` (the device ends the step on it).
    /// Without a gate the caller sees nil and says what it could not do.
    static func noteHostFailure(bytes: Int, gate: MemoryGate?) {
        gate?.recordHostFailure(bytes: bytes)
    }

    /// Why a file could not be read into a block.
    enum ReadFailure: Error {
        /// The file could not be read (missing, unreadable, shorter than its size).
        case file(FileError)
        /// The memory to read it into was refused (the app's memory gate) or the host had none.
        case refused

        var message: String {
            switch self {
            case .file(let error): return error.isMissing ? "file not found" : error.summary
            case .refused: return "no memory to read the file into"
            }
        }
    }

    /// Reads the file at `path` (its text) into a new block: one `FilePath` for the size and
    /// the read (making one from a `String` normalizes it, about 3,000 instructions).
    convenience init(readingFile path: String, gate: MemoryGate? = nil) throws(ReadFailure) {
        try self.init(readingFile: FilePath(path), gate: gate)
    }

    /// Reads a whole file into a new block (simulated memory when `gate` is given: refused
    /// as ``ReadFailure/refused``).
    init(readingFile filePath: FilePath, gate: MemoryGate? = nil) throws(ReadFailure) {
        let count: Int
        do { count = try HostFiles.size(of: filePath) } catch { throw .file(error) }
        guard gate?.admit(count) ?? true else { throw .refused }
        let memory = RawMemory.allocate(count)
        if count > 0, memory == nil {
            HeapBlock.noteHostFailure(bytes: count, gate: gate)
            throw .refused
        }
        if let memory {
            do {
                try HeapBlock.read(filePath, into: memory, count: count)
            } catch {
                memory.release()
                throw error
            }
        }
        self.count = count
        self.memory = memory
    }

    deinit {
        memory?.release()
    }

    private static func read(_ path: FilePath, into memory: RawMemory, count: Int) throws(ReadFailure) {
        do throws(FileError) { try HostFiles.read(path, into: memory.pieces(count: count)) } catch { throw .file(error) }
    }

    /// Whether the contents are in a freezer file.
    public var isFrozen: Bool { count > 0 && memory == nil }

    func freeze(to file: any PageStore) -> Bool {
        guard !isFrozen else { return true }
        guard PageOut.freeze(memory, count: count, to: file) else { return false }
        memory = nil
        return true
    }

    /// Runs `move` with the block's bytes if they are paged out (they are next in the pool's region).
    func relocateFrozen(_ move: (Int) -> Bool) -> Bool {
        isFrozen ? move(count) : true
    }

    func thaw(from file: any PageStore) -> Bool {
        guard isFrozen else { return true }
        guard let thawed = PageOut.thaw(count: count, from: file) else { return false }
        memory = thawed
        return true
    }

    /// A 64-bit checksum of the contents (word-wise FNV-1a).
    public func checksum() -> UInt64 {
        memory?.checksum(count: count) ?? RawMemory.checksumOfNothing
    }

    /// Read-only access to the bytes, as one buffer: a block held in pieces (a large one, see
    /// `RawMemory/pieces(count:)`) is copied into one array for the call.
    ///
    /// - Complexity: O(1) for a block in one allocation; O(``count``) for one in pieces.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        guard let memory else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        let pieces = memory.pieces(count: count)
        guard pieces.count > 1 else { return try body(UnsafeRawBufferPointer(pieces[0])) }
        let whole = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            for piece in pieces {
                UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[initialized..<(initialized + piece.count)])
                    .copyMemory(from: UnsafeRawBufferPointer(piece))
                initialized += piece.count
            }
        }
        return try whole.withUnsafeBytes(body)
    }
}
