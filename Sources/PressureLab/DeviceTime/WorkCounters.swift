/// The work an app's runtime did, counted as it happens: the quantities device time is
/// computed from (``CostModel``). Never computed from declared sizes: a count goes up when
/// the work is done (a file read, a view decoded, a bitmap drawn).
///
/// Counters only grow; the work of one operation (a launch, a reload) is the difference of
/// the counters after and before it.
public struct WorkCounters: Sendable, Equatable, Codable {
    /// Processes created (one per cold launch).
    public var processStarts = 0
    /// Framework and app initialisations up to `didFinishLaunching` (one per cold launch).
    public var appInits = 0
    /// Frames brought on screen by a launch or resume (the first frame's fixed cost).
    public var firstFrames = 0
    /// Bytes read from storage, and the reads (view descriptions, models, restoration
    /// archives, freezer files).
    public var storageReadBytes = 0
    public var storageReads = 0
    /// Bytes written to storage, and the writes (restoration archives, freezer files).
    public var storageWriteBytes = 0
    public var storageWrites = 0
    /// Views decoded from a description file (a nib or layout inflation).
    public var viewsDecoded = 0
    /// Views measured and laid out.
    public var viewsLaidOut = 0
    /// Backing-store bytes drawn.
    public var bitmapBytesDrawn = 0
    /// Cache bytes recomputed.
    public var cacheBytesFilled = 0
    /// Restoration-archive bytes decoded.
    public var archiveBytesDecoded = 0
    /// Bytes compressed and decompressed by the in-RAM compressor or the freezer.
    public var bytesCompressed = 0
    public var bytesDecompressed = 0

    public init() {}

    /// The work done between `earlier` and `self`.
    public static func - (later: WorkCounters, earlier: WorkCounters) -> WorkCounters {
        var delta = WorkCounters()
        delta.processStarts = later.processStarts - earlier.processStarts
        delta.appInits = later.appInits - earlier.appInits
        delta.firstFrames = later.firstFrames - earlier.firstFrames
        delta.storageReadBytes = later.storageReadBytes - earlier.storageReadBytes
        delta.storageReads = later.storageReads - earlier.storageReads
        delta.storageWriteBytes = later.storageWriteBytes - earlier.storageWriteBytes
        delta.storageWrites = later.storageWrites - earlier.storageWrites
        delta.viewsDecoded = later.viewsDecoded - earlier.viewsDecoded
        delta.viewsLaidOut = later.viewsLaidOut - earlier.viewsLaidOut
        delta.bitmapBytesDrawn = later.bitmapBytesDrawn - earlier.bitmapBytesDrawn
        delta.cacheBytesFilled = later.cacheBytesFilled - earlier.cacheBytesFilled
        delta.archiveBytesDecoded = later.archiveBytesDecoded - earlier.archiveBytesDecoded
        delta.bytesCompressed = later.bytesCompressed - earlier.bytesCompressed
        delta.bytesDecompressed = later.bytesDecompressed - earlier.bytesDecompressed
        return delta
    }

    /// The sum of two counts (a run's total over its apps).
    public static func + (lhs: WorkCounters, rhs: WorkCounters) -> WorkCounters {
        var sum = lhs
        sum.processStarts += rhs.processStarts
        sum.appInits += rhs.appInits
        sum.firstFrames += rhs.firstFrames
        sum.storageReadBytes += rhs.storageReadBytes
        sum.storageReads += rhs.storageReads
        sum.storageWriteBytes += rhs.storageWriteBytes
        sum.storageWrites += rhs.storageWrites
        sum.viewsDecoded += rhs.viewsDecoded
        sum.viewsLaidOut += rhs.viewsLaidOut
        sum.bitmapBytesDrawn += rhs.bitmapBytesDrawn
        sum.cacheBytesFilled += rhs.cacheBytesFilled
        sum.archiveBytesDecoded += rhs.archiveBytesDecoded
        sum.bytesCompressed += rhs.bytesCompressed
        sum.bytesDecompressed += rhs.bytesDecompressed
        return sum
    }
}
