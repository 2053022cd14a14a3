import Foundation
import PressureLab
import PressureLabHeap

/// The results file, `pressurelab.results/1` (docs/formats.md, "Results"). Fields may be
/// added; none of these may be renamed or dropped within version 1.
public struct ResultsFile: Codable, Sendable {
    public var schema = "pressurelab.results/1"
    public var tool: Tool
    public var host: Host
    public var runs: [RunResult]

    public struct Tool: Codable, Sendable {
        public var version: String
    }

    public struct Host: Codable, Sendable {
        public var cpus: Int
        public var memoryBytes: Int
        public var allocator: String
        public var allocatorOptions: [String: String]
        /// The device profile device times were modelled with (added in version 1).
        public var profile: Profile?
        /// The compressors' libraries by codec, `{"lz4": "liblz4 1.9.4", ...}` (added in
        /// version 1): compressed sizes depend on them.
        public var compressors: [String: String]?
    }

    /// A device profile, named, with a hash of its file.
    public struct Profile: Codable, Sendable, Equatable {
        public var name: String
        public var hash: String
        public var platform: String
    }

    public init(version: String, runs: [RunResult], profile: DeviceProfile? = nil) throws(HeapError) {
        let allocator = try Heap.allocatorInfo()
        tool = Tool(version: version)
        host = Host(cpus: ProcessInfoShim.processorCount, memoryBytes: HostMemory.current().effectiveLimit,
                    allocator: allocator.name, allocatorOptions: allocator.options,
                    profile: profile.map { Profile(name: $0.name, hash: $0.hash, platform: $0.platform.rawValue) },
                    compressors: PageCodec.libraries)
        self.runs = runs
    }
}

/// One run: a scenario under a cleanup policy and a termination policy, a seed and a repeat.
public struct RunResult: Codable, Sendable {
    public var scenario: String
    public var policy: Cleanup
    public var termination: Termination
    public var seed: UInt64
    public var `repeat`: Int
    public var metrics: RunMetrics
    public var owners: [Owner]
    public var timeline: [TimelineEntry]
    /// Owners at the step of peak retained bytes (added in version 1).
    public var peakOwners: [Owner]?
    /// The device profile of the run's device times (added in version 1).
    public var profile: String?
    /// Where the run's own files were: `disk` or `tmpfs` (added in version 1; ``RunStorage``).
    public var storage: RunStorage.Kind?

    public struct Owner: Codable, Sendable, Equatable {
        public var app: String
        public var controller: String
        public var retainedBytes: Int
    }

    public struct TimelineEntry: Codable, Sendable, Equatable {
        public var step: Int
        /// The action's label (``UserAction/label``: `push detail`, `idle 30.0s`), with
        /// ` (skipped)` when it did not apply.
        public var event: String
        public var retainedBytes: Int
        /// The pressure level after the step (written as `normal`, `warning`, `critical`).
        public var level: PressureLevel
        /// What the device did during the step (added in version 1; omitted when empty).
        public var marks: [TimelineMark]?
        /// Apps with a process after the step (running, suspended or frozen; added in version 1).
        public var aliveApps: Int?

        /// The kind of action the step performed (nil for an event this build does not know).
        public var actionKind: UserAction.Kind? {
            UserAction.Kind(rawValue: String(event.prefix { $0 != " " }))
        }

        enum CodingKeys: String, CodingKey { case step, event, retainedBytes, level, marks, aliveApps }

        public init(step: Int, event: String, retainedBytes: Int, level: PressureLevel, marks: [TimelineMark]?, aliveApps: Int?) {
            self.step = step
            self.event = event
            self.retainedBytes = retainedBytes
            self.level = level
            self.marks = marks
            self.aliveApps = aliveApps
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            step = try container.decode(Int.self, forKey: .step)
            event = try container.decode(String.self, forKey: .event)
            retainedBytes = try container.decode(Int.self, forKey: .retainedBytes)
            let levelName = try container.decode(String.self, forKey: .level)
            guard let level = PressureLevel.allCases.first(where: { $0.description == levelName }) else {
                throw DecodingError.dataCorruptedError(forKey: .level, in: container,
                                                       debugDescription: "unknown pressure level '\(levelName)'; levels are normal, warning, critical")
            }
            self.level = level
            marks = try container.decodeIfPresent([TimelineMark].self, forKey: .marks)
            aliveApps = try container.decodeIfPresent(Int.self, forKey: .aliveApps)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(step, forKey: .step)
            try container.encode(event, forKey: .event)
            try container.encode(retainedBytes, forKey: .retainedBytes)
            try container.encode(level.description, forKey: .level)
            try container.encodeIfPresent(marks, forKey: .marks)
            try container.encodeIfPresent(aliveApps, forKey: .aliveApps)
        }
    }
}

/// A latency distribution in nanoseconds.
public struct LatencySummary: Codable, Sendable, Equatable {
    public var count: Int
    public var p50: UInt64
    public var p90: UInt64
    public var p99: UInt64
    public var max: UInt64
    /// True when a latency was over the histograms' range (one hour) and was counted at it:
    /// the percentiles are lower bounds (absent otherwise).
    public var saturated: Bool?

    public init(count: Int, p50: UInt64, p90: UInt64, p99: UInt64, max: UInt64) {
        self.count = count
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.max = max
    }

    /// Exact percentiles of a few samples (nearest rank), for figures kept per app.
    public init(samples: [UInt64]) {
        let sorted = samples.sorted()
        func rank(_ fraction: Double) -> UInt64 {
            guard !sorted.isEmpty else { return 0 }
            return sorted[Swift.max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1)]
        }
        self.init(count: sorted.count, p50: rank(0.5), p90: rank(0.9), p99: rank(0.99), max: sorted.last ?? 0)
    }

    init(_ summary: ReloadStatistics.Summary) {
        count = summary.count
        p50 = summary.p50
        p90 = summary.p90
        p99 = summary.p99
        max = summary.max
        saturated = summary.saturated ? true : nil
    }
}

/// A run's figures. Bytes are measured (jemalloc); latencies are real time.
public struct RunMetrics: Codable, Sendable {
    public var peakRetainedBytes: Int
    public var finalRetainedBytes: Int
    public var meanRetainedBytes: Int
    public var warnings: Int
    public var viewUnloads: Int
    public var viewReloads: Int
    public var backingStorePurges: Int
    public var cachePurges: Int
    public var kills: Int
    public var freezes: Int
    public var coldLaunches: Int
    public var resumes: Int
    public var outOfMemoryCrashes: Int
    public var dataLossBytes: Int
    public var cachedAppsMean: Double
    public var viewReloadLatencyNs: LatencySummary
    public var coldLaunchLatencyNs: LatencySummary
    public var resumeLatencyNs: LatencySummary
    // Added in version 1 (allowed): more detail.
    public var thaws: Int
    public var modelReleases: Int
    public var backingStoreRedrawLatencyNs: LatencySummary
    public var cacheRefillLatencyNs: LatencySummary
    public var modelReloadLatencyNs: LatencySummary
    public var thawLatencyNs: LatencySummary
    /// Total real time spent reloading (all kinds), nanoseconds.
    public var reloadTimeNs: UInt64
    /// Steps that did not apply (a pop with nothing to pop, a push with no navigation).
    public var skippedSteps: Int
    public var steps: Int
    // Device time (added in version 1; present when a device profile is in force): the work
    // counted times the profile's costs, modelled, deterministic. Never measured.
    public var coldLaunchDeviceNs: LatencySummary?
    public var resumeDeviceNs: LatencySummary?
    public var thawDeviceNs: LatencySummary?
    public var viewReloadDeviceNs: LatencySummary?
    public var backingStoreRedrawDeviceNs: LatencySummary?
    public var cacheRefillDeviceNs: LatencySummary?
    public var modelReloadDeviceNs: LatencySummary?
    /// Total device time of every reload, nanoseconds.
    public var reloadDeviceTimeNs: UInt64?
    /// The work counted in the run, over all apps (what device time is computed from).
    public var work: WorkCounters?
    /// The device time of all of ``work``, cost by cost (added in version 1; with a profile):
    /// `{"storage_read": N, ...}`, keyed by the profile's cost names, only costs with time.
    /// Work charged outside any latency (not part of a launch or a reload) shows here too.
    public var deviceTimeByCostNs: [String: UInt64]?
    // The in-RAM compressed pool (added in version 1): the most bytes it held, regions (a
    // controller's memory, an app's app-wide data) compressed and decompressed when touched,
    // and all bytes compressed over their compressed size (measured with the real codec; 0
    // when nothing was compressed).
    public var compressedBytesPeak: Int?
    /// The most apps alive at once (added in version 1).
    public var cachedAppsMax: Int?
    public var compressions: Int?
    public var decompressions: Int?
    public var compressionRatio: Double?
    /// Times the device compressed a suspended app (added in version 1).
    public var appsCompressed: Int?
    /// The app life cycle beyond launch and Home (added in version 1): interruptions, launches
    /// into the background, apps Home terminated (before iOS 4), and apps suspended when
    /// their background time ran out. Absent when none happened.
    public var interruptions: Int?
    public var backgroundLaunches: Int?
    public var homeTerminations: Int?
    public var backgroundExpirations: Int?
    /// Clean file-backed memory (apps' code and resources, `clean:`) resident, measured with
    /// `mincore` after each step: its peak and mean, and what the device dropped under
    /// pressure (added in version 1). `peakRetainedBytes` stays dirty memory (jemalloc).
    public var cleanResidentBytesPeak: Int?
    public var cleanResidentBytesMean: Int?
    public var cleanBytesDropped: Int?
    /// The peak of the apps' footprint as their platform counts it (added in version 1):
    /// XNU's `phys_footprint` on iOS (dirty, compressed memory at its uncompressed size, clean
    /// pages left out), Android's PSS on Android (resident dirty plus clean pages mapped by a
    /// live process, zram left out).
    public var platformFootprintBytesPeak: Int?
    /// Resumes (hot launches) by app, in device time (added in version 1; with a profile).
    public var resumeDeviceNsByApp: [String: LatencySummary]?
    /// Figures that hit a bound and are reported at it (added in version 1; absent when none):
    /// a latency over the histograms' hour, a total at `UInt64.max`. Each is a lower bound.
    public var saturatedMetrics: [String]?
    /// Apps killed in the background by the system's own limits (added in version 1; absent
    /// when none; part of ``kills``): XNU's per-process limit, ActivityManager's cached and
    /// empty process counts. ``kills`` less these are the termination policy's kills.
    public var limitKills: Int?
    /// The termination policy's kills: ``kills`` less ``limitKills``.
    public var policyKills: Int { kills - (limitKills ?? 0) }
    /// Mistakes of the policies counted with `--lenient-policies` (added in version 1;
    /// absent when none), and the first, located (``PolicyMistake``).
    public var policyMistakes: Int?
    public var firstPolicyMistake: String?
}
