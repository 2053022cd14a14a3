/// Android's memory management as ActivityManager and lmkd do it, for the device's release
/// (``LowMemoryKillerRules``, ``TrimMemoryRules``):
///
/// - ActivityManager kills cached apps beyond its limit (`OomAdjuster`, "cached #N").
/// - Android 14: `CachedAppOptimizer` compacts an app 10 s after it became cached (its
///   freeze debounce; the compaction follows the freeze): its memory goes to zram.
/// - lmkd, while the level stands (PressureLab's warning for PSI's medium, critical for
///   critical), kills one process per event from `oom_score_adj` 1000 down to the level's
///   minimum: the highest adj first, within an adj the least recently slotted one (or the
///   heaviest, where the release says so).
/// - Trim levels (``notifications(_:previousLevel:)``) as ActivityManager sends them.
public struct LowMemoryKillerPolicy: TerminationPolicy, Sendable {
    /// `lmk`.
    public let name: String
    /// Whether lmkd kills. Without it (as on Fleet's phone, whose lmkd returned before killing),
    /// processes die by ActivityManager's cached limit and by Linux's OOM killer when an
    /// allocation finds no memory.
    public let lmkdKills: Bool
    /// What the apps' runtime reads when it collects in the background.
    public let backgroundCollection: BackgroundCollection

    /// - Parameters:
    ///   - lmkdKills: whether lmkd kills (``lmkdKills``).
    ///   - backgroundCollection: the runtime's collections in the background: Android 10's ART,
    ///     or Fleet's (``Termination/fleet``: named `fleet`, with lmkd's kill path off as on
    ///     Fleet's phone).
    public init(lmkdKills: Bool = true, backgroundCollection: BackgroundCollection = .wholeHeap) {
        self.lmkdKills = lmkdKills
        self.backgroundCollection = backgroundCollection
        switch (lmkdKills, backgroundCollection) {
        case (_, .hotObjectsOnly): self.name = lmkdKills ? "fleet-with-lmkd" : "fleet"
        case (true, .wholeHeap): self.name = "lmk"
        case (false, .wholeHeap): self.name = "lmk-without-lmkd"
        }
    }

    /// `oom_score_adj` values (``LowMemoryKillerRules``).
    public static let foregroundAdj = LowMemoryKillerRules.foregroundAdj
    /// `PERCEPTIBLE_APP_ADJ` (200).
    public static let perceptibleAdj = LowMemoryKillerRules.perceptibleAdj
    /// `SERVICE_ADJ` (500).
    public static let serviceAdj = LowMemoryKillerRules.serviceAdj
    /// `PREVIOUS_APP_ADJ` (700).
    public static let previousAppAdj = LowMemoryKillerRules.previousAppAdj
    /// The cached apps' adj slots (900 to 999).
    public static let cachedAdjRange = LowMemoryKillerRules.cachedAdjRange
    /// The adj of an app with no process.
    public static let notRunningAdj = LowMemoryKillerRules.notRunningAdj

    /// Cached apps ActivityManager keeps (``LowMemoryKillerRules/cachedProcessLimit``): 16.
    public static let cachedProcessLimit = LowMemoryKillerRules.cachedProcessLimit

    /// Empty processes ActivityManager keeps: `CUR_MAX_EMPTY_PROCESSES` =
    /// `computeEmptyProcessLimit(32)` = 32 / 2 (`ActivityManagerConstants`, Android 10; the
    /// same `totalProcessLimit / 2` in a later tree read, with `KEY_ENABLE_NEW_OOMADJ`, taken for
    /// Android 14 without a confirmed android-14 tag). An empty process is a cached one none of
    /// whose clients has activities (``ProcessSnapshot/isEmpty``); every modelled app keeps its
    /// activity while it lives, so its bound and isolated processes count with the cached apps
    /// instead (`LowMemoryKillerRules.cachedWalk(_:processes:)`). Its rule for empty processes idle 30 minutes
    /// (`MAX_EMPTY_TIME`, "empty for Ns") is not modelled.
    public static let emptyProcessLimit = 32 / 2

    /// Seconds a cached app waits before Android 14 freezes and then compacts it
    /// (`CachedAppOptimizer`: freezer debounce 10,000 ms; compaction runs after the freeze).
    public static let compactionDelaySeconds = 10.0

    /// lmkd's next kill, or ActivityManager's, or nil.
    public func nextAction(_ device: DeviceSnapshot) -> ReclaimAction? {
        let rules = device.system.lowMemoryKiller
        let cached = device.apps.filter { $0.state.hasProcess && !$0.isForeground && $0.oomScoreAdj >= Self.cachedAdjRange.lowerBound }
        // Only processes with activities count against the limit (`updateAndTrimProcessLSP`,
        // Android 10 `updateOomAdjLocked`: `PROCESS_STATE_CACHED_ACTIVITY` and
        // `CACHED_ACTIVITY_CLIENT`): the cached apps and their bound and isolated processes, not
        // Android 14's expired previous app, which sits at 900. The last of the walk past the
        // limit goes first; the rest follow at the next calls.
        let walk = LowMemoryKillerRules.cachedWalk(device.apps, processes: device.processes)
        if walk.count > Self.cachedProcessLimit, let last = walk.last {
            return .kill(last.name, .tooManyCached)
        }
        // Empty processes beyond the limit, the least recently used first ("empty #N").
        let empty = device.processes.filter(\.isEmpty)
        if empty.count > Self.emptyProcessLimit,
           let oldest = empty.min(by: { ($0.useOrder, $0.adjOrder) < ($1.useOrder, $1.adjOrder) }) {
            return .kill(oldest.name, .tooManyEmpty)
        }
        if rules.compactsCachedApps, device.hasCompressor, !rules.compactionDowngradedToNone(device),
           let due = cached.filter({ $0.state == .suspended && !$0.isCompressed && !$0.isFrozen })
               .filter({ ($0.cachedSince ?? .infinity) + Self.compactionDelaySeconds <= device.now })
               .filter({ !rules.throttlesFullCompaction(of: $0, now: device.now) })
               .min(by: { ($0.cachedSince ?? 0, $0.useOrder) < ($1.cachedSince ?? 0, $1.useOrder) }) {
            return .compact(due.name)
        }
        // With the kernel's books an allocation that found nothing to reclaim meets the kernel's
        // OOM killer (lmkd runs in its own process, between allocations).
        if device.oomTotalBytes != nil, device.emergencyBytes > 0 { return Self.kernelOOMVictim(device) }
        if lmkdKills, let reading = device.lmkdMinfree { return Self.minfreeVictim(device, reading) }
        guard device.emergencyBytes > 0 || device.bytesToFree > 0 else { return nil }
        guard lmkdKills else { return device.emergencyBytes > 0 ? Self.kernelOOMVictim(device) : nil }
        var level: PressureLevel = device.emergencyBytes > 0 ? .critical : device.level
        if rules.holdsEventLevel, device.killsInThisEvent > 0, device.emergencyBytes == 0 {
            // Android 10's polls after an event: the event's level, while memory is still short.
            guard device.usedBytes > device.lowPressureUsedBytes else { return nil }
            level = device.eventLevel
        }
        guard let (minimum, reason) = rules.minimumAdj(level: level, swapLow: rules.swapIsLow(device),
                                                       afterKill: device.killsInThisEvent > 0)
        else { return nil }
        let candidates = Self.processes(device).filter { $0.adj >= minimum }
        guard let highest = candidates.map(\.adj).max() else { return nil }
        let atAdj = candidates.filter { $0.adj == highest }
        let victim = rules.killsHeaviest(atAdj: highest)
            ? atAdj.max { ($0.bytes, -Int($0.adjOrder)) < ($1.bytes, -Int($1.adjOrder)) }!
            : atAdj.min { $0.adjOrder < $1.adjOrder }!
        return victim.isForeground ? .killForeground(reason) : .kill(victim.name, reason)
    }

    /// lmkd with minfree levels (android-10.0.0_r1 `lmkd.c` `mp_event_common`, `find_and_kill_process`):
    /// at a PSI event, the first row of the table both free memory and the page cache are under
    /// gives the lowest adj it kills; from adj 1000 down, the first adj with a process loses its
    /// heaviest (`ro.lmk.kill_heaviest_task=true` on both Pixels: device-common.mk of crosshatch
    /// and coral), one kill an event, memory read again before the next.
    static func minfreeVictim(_ device: DeviceSnapshot, _ reading: LmkdMinfreeReading) -> ReclaimAction? {
        guard reading.event, let minimum = reading.minimumAdj else { return nil }
        let candidates = processes(device).filter { $0.adj >= minimum }
        guard let highest = candidates.map(\.adj).max() else { return nil }
        let victim = candidates.filter { $0.adj == highest }
            .max { ($0.bytes, -Int($0.adjOrder)) < ($1.bytes, -Int($1.adjOrder)) }!
        return victim.isForeground ? .killForeground(.lmkdMinfree) : .kill(victim.name, .lmkdMinfree)
    }

    /// A process lmkd may pick: an app's main process or a secondary one.
    struct Victim {
        var name: String
        var adj: Int
        var adjOrder: UInt64
        var bytes: Int
        var isForeground: Bool
        var useOrder: UInt64
    }

    /// Every process lmkd knows: the apps' main processes (not frozen) and their secondary ones.
    static func processes(_ device: DeviceSnapshot) -> [Victim] {
        device.apps.filter { $0.state.hasProcess && !$0.isFrozen }.map {
            Victim(name: $0.name, adj: $0.oomScoreAdj, adjOrder: $0.adjOrder, bytes: $0.bytes, isForeground: $0.isForeground,
                   useOrder: $0.useOrder)
        } + device.processes.map {
            Victim(name: $0.name, adj: $0.oomScoreAdj, adjOrder: $0.adjOrder, bytes: $0.bytes, isForeground: false,
                   useOrder: $0.useOrder)
        }
    }

    /// Linux's OOM killer (`mm/oom_kill.c`, `oom_badness`): the process with the most points,
    /// its resident bytes plus `oom_score_adj` x total memory / 1000 (the total: RAM and swap
    /// with the kernel's books, ``DeviceSnapshot/oomTotalBytes``, else the budget); the
    /// allocating process (treated as in front) is left to the device.
    static func kernelOOMVictim(_ device: DeviceSnapshot) -> ReclaimAction? {
        let victims = processes(device).filter { !$0.isForeground }
        let total = device.oomTotalBytes ?? device.budgetBytes
        func points(_ process: Victim) -> Int {
            process.bytes.addingSaturating(process.adj.multipliedSaturating(by: total / 1000))
        }
        guard let victim = victims.max(by: { (points($0), -Int($0.useOrder)) < (points($1), -Int($1.useOrder)) }) else { return nil }
        return .kill(victim.name, .kernelOOM)
    }

    public func notifications(_ device: DeviceSnapshot, previousLevel: PressureLevel) -> [AppNotification] {
        device.system.trimMemory.notifications(device)
    }

    /// An app's `oom_score_adj` (``LowMemoryKillerRules/oomScoreAdj(isForeground:runningInBackground:cachedRank:isPrevious:cachedCount:recentlyInFront:)``).
    public static func oomScoreAdj(isForeground: Bool, runningInBackground mode: BackgroundMode?, cachedRank: Int?,
                                   isPrevious: Bool = false, cachedCount: Int? = nil, recentlyInFront: Bool = false) -> Int {
        LowMemoryKillerRules.oomScoreAdj(isForeground: isForeground, runningInBackground: mode, cachedRank: cachedRank,
                                         isPrevious: isPrevious, cachedCount: cachedCount, recentlyInFront: recentlyInFront)
    }
}
