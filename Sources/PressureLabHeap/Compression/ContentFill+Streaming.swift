#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if arch(x86_64) && canImport(Glibc)
import _Builtin_intrinsics.intel
import Synchronization
#endif

/// Large fills with streaming (non-temporal) stores: the same bytes as the page-by-page
/// `memcpy` + `memset`, written without reading each cache line from memory first.
///
/// Why: `memset` of a buffer larger than the last-level cache writes whole lines without
/// reading them (on this project's 2-core VM, 64 MiB at about 28 GB/s), while the page-by-page
/// copies of a fill are ordinary stores, and an ordinary store to a line that is not cached
/// reads it from memory first (write-allocate): twice the memory traffic, and the fill was
/// 126-142% of `memset` on 64 MiB. Inside the cache the page-by-page fill is as fast as
/// `memset` or faster (measured 71-89% at 8 and 16 MiB), and streaming stores there are slower
/// (they evict what was just written), so only fills of at least
/// ``ContentFill/streamingThresholdBytes`` stream. Benchmarks/README.md has the figures.
extension ContentFill {
    /// Fills of at least this many bytes use streaming stores (where the host has them): the
    /// crossover measured on the project's 2-core VM (32 MiB of last-level cache), 2026-11-24.
    public static let streamingThresholdBytes = 32 << 20

    /// Writes `pages` whole pages at `base` with streaming stores; false (nothing written)
    /// when the host has none or the memory is not 16-byte aligned.
    func fillStreaming(_ base: UnsafeMutableRawPointer, pages: Int, salt: UInt64, firstPage: Int) -> Bool {
        #if arch(x86_64) && canImport(Glibc)
        guard pages > 0, pageBytes % 16 == 0, Int(bitPattern: base) % 16 == 0 else { return false }
        let fillByte = UInt8(truncatingIfNeeded: (seed ^ salt) & 0xFF)
        let fillVector = _mm_set1_epi8(CChar(bitPattern: fillByte))
        let random = randomBytesPerPage
        let wholeChunks = random / 16 * 16
        for index in 0..<pages {
            let destination = base + index * pageBytes
            let source = table + tableOffset(salt: salt, page: firstPage + index)
            var offset = 0
            while offset < wholeChunks {
                Self.stream(_mm_loadu_si128((source + offset).assumingMemoryBound(to: __m128i.self)), to: destination + offset)
                offset += 16
            }
            if wholeChunks < random {
                // The 16 bytes where the random share ends and the fill byte begins.
                var chunk = (UInt64(0), UInt64(0))
                withUnsafeMutableBytes(of: &chunk) { bytes in
                    memset(bytes.baseAddress!, Int32(fillByte), 16)
                    _ = memcpy(bytes.baseAddress!, source + wholeChunks, random - wholeChunks)
                }
                let mixed = withUnsafeBytes(of: &chunk) { _mm_loadu_si128($0.baseAddress!.assumingMemoryBound(to: __m128i.self)) }
                Self.stream(mixed, to: destination + wholeChunks)
                offset = wholeChunks + 16
            }
            while offset < pageBytes {
                Self.stream(fillVector, to: destination + offset)
                offset += 16
            }
        }
        // Streaming stores are weakly ordered: fence them before the memory is handed on.
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        return true
        #else
        return false
        #endif
    }

    #if arch(x86_64) && canImport(Glibc)
    @inline(__always)
    private static func stream(_ value: __m128i, to address: UnsafeMutableRawPointer) {
        _mm_stream_si128(address.assumingMemoryBound(to: __m128i.self), value)
    }
    #endif
}
