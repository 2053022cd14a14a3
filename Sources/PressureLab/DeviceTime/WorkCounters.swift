/// The work an app's runtime did, counted as it happens: the quantities device time is
/// computed from (``CostModel``). Never computed from declared sizes: a count goes up when
/// the work is done (a file read, a view decoded, a bitmap drawn).
///
/// Counts are kept per ``Cost``: how many times its work happened (``subscript(occurrences:)``)
/// and how many bytes it moved (``subscript(bytes:)``); a cost reads the ones its
/// ``Cost/Kind`` names. A new cost needs no new field here (room for ``costCapacity`` costs). The named properties
/// (``viewsDecoded``, ``storageReadBytes``, ...) are views of those counts.
///
/// Counters only grow; the work of one operation (a launch, a reload) is the difference of
/// the counters after and before it.
public struct WorkCounters: Sendable, Equatable {
    /// What a counter counts for its cost.
    public enum Measure: Int, Sendable, CaseIterable {
        /// Times the work happened (launches, views, operations).
        case occurrences
        /// Bytes the work moved (read, written, drawn, decoded, compressed).
        case bytes
    }

    /// How many costs the counters have room for (two counters each). A test checks that
    /// `Cost/allCases` fits; raise it (and the storage below) past 16 costs.
    public static let costCapacity = 16

    /// Every count, two slots a cost (``slot(_:_:)``), stored inline: counting is an indexed
    /// add on the runtime's own struct and a copy (the counters before an operation) is a
    /// plain copy. Never on the heap: counting happens inside the ledger's measured scopes
    /// (`OwnerLedger`), and an allocation there would be charged to the app's measured
    /// memory (docs/formats.md, "Results": bytes measured by jemalloc).
    private var slots: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int,
                        Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int)
        = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    /// No work counted yet.
    public init() {}

    @inline(__always)
    private static func slot(_ cost: Cost, _ measure: Measure) -> Int {
        let slot = cost.ordinal &* 2 &+ measure.rawValue
        precondition(slot < costCapacity * 2, "WorkCounters has room for \(costCapacity) costs")
        return slot
    }

    @inline(__always)
    private subscript(slot slot: Int) -> Int {
        get { withUnsafeBytes(of: slots) { $0.load(fromByteOffset: slot &* MemoryLayout<Int>.stride, as: Int.self) } }
        set { withUnsafeMutableBytes(of: &slots) { $0.storeBytes(of: newValue, toByteOffset: slot &* MemoryLayout<Int>.stride, as: Int.self) } }
    }

    /// The count of `measure` for `cost`.
    @inline(__always)
    public subscript(measure: Measure, cost: Cost) -> Int {
        get { self[slot: Self.slot(cost, measure)] }
        set { self[slot: Self.slot(cost, measure)] = newValue }
    }

    /// Times `cost`'s work happened.
    @inline(__always)
    public subscript(occurrences cost: Cost) -> Int {
        get { self[.occurrences, cost] }
        set { self[.occurrences, cost] = newValue }
    }

    /// Bytes `cost`'s work moved.
    @inline(__always)
    public subscript(bytes cost: Cost) -> Int {
        get { self[.bytes, cost] }
        set { self[.bytes, cost] = newValue }
    }

    /// The work done between `earlier` and `self`.
    public static func - (later: WorkCounters, earlier: WorkCounters) -> WorkCounters {
        combined(later, earlier, by: -)
    }

    /// The sum of two counts (a run's total over its apps).
    public static func + (lhs: WorkCounters, rhs: WorkCounters) -> WorkCounters {
        combined(lhs, rhs, by: +)
    }

    /// Every slot of `lhs` combined with the same slot of `rhs`, in one pass over both
    /// (reading a slot through ``subscript(slot:)`` copies the whole tuple first: 64 copies
    /// of 256 bytes for one difference, which the device-time accounting of every launch and
    /// reload paid).
    @inline(__always)
    private static func combined(_ lhs: WorkCounters, _ rhs: WorkCounters, by combine: (Int, Int) -> Int) -> WorkCounters {
        var result = lhs
        withUnsafeMutableBytes(of: &result.slots) { result in
            withUnsafeBytes(of: rhs.slots) { rhs in
                for offset in stride(from: 0, to: costCapacity * 2 * MemoryLayout<Int>.stride, by: MemoryLayout<Int>.stride) {
                    let value = combine(result.load(fromByteOffset: offset, as: Int.self), rhs.load(fromByteOffset: offset, as: Int.self))
                    result.storeBytes(of: value, toByteOffset: offset, as: Int.self)
                }
            }
        }
        return result
    }

    public static func == (lhs: WorkCounters, rhs: WorkCounters) -> Bool {
        (0..<(costCapacity * 2)).allSatisfy { lhs[slot: $0] == rhs[slot: $0] }
    }
}

/// The counters by their names before costs were an enum: what call sites and the results'
/// `work` object use.
extension WorkCounters {
    /// Processes created (one per cold launch).
    public var processStarts: Int {
        get { self[occurrences: .processStart] }
        set { self[occurrences: .processStart] = newValue }
    }
    /// Framework and app initialisations up to `didFinishLaunching` (one per cold launch).
    public var appInits: Int {
        get { self[occurrences: .appInit] }
        set { self[occurrences: .appInit] = newValue }
    }
    /// Frames brought on screen by a launch or resume (the first frame's fixed cost).
    public var firstFrames: Int {
        get { self[occurrences: .firstFrame] }
        set { self[occurrences: .firstFrame] = newValue }
    }
    /// Bytes read from storage (view descriptions, models, restoration archives, freezer files).
    public var storageReadBytes: Int {
        get { self[bytes: .storageRead] }
        set { self[bytes: .storageRead] = newValue }
    }
    /// Reads from storage.
    public var storageReads: Int {
        get { self[occurrences: .storageRead] }
        set { self[occurrences: .storageRead] = newValue }
    }
    /// Bytes written to storage (restoration archives, freezer files).
    public var storageWriteBytes: Int {
        get { self[bytes: .storageWrite] }
        set { self[bytes: .storageWrite] = newValue }
    }
    /// Writes to storage.
    public var storageWrites: Int {
        get { self[occurrences: .storageWrite] }
        set { self[occurrences: .storageWrite] = newValue }
    }
    /// Views decoded from a description file (a nib or layout inflation).
    public var viewsDecoded: Int {
        get { self[occurrences: .viewDecode] }
        set { self[occurrences: .viewDecode] = newValue }
    }
    /// Views measured and laid out.
    public var viewsLaidOut: Int {
        get { self[occurrences: .viewLayout] }
        set { self[occurrences: .viewLayout] = newValue }
    }
    /// Backing-store bytes drawn.
    public var bitmapBytesDrawn: Int {
        get { self[bytes: .bitmapDraw] }
        set { self[bytes: .bitmapDraw] = newValue }
    }
    /// Cache bytes recomputed.
    public var cacheBytesFilled: Int {
        get { self[bytes: .cacheFill] }
        set { self[bytes: .cacheFill] = newValue }
    }
    /// Restoration-archive bytes decoded.
    public var archiveBytesDecoded: Int {
        get { self[bytes: .archiveDecode] }
        set { self[bytes: .archiveDecode] = newValue }
    }
    /// Bytes compressed by the in-RAM compressor or the freezer.
    public var bytesCompressed: Int {
        get { self[bytes: .compress] }
        set { self[bytes: .compress] = newValue }
    }
    /// Bytes decompressed by the in-RAM compressor or the freezer.
    public var bytesDecompressed: Int {
        get { self[bytes: .decompress] }
        set { self[bytes: .decompress] = newValue }
    }
}
