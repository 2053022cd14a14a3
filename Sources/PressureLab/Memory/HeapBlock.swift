#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// Allocates `count` bytes and writes `pattern` to every one of them.
    ///
    /// - Complexity: O(`count`).
    public init(count: Int, pattern: UInt8) {
        precondition(count >= 0, "a heap block cannot have a negative size (\(count))")
        self.count = count
        self.pointer = HeapBlock.allocateTouched(count, pattern: pattern)
    }

    /// Copies `bytes` into a new block.
    public init(copying bytes: UnsafeRawBufferPointer) {
        count = bytes.count
        pointer = count > 0 ? HeapBlock.allocate(count) : nil
        if let pointer, let source = bytes.baseAddress { memcpy(pointer, source, count) }
    }

    /// Reads a whole file into a new block.
    init(readingFile path: String) throws(FileIO.Failure) {
        let count = try FileIO.size(of: path)
        let pointer = count > 0 ? HeapBlock.allocate(count) : nil
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

    func freeze(to file: FreezerFile) -> Bool {
        guard !isFrozen else { return true }
        guard PageOut.freeze(pointer, count: count, to: file) else { return false }
        pointer = nil
        return true
    }

    func thaw(from file: FreezerFile) -> Bool {
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

    static func allocate(_ count: Int) -> UnsafeMutableRawPointer {
        guard let pointer = malloc(count) else {
            fatalError("out of memory: malloc(\(count)) returned NULL")
        }
        return pointer
    }

    /// Allocates and writes every byte; nil for zero bytes.
    @inline(__always)
    static func allocateTouched(_ count: Int, pattern: UInt8) -> UnsafeMutableRawPointer? {
        guard count > 0 else { return nil }
        let pointer = allocate(count)
        memset(pointer, Int32(pattern), count)
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
