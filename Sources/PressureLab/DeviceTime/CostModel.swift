/// What each unit of work costs on a modelled device: the per-unit costs of a device
/// profile. Device time is ``nanoseconds(for:)`` of the work counted
/// (``WorkCounters``): deterministic, the same on any host.
///
/// Every term is integer arithmetic: a fixed time per occurrence, or bytes at a throughput
/// (`bytes * 1e9 / bytesPerSecond`, rounded down, computed without overflow), so a test can
/// compute a figure by hand exactly.
public struct CostModel: Sendable, Equatable {
    /// A transfer: bytes at a throughput, plus a fixed latency per operation.
    public struct Transfer: Sendable, Equatable {
        public var bytesPerSecond: UInt64
        public var latencyNanoseconds: UInt64
        public init(bytesPerSecond: UInt64, latencyNanoseconds: UInt64 = 0) {
            self.bytesPerSecond = bytesPerSecond
            self.latencyNanoseconds = latencyNanoseconds
        }
    }

    /// Creating a process (zygote fork, or dyld and runtime init), per cold launch.
    public var processStartNanoseconds: UInt64
    /// Framework and app init up to `didFinishLaunching`, per cold launch.
    public var appInitNanoseconds: UInt64
    /// Getting a frame on screen once its views exist, per launch or resume.
    public var firstFrameNanoseconds: UInt64
    public var storageRead: Transfer
    public var storageWrite: Transfer
    /// Decoding one view from its description (inflation).
    public var viewDecodeNanoseconds: UInt64
    /// Measuring and laying out one view.
    public var viewLayoutNanoseconds: UInt64
    /// Rasterizing backing-store bytes.
    public var bitmapDrawBytesPerSecond: UInt64
    /// Recomputing cache bytes.
    public var cacheFillBytesPerSecond: UInt64
    /// Decoding the restoration archive.
    public var archiveDecodeBytesPerSecond: UInt64
    /// In-RAM compression and decompression, per compressor, per input (or output) byte.
    public var compressBytesPerSecond: PerCompressor
    public var decompressBytesPerSecond: PerCompressor

    /// A throughput per codec (plain fields: a cost model is copied on every latency, and
    /// dictionaries would cost a retain and a release each time).
    public struct PerCompressor: Sendable, Equatable {
        public var lz4: UInt64
        public var zstd: UInt64
        public init(lz4: UInt64 = 0, zstd: UInt64 = 0) {
            self.lz4 = lz4
            self.zstd = zstd
        }
        public subscript(compressor: Compressor) -> UInt64? {
            switch compressor {
            case .none: return nil
            case .lz4: return lz4
            case .zstd: return zstd
            }
        }
    }

    public init(processStartNanoseconds: UInt64, appInitNanoseconds: UInt64, firstFrameNanoseconds: UInt64,
                storageRead: Transfer, storageWrite: Transfer, viewDecodeNanoseconds: UInt64, viewLayoutNanoseconds: UInt64,
                bitmapDrawBytesPerSecond: UInt64, cacheFillBytesPerSecond: UInt64, archiveDecodeBytesPerSecond: UInt64,
                compressBytesPerSecond: PerCompressor = PerCompressor(), decompressBytesPerSecond: PerCompressor = PerCompressor()) {
        self.processStartNanoseconds = processStartNanoseconds
        self.appInitNanoseconds = appInitNanoseconds
        self.firstFrameNanoseconds = firstFrameNanoseconds
        self.storageRead = storageRead
        self.storageWrite = storageWrite
        self.viewDecodeNanoseconds = viewDecodeNanoseconds
        self.viewLayoutNanoseconds = viewLayoutNanoseconds
        self.bitmapDrawBytesPerSecond = bitmapDrawBytesPerSecond
        self.cacheFillBytesPerSecond = cacheFillBytesPerSecond
        self.archiveDecodeBytesPerSecond = archiveDecodeBytesPerSecond
        self.compressBytesPerSecond = compressBytesPerSecond
        self.decompressBytesPerSecond = decompressBytesPerSecond
    }

    /// `bytes` at `bytesPerSecond`, in nanoseconds (rounded down; 0 bytes cost 0).
    public static func transferNanoseconds(_ bytes: Int, bytesPerSecond: UInt64) -> UInt64 {
        guard bytes > 0, bytesPerSecond > 0 else { return 0 }
        let (high, low) = UInt64(bytes).multipliedFullWidth(by: 1_000_000_000)
        guard high < bytesPerSecond else { return .max }
        return bytesPerSecond.dividingFullWidth((high, low)).quotient
    }

    /// The device time of `work`, with `compressor` doing the (de)compression. Saturates at
    /// `UInt64.max` (about 584 years), never wraps.
    public func nanoseconds(for work: WorkCounters, compressor: Compressor = .none) -> UInt64 {
        func times(_ count: Int, _ each: UInt64) -> UInt64 { UInt64(max(0, count)).multipliedSaturating(by: each) }
        var total: UInt64 = 0
        total = total.addingSaturating(times(work.processStarts, processStartNanoseconds))
        total = total.addingSaturating(times(work.appInits, appInitNanoseconds))
        total = total.addingSaturating(times(work.firstFrames, firstFrameNanoseconds))
        total = total.addingSaturating(Self.transferNanoseconds(work.storageReadBytes, bytesPerSecond: storageRead.bytesPerSecond))
        total = total.addingSaturating(times(work.storageReads, storageRead.latencyNanoseconds))
        total = total.addingSaturating(Self.transferNanoseconds(work.storageWriteBytes, bytesPerSecond: storageWrite.bytesPerSecond))
        total = total.addingSaturating(times(work.storageWrites, storageWrite.latencyNanoseconds))
        total = total.addingSaturating(times(work.viewsDecoded, viewDecodeNanoseconds))
        total = total.addingSaturating(times(work.viewsLaidOut, viewLayoutNanoseconds))
        total = total.addingSaturating(Self.transferNanoseconds(work.bitmapBytesDrawn, bytesPerSecond: bitmapDrawBytesPerSecond))
        total = total.addingSaturating(Self.transferNanoseconds(work.cacheBytesFilled, bytesPerSecond: cacheFillBytesPerSecond))
        total = total.addingSaturating(Self.transferNanoseconds(work.archiveBytesDecoded, bytesPerSecond: archiveDecodeBytesPerSecond))
        if compressor != .none {
            total = total.addingSaturating(Self.transferNanoseconds(work.bytesCompressed, bytesPerSecond: compressBytesPerSecond[compressor] ?? 0))
            total = total.addingSaturating(Self.transferNanoseconds(work.bytesDecompressed, bytesPerSecond: decompressBytesPerSecond[compressor] ?? 0))
        }
        return total
    }
}

/// An in-RAM compressor (the iOS compressor, Android's zram), or none.
public enum Compressor: String, Sendable, Codable, CaseIterable, Hashable {
    case none, lz4, zstd
}
