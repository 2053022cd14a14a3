/// What each unit of work costs on a modelled device: the per-unit costs of a device
/// profile, one ``Value`` a ``Cost`` (docs/formats.md, "Device profile"). Device time is
/// ``nanoseconds(for:compressor:)`` of the work counted (``WorkCounters``): deterministic,
/// the same on any host.
///
/// Every term is integer arithmetic: a fixed time per occurrence, or bytes at a throughput
/// (`bytes * 1e9 / bytesPerSecond`, rounded down, computed without overflow), so a test can
/// compute a figure by hand exactly.
public struct CostModel: Sendable, Equatable {
    /// A transfer: bytes at a throughput, plus a fixed latency per operation.
    public struct Transfer: Sendable, Equatable {
        /// The throughput.
        public var bytesPerSecond: UInt64
        /// A fixed latency per operation.
        public var latencyNanoseconds: UInt64
        /// A transfer at `bytesPerSecond`, plus `latencyNanoseconds` an operation.
        public init(bytesPerSecond: UInt64, latencyNanoseconds: UInt64 = 0) {
            self.bytesPerSecond = bytesPerSecond
            self.latencyNanoseconds = latencyNanoseconds
        }
    }

    /// A throughput per codec (plain fields: a cost model is copied on every latency, and
    /// dictionaries would cost a retain and a release each time).
    public struct PerCompressor: Sendable, Equatable {
        /// LZ4's throughput, bytes a second.
        public var lz4: UInt64
        /// Zstandard's throughput, bytes a second.
        public var zstd: UInt64
        /// Throughputs per codec (0: not given).
        public init(lz4: UInt64 = 0, zstd: UInt64 = 0) {
            self.lz4 = lz4
            self.zstd = zstd
        }
        /// The throughput of `compressor` (nil for `none`).
        public subscript(compressor: Compressor) -> UInt64? {
            switch compressor {
            case .none: return nil
            case .lz4: return lz4
            case .zstd: return zstd
            }
        }
    }

    /// What one cost charges. Which fields apply is its ``Cost/Kind``'s: `time` the time per
    /// occurrence; `throughput` the throughput; `transfer` both (the time per occurrence is
    /// the latency per operation); `perCompressor` the throughputs per compressor. The
    /// others are 0 and unused.
    public struct Value: Sendable, Equatable {
        /// A fixed time per occurrence, nanoseconds.
        public var nanosecondsPerOccurrence: UInt64
        /// A throughput, bytes per second.
        public var bytesPerSecond: UInt64
        /// A throughput per in-RAM compressor, bytes per second.
        public var perCompressor: PerCompressor

        /// A cost per occurrence, per byte at a throughput, or per codec.
        public init(nanosecondsPerOccurrence: UInt64 = 0, bytesPerSecond: UInt64 = 0, perCompressor: PerCompressor = PerCompressor()) {
            self.nanosecondsPerOccurrence = nanosecondsPerOccurrence
            self.bytesPerSecond = bytesPerSecond
            self.perCompressor = perCompressor
        }

        /// A `time` cost.
        public static func time(_ nanoseconds: UInt64) -> Value { Value(nanosecondsPerOccurrence: nanoseconds) }
        /// A `throughput` cost.
        public static func throughput(_ bytesPerSecond: UInt64) -> Value { Value(bytesPerSecond: bytesPerSecond) }
        /// A `transfer` cost.
        public static func transfer(_ transfer: Transfer) -> Value {
            Value(nanosecondsPerOccurrence: transfer.latencyNanoseconds, bytesPerSecond: transfer.bytesPerSecond)
        }
        /// A `perCompressor` cost.
        public static func perCompressor(_ throughputs: PerCompressor) -> Value { Value(perCompressor: throughputs) }
    }

    /// One cost and what it charges.
    struct Entry: Sendable, Equatable {
        let cost: Cost
        var value: Value
    }

    /// Every cost with its value, in ``Cost/allCases`` order (at each cost's ``Cost/ordinal``):
    /// an array, not a dictionary (a cost model is copied on every latency), built once, so
    /// that computing a device time allocates nothing (it runs inside the ledger's measured
    /// scopes).
    private var entries: [Entry]

    /// A model with `values` for its costs; a cost not given costs nothing.
    public init(_ values: [Cost: Value]) {
        entries = Cost.allCases.map { Entry(cost: $0, value: values[$0] ?? Value()) }
    }

    /// The first twelve costs by name (tests and benchmarks build models this way).
    public init(processStartNanoseconds: UInt64, appInitNanoseconds: UInt64, firstFrameNanoseconds: UInt64,
                storageRead: Transfer, storageWrite: Transfer, viewDecodeNanoseconds: UInt64, viewLayoutNanoseconds: UInt64,
                bitmapDrawBytesPerSecond: UInt64, cacheFillBytesPerSecond: UInt64, archiveDecodeBytesPerSecond: UInt64,
                compressBytesPerSecond: PerCompressor = PerCompressor(), decompressBytesPerSecond: PerCompressor = PerCompressor()) {
        self.init([
            .processStart: .time(processStartNanoseconds), .appInit: .time(appInitNanoseconds),
            .firstFrame: .time(firstFrameNanoseconds), .storageRead: .transfer(storageRead), .storageWrite: .transfer(storageWrite),
            .viewDecode: .time(viewDecodeNanoseconds), .viewLayout: .time(viewLayoutNanoseconds),
            .bitmapDraw: .throughput(bitmapDrawBytesPerSecond), .cacheFill: .throughput(cacheFillBytesPerSecond),
            .archiveDecode: .throughput(archiveDecodeBytesPerSecond), .compress: .perCompressor(compressBytesPerSecond),
            .decompress: .perCompressor(decompressBytesPerSecond),
        ])
    }

    /// What `cost` charges.
    public subscript(cost: Cost) -> Value {
        get { entries[cost.ordinal].value }
        set { entries[cost.ordinal].value = newValue }
    }

    /// `bytes` at `bytesPerSecond`, in nanoseconds (rounded down; 0 bytes cost 0).
    public static func transferNanoseconds(_ bytes: Int, bytesPerSecond: UInt64) -> UInt64 {
        guard bytes > 0, bytesPerSecond > 0 else { return 0 }
        let (high, low) = UInt64(bytes).multipliedFullWidth(by: 1_000_000_000)
        guard high < bytesPerSecond else { return .max }
        return bytesPerSecond.dividingFullWidth((high, low)).quotient
    }

    /// The device time of `work`, with `compressor` doing the (de)compression: the sum of
    /// every cost's ``nanoseconds(of:for:compressor:)``. Saturates at `UInt64.max` (about
    /// 584 years), never wraps.
    public func nanoseconds(for work: WorkCounters, compressor: Compressor = .none) -> UInt64 {
        var total: UInt64 = 0
        // By index: iterating the array itself allocates an iterator in unoptimized builds.
        for index in entries.indices {
            total = total.addingSaturating(Self.nanoseconds(of: entries[index], for: work, compressor: compressor))
        }
        return total
    }

    /// The device time of `cost`'s share of `work`, as its kind prices it (saturating):
    /// occurrences x time, bytes at a throughput, both for a transfer, and bytes at the
    /// compressor's throughput for a per-compressor cost (nothing without a compressor).
    public func nanoseconds(of cost: Cost, for work: WorkCounters, compressor: Compressor = .none) -> UInt64 {
        Self.nanoseconds(of: entries[cost.ordinal], for: work, compressor: compressor)
    }

    private static func nanoseconds(of entry: Entry, for work: WorkCounters, compressor: Compressor) -> UInt64 {
        let cost = entry.cost, value = entry.value
        func times(_ count: Int, _ each: UInt64) -> UInt64 { UInt64(max(0, count)).multipliedSaturating(by: each) }
        switch cost.kind {
        case .time:
            return times(work[occurrences: cost], value.nanosecondsPerOccurrence)
        case .throughput:
            return Self.transferNanoseconds(work[bytes: cost], bytesPerSecond: value.bytesPerSecond)
        case .transfer:
            return Self.transferNanoseconds(work[bytes: cost], bytesPerSecond: value.bytesPerSecond)
                .addingSaturating(times(work[occurrences: cost], value.nanosecondsPerOccurrence))
        case .perCompressor:
            guard let rate = value.perCompressor[compressor] else { return 0 }
            return Self.transferNanoseconds(work[bytes: cost], bytesPerSecond: rate)
        }
    }
}

/// An in-RAM compressor (the iOS compressor, Android's zram), or none.
public enum Compressor: String, Sendable, Codable, CaseIterable, Hashable {
    /// No compression, LZ4 or Zstandard.
    case none, lz4, zstd
}
