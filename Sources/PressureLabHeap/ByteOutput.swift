/// Bytes written one after another into a new array's uninitialized capacity, every write
/// checked against that capacity: for encoders that size their output first (a bound) and
/// then write it without growing an array byte by byte.
///
/// The array's memory is lent to the closure of ``bytes(capacity:_:)`` through this value,
/// which cannot be copied out of it; no pointer to it leaves PressureLabHeap
/// (docs/architecture.md, "Unsafe code").
///
/// ```swift
/// let bytes = ByteOutput.bytes(capacity: 2) { out in
///     out.byte(UInt8(ascii: "{"))
///     out.byte(UInt8(ascii: "}"))
/// }
/// ```
package struct ByteOutput: ~Copyable {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// Bytes written so far.
    package private(set) var count = 0

    private init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// An array of the bytes `body` writes, at most `capacity` of them (more is a
    /// programming error, which traps before any byte is written past the capacity).
    ///
    /// - Complexity: O(`capacity`) at most, one allocation.
    package static func bytes(capacity: Int, _ body: (inout ByteOutput) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: max(capacity, 1)) { buffer, count in
            var out = ByteOutput(base: buffer.baseAddress!, capacity: capacity)
            body(&out)
            count = out.count
        }
    }

    /// Appends one byte.
    @inline(__always)
    package mutating func byte(_ value: UInt8) {
        precondition(count < capacity, "a byte written past the output's capacity of \(capacity)")
        base[count] = value
        count += 1
    }

    /// Appends the bytes of `text`.
    package mutating func append(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        precondition(length <= capacity - count, "bytes written past the output's capacity of \(capacity)")
        (base + count).update(from: text.utf8Start, count: length)
        count += length
    }

    /// Lends `body` the next `maximum` bytes of the output, uninitialized; `body` writes some
    /// of them from the start and returns how many, which are appended.
    package mutating func write(upTo maximum: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Int) {
        precondition(maximum >= 0 && maximum <= capacity - count, "bytes written past the output's capacity of \(capacity)")
        let written = body(UnsafeMutableBufferPointer(start: base + count, count: maximum))
        precondition(written >= 0 && written <= maximum, "\(written) bytes said written of at most \(maximum)")
        count += written
    }
}
