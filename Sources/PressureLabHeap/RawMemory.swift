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
/// did: measured byte counts do not change. The owner knows the size and passes it; the
/// owner frees it exactly once (``release()``).
@frozen
public struct RawMemory {
    @usableFromInline let base: UnsafeMutableRawPointer

    @inlinable init(base: UnsafeMutableRawPointer) { self.base = base }

    /// `count` bytes, not written; nil for 0 bytes or when the host has no memory (never a trap).
    @inlinable
    public static func allocate(_ count: Int) -> RawMemory? {
        guard count > 0, let base = malloc(count) else { return nil }
        return RawMemory(base: base)
    }

    /// `count` bytes, every one written with `pattern` (so resident); nil for 0 bytes or when
    /// the host has no memory.
    @inlinable
    public static func allocate(_ count: Int, touchedWith pattern: UInt8) -> RawMemory? {
        guard let memory = allocate(count) else { return nil }
        memset(memory.base, Int32(pattern), count)
        return memory
    }

    /// `count` bytes written with `fill`'s realistic contents (varied by `salt`) when given,
    /// else with `pattern`; nil for 0 bytes or when the host has no memory.
    @inlinable
    public static func allocate(_ count: Int, filledBy fill: ContentFill?, pattern: UInt8, salt: UInt64) -> RawMemory? {
        guard let fill else { return allocate(count, touchedWith: pattern) }
        guard let memory = allocate(count) else { return nil }
        fill.fill(UnsafeMutableRawBufferPointer(start: memory.base, count: count), salt: salt)
        return memory
    }

    /// Frees the allocation. The handle must not be used again.
    @inlinable
    public func release() { free(base) }

    /// Writes `pattern` to the first `count` bytes.
    @inlinable
    public func fill(count: Int, pattern: UInt8) { memset(base, Int32(pattern), count) }

    /// Writes `fill`'s contents (varied by `salt`) to the first `count` bytes.
    @inlinable
    public func fill(count: Int, with fill: ContentFill, salt: UInt64) {
        fill.fill(UnsafeMutableRawBufferPointer(start: base, count: count), salt: salt)
    }

    /// A 64-bit checksum of the first `count` bytes (word-wise FNV-1a).
    public func checksum(count: Int) -> UInt64 {
        RawMemory.checksum(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// The checksum of no bytes (memory that is not held).
    public static let checksumOfNothing = checksum(UnsafeRawBufferPointer(start: nil, count: 0))

    /// A 64-bit checksum of `bytes` (word-wise FNV-1a, the byte count mixed in last).
    public static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
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

    /// Read access to the first `count` bytes (to write them out or compress them).
    @inlinable
    public func withBytes<Result>(count: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Write access to the first `count` bytes (to read them in or decompress into them).
    @inlinable
    public func withMutableBytes<Result>(count: Int, _ body: (UnsafeMutableRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeMutableRawBufferPointer(start: base, count: count))
    }
}
