#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A large block held as several allocations, so that what jemalloc holds is the size asked
/// for (docs/limits.md, "Measured against declared").
///
/// jemalloc rounds a request up to its size class, four a doubling: one allocation of 57.3 MiB
/// holds 64 MiB (+11.7%), one of 1 MiB + 1 byte holds 1.25 MiB (+25%). A block of at least
/// ``pieceMinimum`` bytes that one allocation would round up by more than 1% is split instead,
/// greedily, into exact size classes (each the largest class that fits what is left, checked
/// with jemalloc's own `nallocx`) until less than 1% of the block is left, which is the last
/// piece: what is held is then within about 0.3% of the block, in at most a handful of
/// pieces. The handle then points at a small table of the pieces (its address tagged with
/// its lowest bit), which is allocated and measured with them.
///
/// Smaller blocks, and blocks that round by 1% or less, stay one allocation: their handle is
/// the allocation's address, and nothing is added to their path but one comparison.
extension RawMemory {
    /// Blocks from this size up may be held in pieces: jemalloc's large size classes start at
    /// 16 KiB (4 KiB pages); below, a block is one small allocation in its class.
    @inlinable public static var pieceMinimum: Int { 16 << 10 }

    /// The most pieces a block is split into (five suffice: every piece but the last leaves
    /// less than a quarter of what was left, and the split stops under 1%).
    static var maximumPieces: Int { 8 }

    /// The sizes of the allocations a block of `count` bytes is held in, in order; one size
    /// (`count`) when it is one allocation.
    ///
    /// - Complexity: a few `nallocx` calls for a large block; none below ``pieceMinimum``.
    public static func pieceSizes(for count: Int) -> [Int] {
        var sizes: [Int] = []
        let pieces = split(count) { sizes.append($0) }
        return pieces > 1 ? sizes : [count]
    }

    /// Calls `body` with the size of each piece of a block of `count` bytes, in order, and
    /// gives their number; 1 without calling `body` when the block is one allocation. No
    /// allocation of its own.
    @discardableResult
    static func split(_ count: Int, _ body: (Int) -> Void) -> Int {
        guard count >= pieceMinimum else { return 1 }
        let slack = count / 100
        guard Mallctl.sizeClass(for: count) - count > slack else { return 1 }
        var pieces = 0
        var left = count
        while left > slack, pieces < maximumPieces - 1, let piece = sizeClass(atMost: left) {
            body(piece)
            pieces += 1
            left -= piece
        }
        if left > 0 {
            body(left)
            pieces += 1
        }
        return pieces
    }

    /// The bytes jemalloc holds for a block of `count` bytes: its size class when it is one
    /// allocation, else its pieces' classes and their table's (what a measurement sees).
    public static func heldBytes(for count: Int) -> Int {
        var held = 0
        let pieces = split(count) { held += Mallctl.sizeClass(for: $0) }
        return pieces > 1 ? held + Mallctl.sizeClass(for: tableBytes(pieces: pieces)) : Mallctl.sizeClass(for: count)
    }

    /// Bytes of the table of a block in `pieces` pieces: their count, then each piece's address and size.
    static func tableBytes(pieces: Int) -> Int { MemoryLayout<Int>.stride * (1 + 2 * pieces) }

    /// The largest size class of at most `size` bytes, or nil when jemalloc does not confirm it.
    /// jemalloc's classes past the 16-byte quantum are four a doubling, `2^k + i * 2^(k-2)`
    /// (`sc.c`); `nallocx` must give back the candidate for it to be a class.
    static func sizeClass(atMost size: Int) -> Int? {
        guard size > 0 else { return nil }
        let rounded = Mallctl.sizeClass(for: size)
        if rounded == size { return size }
        let log2 = Int.bitWidth - 1 - size.leadingZeroBitCount
        let step = max(16, 1 << max(0, log2 - 2))
        let candidate = size / step * step
        return candidate > 0 && Mallctl.sizeClass(for: candidate) == candidate ? candidate : nil
    }

    /// Allocates a block of at least ``pieceMinimum`` bytes: in pieces when one allocation
    /// would round up by more than 1%, else as one. Nil when the host has no memory (what was
    /// allocated of it is freed).
    @usableFromInline
    static func allocateLarge(_ count: Int) -> RawMemory? {
        let pieces = split(count) { _ in }
        guard pieces > 1 else {
            guard let base = malloc(count) else { return nil }
            return RawMemory(base: base)
        }
        guard let table = malloc(tableBytes(pieces: pieces)) else { return nil }
        let stride = MemoryLayout<Int>.stride
        var held = 0
        var failed = false
        table.storeBytes(of: 0, as: Int.self)
        split(count) { size in
            guard !failed, let piece = malloc(size) else {
                failed = true
                return
            }
            table.storeBytes(of: piece, toByteOffset: (1 + 2 * held) * stride, as: UnsafeMutableRawPointer.self)
            table.storeBytes(of: size, toByteOffset: (2 + 2 * held) * stride, as: Int.self)
            held += 1
            table.storeBytes(of: held, as: Int.self)
        }
        let memory = RawMemory(base: table + 1)
        if failed {
            memory.release()
            return nil
        }
        return memory
    }

    /// Whether the handle is a table of pieces (its address tagged) rather than one allocation.
    @inlinable
    var isPieces: Bool { UInt(bitPattern: base) & 1 != 0 }

    /// Frees every piece, then the table.
    @usableFromInline
    func releasePieces() {
        let table = base - 1
        for piece in pieces(count: 0) { free(piece.baseAddress) }
        free(table)
    }

    /// The allocations holding the block's `count` bytes, in order (one for a block in one
    /// allocation: `count` bytes at its address).
    @inlinable
    public func pieces(count: Int) -> Pieces { Pieces(base: base, count: count) }

    /// The allocations of one block, in order: each a buffer of its bytes.
    @frozen
    public struct Pieces: RandomAccessCollection {
        @usableFromInline let base: UnsafeMutableRawPointer
        @usableFromInline let singleCount: Int
        /// 1 for a block in one allocation, else the table's count.
        public let endIndex: Int

        @inlinable
        init(base: UnsafeMutableRawPointer, count: Int) {
            self.base = base
            self.singleCount = count
            endIndex = UInt(bitPattern: base) & 1 == 0 ? 1 : (base - 1).load(as: Int.self)
        }

        /// Always 0.
        @inlinable public var startIndex: Int { 0 }

        /// The piece at `index`.
        @inlinable
        public subscript(index: Int) -> UnsafeMutableRawBufferPointer {
            guard UInt(bitPattern: base) & 1 != 0 else { return UnsafeMutableRawBufferPointer(start: base, count: singleCount) }
            let table = base - 1, stride = MemoryLayout<Int>.stride
            return UnsafeMutableRawBufferPointer(
                start: table.load(fromByteOffset: (1 + 2 * index) * stride, as: UnsafeMutableRawPointer.self),
                count: table.load(fromByteOffset: (2 + 2 * index) * stride, as: Int.self))
        }
    }
}
