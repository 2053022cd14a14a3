/// A kind of counted work a device profile prices: the one list of a profile's costs
/// (docs/formats.md, "Device profile"). Everything that lists the costs (the profile reader,
/// the work counters, the cost model, the docs' table) walks `allCases`; adding a cost is
/// a case here, its traits in the switches below, and the place that counts its work.
///
/// The raw value is the cost's key in a profile file; the cases are in the order profile
/// files list them.
public enum Cost: String, CaseIterable, Sendable {
    /// Creating the process.
    case processStart = "process_start"
    /// Initialising the frameworks and the app.
    case appInit = "app_init"
    /// Putting a frame on screen.
    case firstFrame = "first_frame"
    /// Reading from storage, per byte.
    case storageRead = "storage_read"
    /// Writing to storage, per byte.
    case storageWrite = "storage_write"
    /// Decoding a view from its description.
    case viewDecode = "view_decode"
    /// Laying a view out.
    case viewLayout = "view_layout"
    /// Drawing a backing store, per byte.
    case bitmapDraw = "bitmap_draw"
    /// Recomputing a cache, per byte.
    case cacheFill = "cache_fill"
    /// Decoding the restoration archive, per byte.
    case archiveDecode = "archive_decode"
    /// Compressing memory, per byte (per compressor).
    case compress
    /// Decompressing memory, per byte (per compressor).
    case decompress
    /// Handing released heap bytes back to the system, per byte.
    case heapTrim = "heap_trim"

    /// How a cost is priced, which fields its profile entry has, and which work counters it
    /// reads.
    public enum Kind: Sendable, CaseIterable {
        /// A fixed time per occurrence (`{ time }`).
        case time
        /// Bytes at a throughput (`{ throughput }`).
        case throughput
        /// Bytes at a throughput plus a fixed latency per operation (`{ throughput, latency }`).
        case transfer
        /// Bytes at a throughput of the in-RAM compressor in use (`{ lz4, zstd }`); nothing
        /// when the device has no compressor.
        case perCompressor

        /// The keys of a profile entry of this kind besides `source`, in the order messages
        /// list them (`latency` is optional, 0 when absent; the others are required).
        public var fields: [String] {
            switch self {
            case .time: ["time"]
            case .throughput: ["throughput"]
            case .transfer: ["throughput", "latency"]
            case .perCompressor: Compressor.allCases.filter { $0 != .none }.map(\.rawValue)
            }
        }

        /// The work counters a cost of this kind reads, in the order the results list them.
        public var measures: [WorkCounters.Measure] {
            switch self {
            case .time: [.occurrences]
            case .throughput, .perCompressor: [.bytes]
            case .transfer: [.bytes, .occurrences]
            }
        }
    }

    /// How this cost is priced.
    public var kind: Kind {
        switch self {
        case .processStart, .appInit, .firstFrame, .viewDecode, .viewLayout: .time
        case .storageRead, .storageWrite: .transfer
        case .bitmapDraw, .cacheFill, .archiveDecode, .heapTrim: .throughput
        case .compress, .decompress: .perCompressor
        }
    }

    /// What the cost is charged for, in one line (the docs' table, help texts).
    public var summary: String {
        switch self {
        case .processStart: "each cold launch: creating the process (zygote fork, or dyld and runtime init)"
        case .appInit: "each cold launch: framework and app init up to didFinishLaunching"
        case .firstFrame: "each frame a launch or resume brings on screen"
        case .storageRead: "bytes and operations read from storage"
        case .storageWrite: "bytes and operations written to storage"
        case .viewDecode: "each view decoded from a description (inflation)"
        case .viewLayout: "each view measured and laid out"
        case .bitmapDraw: "backing-store bytes drawn"
        case .cacheFill: "cache bytes recomputed"
        case .archiveDecode: "restoration-archive bytes decoded"
        case .compress: "bytes into the in-RAM compressor"
        case .decompress: "bytes out of the in-RAM compressor"
        case .heapTrim: "heap bytes the app released entering the background, handed back to the system"
        }
    }

    /// The cost's position in `allCases`: the slot of its counters and values in the fixed
    /// storage of ``WorkCounters`` and ``CostModel``.
    @inline(__always)
    public var ordinal: Int {
        switch self {
        case .processStart: 0
        case .appInit: 1
        case .firstFrame: 2
        case .storageRead: 3
        case .storageWrite: 4
        case .viewDecode: 5
        case .viewLayout: 6
        case .bitmapDraw: 7
        case .cacheFill: 8
        case .archiveDecode: 9
        case .compress: 10
        case .decompress: 11
        case .heapTrim: 12
        }
    }
}
