#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One allocation of simulated memory, as a handle: the one door through which PressureLab
/// allocates, writes, checksums, pages out and frees raw bytes. PressureLab holds these,
/// never pointers (after swift-collections' `_UnsafeHandle`: the unsafe operations live in
/// one small type).
///
/// A handle is the address of one `malloc` allocation and nothing else (the size of a
/// pointer, and `Optional<RawMemory>` too), so holding one costs what holding the pointer
/// did: measured byte counts do not change. A large block that one allocation would round up
/// by more than 1% is held in pieces instead (see `RawMemory+Pieces.swift`): the handle is
/// then the address of their table. The owner knows the size and passes it; the owner frees
/// it exactly once (``release()``). Its bytes are reached piece by piece (``pieces(count:)``).
@frozen
public struct RawMemory {
    @usableFromInline let base: UnsafeMutableRawPointer

    @inlinable init(base: UnsafeMutableRawPointer) { self.base = base }

    /// `count` bytes, not written; nil for 0 bytes or when the host has no memory (never a trap).
    @inlinable
    public static func allocate(_ count: Int) -> RawMemory? {
        guard count > 0 else { return nil }
        if count >= pieceMinimum { return allocateLarge(count) }
        guard let base = malloc(count) else { return nil }
        return RawMemory(base: base)
    }

    /// `count` bytes in one allocation whatever their size (so in jemalloc's size class), not
    /// written: a scratch buffer read as one (``withBytes(count:_:)``); nil for 0 bytes or when
    /// the host has no memory.
    @inlinable
    public static func allocateContiguous(_ count: Int) -> RawMemory? {
        guard count > 0, let base = malloc(count) else { return nil }
        return RawMemory(base: base)
    }

    /// `count` bytes, every one written with `pattern` (so resident); nil for 0 bytes or when
    /// the host has no memory.
    @inlinable
    public static func allocate(_ count: Int, touchedWith pattern: UInt8) -> RawMemory? {
        guard let memory = allocate(count) else { return nil }
        memory.fill(count: count, pattern: pattern)
        return memory
    }

    /// `count` bytes in one allocation, every one written with `pattern`: what
    /// ``allocate(_:touchedWith:)`` does for `0 < count <` ``pieceMinimum`` (such a block is
    /// never held in pieces), without its checks. Nil when the host has no memory.
    @inlinable
    public static func allocateSmall(_ count: Int, touchedWith pattern: UInt8) -> RawMemory? {
        guard let base = malloc(count) else { return nil }
        memset(base, Int32(pattern), count)
        return RawMemory(base: base)
    }

    /// `count` bytes written with `fill`'s realistic contents (varied by `salt`) when given,
    /// else with `pattern`; nil for 0 bytes or when the host has no memory.
    @inlinable
    public static func allocate(_ count: Int, filledBy fill: ContentFill?, pattern: UInt8, salt: UInt64) -> RawMemory? {
        guard let fill else { return allocate(count, touchedWith: pattern) }
        guard let memory = allocate(count) else { return nil }
        memory.fill(count: count, with: fill, salt: salt)
        return memory
    }

    /// Frees the allocation. The handle must not be used again.
    @inlinable
    public func release() {
        if isPieces { releasePieces() } else { free(base) }
    }

    /// Writes `pattern` to the `count` bytes.
    @inlinable
    public func fill(count: Int, pattern: UInt8) {
        guard isPieces else {
            memset(base, Int32(pattern), count)
            return
        }
        for piece in pieces(count: count) { memset(piece.baseAddress!, Int32(pattern), piece.count) }
    }

    /// Writes `fill`'s contents (varied by `salt`) to the `count` bytes; a block in pieces is
    /// filled piece by piece, each from a page boundary, so each compresses to the ratio.
    @inlinable
    public func fill(count: Int, with fill: ContentFill, salt: UInt64) {
        guard isPieces else { return fill.fill(UnsafeMutableRawBufferPointer(start: base, count: count), salt: salt) }
        var page = 0
        for piece in pieces(count: count) {
            fill.fill(piece, salt: salt, firstPage: page)
            page += (piece.count + fill.pageBytes - 1) / fill.pageBytes
        }
    }

    /// A 64-bit checksum of the `count` bytes (word-wise FNV-1a): the same whether the block
    /// is one allocation or pieces (every piece but the last is a whole number of words).
    public func checksum(count: Int) -> UInt64 {
        var hash = RawMemory.checksumSeed
        for piece in pieces(count: count) { RawMemory.mix(UnsafeRawBufferPointer(piece), into: &hash) }
        return hash ^ UInt64(count)
    }

    /// The checksum of no bytes (memory that is not held).
    public static let checksumOfNothing = checksum(UnsafeRawBufferPointer(start: nil, count: 0))

    /// A 64-bit checksum of `bytes` (word-wise FNV-1a, the byte count mixed in last).
    public static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash = checksumSeed
        mix(bytes, into: &hash)
        return hash ^ UInt64(bytes.count)
    }

    private static let checksumSeed: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Folds `bytes` into `hash`: word by word, then any bytes after the last whole word.
    private static func mix(_ bytes: UnsafeRawBufferPointer, into hash: inout UInt64) {
        let prime: UInt64 = 0x100_0000_01b3
        let words = bytes.count / 8
        for index in 0..<words {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) &* prime
        }
        for index in (words * 8)..<bytes.count {
            hash = (hash ^ UInt64(bytes[index])) &* prime
        }
    }

    /// Read access to the `count` bytes of a block in one allocation (``pieces(count:)``
    /// reaches any block).
    @inlinable
    public func withBytes<Result>(count: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        precondition(!isPieces, "a block held in pieces is read piece by piece")
        return try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Write access to the `count` bytes of a block in one allocation (``pieces(count:)``
    /// reaches any block).
    @inlinable
    public func withMutableBytes<Result>(count: Int, _ body: (UnsafeMutableRawBufferPointer) throws -> Result) rethrows -> Result {
        precondition(!isPieces, "a block held in pieces is written piece by piece")
        return try body(UnsafeMutableRawBufferPointer(start: base, count: count))
    }
}
