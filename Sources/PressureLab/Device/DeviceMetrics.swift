import Histogram

/// What a device run counted and measured.
public struct DeviceMetrics {
    /// Processes killed.
    public var kills = 0
    /// Kills by the per-app limit (included in ``kills``).
    public var limitKills = 0
    /// Apps killed in the background by the system's own limits (included in ``kills``): the
    /// per-process limit (XNU) and ActivityManager's cached and empty process counts (Android).
    /// ``kills`` less these are the termination policy's; crashes of the app in front are
    /// ``outOfMemoryCrashes``.
    public var systemLimitKills = 0
    /// Apps frozen.
    public var freezes = 0
    /// Apps thawed.
    public var thaws = 0
    /// Cold launches.
    public var coldLaunches = 0
    /// Resumes (hot launches).
    public var resumes = 0
    /// Apps in front that crashed for want of memory.
    public var outOfMemoryCrashes = 0
    /// Interruptions (a call, an alert), launches straight into the background, apps Home
    /// terminated (before iOS 4), and apps suspended when their background time ran out.
    public var interruptions = 0
    /// (Launches into the background.)
    public var backgroundLaunches = 0
    /// (Apps Home terminated.)
    public var homeTerminations = 0
    /// (Apps whose background time ran out.)
    public var backgroundExpirations = 0
    /// Clean pages (code, resources) the device dropped under pressure, bytes.
    public var cleanBytesDropped = 0
    /// Collections an Android app's runtime ran in the background (``BackgroundCollection``).
    public var backgroundCollections = 0
    /// Regions those collections brought back from zram or the swap file.
    public var collectionPageIns = 0
    /// Bytes those regions hold.
    public var collectionPageInBytes = 0
    /// Apps swapped out to the swap file, and the bytes written.
    public var swapOuts = 0
    /// (Bytes written to the swap file.)
    public var swappedOutBytes = 0
    /// Bytes the freezer wrote.
    public var frozenBytesWritten = 0
    /// Times the device compressed a suspended app into the in-RAM pool.
    public var appsCompressed = 0
    /// Regions (one controller's memory, or an app's app-wide data) compressed into the
    /// pool, and decompressed back when touched (see ``CompressedPool``).
    public var compressions = 0
    /// (Regions decompressed when touched.)
    public var decompressions = 0
    /// Bytes compressed in all, and the bytes the pool stored for them.
    public var bytesCompressed = 0
    /// (What the pool stored for them.)
    public var bytesStoredCompressed = 0
    /// Bytes the pool holds now, and at most.
    public var compressedBytesNow = 0
    /// (The most the pool held.)
    public var compressedBytesPeak = 0

    /// All bytes compressed over their compressed size (measured with the real codec; 0
    /// when nothing was compressed).
    public var compressionRatio: Double {
        bytesStoredCompressed == 0 ? 0 : Double(bytesCompressed) / Double(bytesStoredCompressed)
    }
    /// Samples of the number of apps alive (running or suspended, frozen included), one per step.
    public private(set) var cachedAppsSamples: [Int] = []
    /// Names killed, in order (out-of-memory crashes included).
    public private(set) var killOrder: [String] = []
    /// Why each of ``killOrder`` was killed, in the same order.
    public private(set) var killReasons: [KillReason] = []
    private var launchHistograms: [LaunchKind: Histogram<UInt64>] = [:]
    private var launchDeviceHistograms: [LaunchKind: Histogram<UInt64>] = [:]
    private var saturatedLaunches: Set<LaunchKind> = [], saturatedDeviceLaunches: Set<LaunchKind> = []

    /// Nothing counted yet.
    public init() {}

    /// The most apps alive at once.
    public var cachedAppsMax: Int { cachedAppsSamples.max() ?? 0 }

    /// The mean number of apps alive.
    public var cachedAppsMean: Double {
        cachedAppsSamples.isEmpty ? 0 : Double(cachedAppsSamples.reduce(0, +)) / Double(cachedAppsSamples.count)
    }

    mutating func sampleCachedApps(_ count: Int) { cachedAppsSamples.append(count) }

    /// Notes a kill (or an out-of-memory crash) and its reason.
    mutating func recordKill(of name: String, reason: KillReason) {
        killOrder.append(name)
        killReasons.append(reason)
    }

    /// Every launch with a device time, in order: the app, its kind, its device time (ns).
    public private(set) var launchLog: [(app: String, kind: LaunchKind, deviceNanoseconds: UInt64)] = []

    mutating func recordLaunch(_ kind: LaunchKind, app: String = "", nanoseconds: UInt64, deviceNanoseconds: UInt64?) {
        if let deviceNanoseconds { launchLog.append((app, kind, deviceNanoseconds)) }
        if ReloadStatistics.record(nanoseconds, in: &launchHistograms[kind, default: ReloadStatistics.makeHistogram()]) {
            saturatedLaunches.insert(kind)
        }
        if let deviceNanoseconds,
           ReloadStatistics.record(deviceNanoseconds, in: &launchDeviceHistograms[kind, default: ReloadStatistics.makeHistogram()]) {
            saturatedDeviceLaunches.insert(kind)
        }
    }

    /// Launch latency percentiles of one kind (host time).
    public func launchLatency(_ kind: LaunchKind) -> ReloadStatistics.Summary {
        ReloadStatistics.Summary(launchHistograms[kind], saturated: saturatedLaunches.contains(kind))
    }

    /// Launch latency percentiles of one kind in device time (empty without a profile).
    public func launchDeviceLatency(_ kind: LaunchKind) -> ReloadStatistics.Summary {
        ReloadStatistics.Summary(launchDeviceHistograms[kind], saturated: saturatedDeviceLaunches.contains(kind))
    }
}
