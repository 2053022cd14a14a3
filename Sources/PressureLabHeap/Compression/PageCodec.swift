import CLZ4
import CZstd

/// A real compressor, one page at a time: LZ4 (zram's default, and the second codec of XNU's
/// hybrid compressor) or Zstandard at level 1 (zram's denser backend).
///
/// The one door to liblz4 and libzstd: nothing else in the package calls them.
public enum PageCodec: String, Sendable, CaseIterable {
    case lz4, zstd

    /// The library and its version as linked now, `liblz4 1.9.4` or `libzstd 1.5.4`:
    /// compressed sizes, so footprints and device times with compression, depend on it.
    public var library: String {
        switch self {
        case .lz4: return "liblz4 " + String(cString: LZ4_versionString())
        case .zstd: return "libzstd " + String(cString: ZSTD_versionString())
        }
    }

    /// Every codec's library and version, by codec name (`lz4`, `zstd`).
    public static var libraries: [String: String] {
        Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0.library) })
    }

    /// The most bytes one compressed page of `bytes` can take.
    public func bound(_ bytes: Int) -> Int {
        switch self {
        case .lz4: return Int(LZ4_compressBound(Int32(bytes)))
        case .zstd: return ZSTD_compressBound(bytes)
        }
    }

    /// Compresses `source` into `destination`; the compressed size, or nil when it does not
    /// fit (the caller stores the page uncompressed).
    public func compress(_ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer) -> Int? {
        compress(source, into: destination, workspace: CodecWorkspace.current)
    }

    /// ``compress(_:into:)`` with the calling thread's `workspace` (nil: the stateless
    /// entries, which clear or allocate the codec's state on every call). Same output.
    func compress(_ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer,
                  workspace: CodecWorkspace?) -> Int? {
        guard let input = source.baseAddress, let output = destination.baseAddress, !source.isEmpty else { return 0 }
        let inputCount = Int32(clamping: source.count), outputCount = Int32(clamping: destination.count)
        switch self {
        case .lz4:
            let written: Int32
            #if os(Linux)
            if let workspace {
                written = LZ4_compress_fast_extState_fastReset(workspace.lz4State, input.assumingMemoryBound(to: CChar.self),
                                                               output.assumingMemoryBound(to: CChar.self), inputCount, outputCount, 1)
            } else {
                written = LZ4_compress_default(input.assumingMemoryBound(to: CChar.self), output.assumingMemoryBound(to: CChar.self),
                                               inputCount, outputCount)
            }
            #else
            written = LZ4_compress_default(input.assumingMemoryBound(to: CChar.self), output.assumingMemoryBound(to: CChar.self),
                                           inputCount, outputCount)
            #endif
            return written > 0 ? Int(written) : nil
        case .zstd:
            let written: Int
            if let context = workspace?.zstdCompressionContext() {
                written = ZSTD_compressCCtx(context, output, destination.count, input, source.count, 1)
            } else {
                written = ZSTD_compress(output, destination.count, input, source.count, 1)
            }
            return ZSTD_isError(written) == 0 ? written : nil
        }
    }

    /// Decompresses `source` into exactly `destination.count` bytes; false when the data is
    /// corrupt or does not decompress to that size.
    public func decompress(_ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer) -> Bool {
        decompress(source, into: destination, workspace: CodecWorkspace.current)
    }

    /// ``decompress(_:into:)`` with the calling thread's `workspace` (nil: the stateless
    /// entries). LZ4's decompression has no state; Zstandard's context is reused.
    func decompress(_ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer,
                    workspace: CodecWorkspace?) -> Bool {
        guard let output = destination.baseAddress, !destination.isEmpty else { return source.isEmpty }
        guard let input = source.baseAddress else { return false }
        switch self {
        case .lz4:
            let read = LZ4_decompress_safe(input.assumingMemoryBound(to: CChar.self), output.assumingMemoryBound(to: CChar.self),
                                           Int32(clamping: source.count), Int32(clamping: destination.count))
            return Int(read) == destination.count
        case .zstd:
            let read: Int
            if let context = workspace?.zstdDecompressionContext() {
                read = ZSTD_decompressDCtx(context, output, destination.count, input, source.count)
            } else {
                read = ZSTD_decompress(output, destination.count, input, source.count)
            }
            return ZSTD_isError(read) == 0 && read == destination.count
        }
    }
}
