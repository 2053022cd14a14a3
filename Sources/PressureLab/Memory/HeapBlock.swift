#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PressureLabHeap

/// A block of real heap memory that is written when it is allocated, so it is resident.
///
/// Caches, models, user data and backing stores are heap blocks. The block is freed when
/// the object goes away. Its contents are a deterministic pattern, so a checksum tells
/// whether the bytes survived a round trip (for example through a freeze and thaw).
public final class HeapBlock {
    /// Heap bytes of the block object itself (header, size, pointer), x86-64.
    public static let objectBytes = 32

    /// The block's size in bytes.
    public let count: Int
    private var pointer: UnsafeMutableRawPointer?

    /// Allocates `count` bytes and writes `pattern` to every one of them; nil when `gate`
    /// refuses them or the host has no memory (recorded in the gate, or counted in
    /// ``hostAllocationFailures`` without one).
    ///
    /// - Complexity: O(`count`).
    /// - Parameter fill: realistic contents (seeded, compressing to a declared ratio) instead
    ///   of the constant `pattern`.
    public init?(count: Int, pattern: UInt8, gate: MemoryGate? = nil, fill: ContentFill? = nil) {
        precondition(count >= 0, "a heap block cannot have a negative size (\(count))")
        guard gate?.admit(count) ?? true else { return nil }
        let pointer = HeapBlock.allocateFilled(count, fill: fill, pattern: pattern, salt: UInt64(pattern))
        guard count == 0 || pointer != nil else {
            HeapBlock.noteHostFailure(bytes: count, gate: gate)
            return nil
        }
        self.count = count
        self.pointer = pointer
    }

    /// Copies `bytes` into a new block; nil when refused or the host has no memory.
    public init?(copying bytes: UnsafeRawBufferPointer, gate: MemoryGate? = nil) {
        guard gate?.admit(bytes.count) ?? true else { return nil }
        let pointer = bytes.count > 0 ? HeapBlock.allocate(bytes.count) : nil
        guard bytes.isEmpty || pointer != nil else {
            HeapBlock.noteHostFailure(bytes: bytes.count, gate: gate)
            return nil
        }
        count = bytes.count
        self.pointer = pointer
        if let pointer, let source = bytes.baseAddress { memcpy(pointer, source, count) }
    }

    /// Allocations the host refused (`malloc` returned NULL) with no gate to record them in.
    /// A runner checks it after every step: a run that lost an allocation fails.
    nonisolated(unsafe) public private(set) static var hostAllocationFailures = 0

    static func noteHostFailure(bytes: Int, gate: MemoryGate?) {
        if let gate { gate.recordHostFailure(bytes: bytes) } else { hostAllocationFailures += 1 }
    }

    /// Reads a whole file into a new block (simulated memory when `gate` is given: refused
    /// as ``FileIO/Failure/refused``).
    init(readingFile path: String, gate: MemoryGate? = nil) throws(FileIO.Failure) {
        let count = try FileIO.size(of: path)
        guard gate?.admit(count) ?? true else { throw .refused }
        let pointer = count > 0 ? HeapBlock.allocate(count) : nil
        if count > 0, pointer == nil {
            HeapBlock.noteHostFailure(bytes: count, gate: gate)
            throw .refused
        }
        do {
            try FileIO.read(path, into: UnsafeMutableRawBufferPointer(start: pointer, count: count))
        } catch {
            free(pointer)
            throw error
        }
        self.count = count
        self.pointer = pointer
    }

    deinit {
        free(pointer)
    }

    /// Whether the contents are in a freezer file.
    public var isFrozen: Bool { count > 0 && pointer == nil }

    func freeze(to file: any PageStore) -> Bool {
        guard !isFrozen else { return true }
        guard PageOut.freeze(pointer, count: count, to: file) else { return false }
        pointer = nil
        return true
    }

    func thaw(from file: any PageStore) -> Bool {
        guard isFrozen else { return true }
        guard let thawed = PageOut.thaw(count: count, from: file) else { return false }
        pointer = thawed
        return true
    }

    /// A 64-bit checksum of the contents (word-wise FNV-1a).
    public func checksum() -> UInt64 {
        HeapBlock.checksum(UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
    }

    /// Read-only access to the bytes.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
    }

    /// `malloc(count)`; nil when the host has no memory (never a trap).
    static func allocate(_ count: Int) -> UnsafeMutableRawPointer? {
        malloc(count)
    }

    /// Allocates and writes every byte; nil for zero bytes or when the host has no memory.
    @inline(__always)
    static func allocateTouched(_ count: Int, pattern: UInt8) -> UnsafeMutableRawPointer? {
        guard count > 0, let pointer = allocate(count) else { return nil }
        memset(pointer, Int32(pattern), count)
        return pointer
    }

    /// Allocates and writes every byte, with `fill`'s realistic contents when given (varied
    /// by `salt`), else `pattern`; nil for zero bytes or when the host has no memory.
    @inline(__always)
    static func allocateFilled(_ count: Int, fill: ContentFill?, pattern: UInt8, salt: UInt64) -> UnsafeMutableRawPointer? {
        guard let fill else { return allocateTouched(count, pattern: pattern) }
        guard count > 0, let pointer = allocate(count) else { return nil }
        fill.fill(UnsafeMutableRawBufferPointer(start: pointer, count: count), salt: salt)
        return pointer
    }

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let prime: UInt64 = 0x100_0000_01b3
        let words = bytes.count / 8
        for index in 0..<words {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) &* prime
        }
        for index in (words * 8)..<bytes.count {
            hash = (hash ^ UInt64(bytes[index])) &* prime
        }
        return hash ^ UInt64(bytes.count)
    }
}
