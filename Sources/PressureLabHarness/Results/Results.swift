// Over 300 lines: the results file's types stay together, as the format is one
// (docs/formats.md, "Results"), each field with its `///` line.
import Foundation
import PressureLab
import PressureLabHeap

/// The results file, `pressurelab.results/1` (docs/formats.md, "Results"). Fields may be
/// added; none of these may be renamed or dropped within version 1.
public struct ResultsFile: Codable, Sendable {
    /// The format and its version, `pressurelab.results/1`.
    public var schema = "pressurelab.results/1"
    /// The program that wrote the file.
    public var tool: Tool
    /// The machine the runs ran on: its cores, memory and allocator.
    public var host: Host
    /// Every run, in the order they ran.
    public var runs: [RunResult]

    /// The program that wrote a results file.
    public struct Tool: Codable, Sendable {
        /// PressureLab's version (`PressureLabVersion.current`).
        public var version: String
    }

    /// The machine the runs measured: bytes depend on its allocator and its options.
    public struct Host: Codable, Sendable {
        /// The cores this process may use.
        public var cpus: Int
        /// The memory this process may use, in bytes: the least of the host's memory, cgroup limit
        /// and resource limits.
        public var memoryBytes: Int
        /// The allocator that measured every byte (`jemalloc 5.3.0-...`).
        public var allocator: String
        /// The allocator's options that change what it measures (docs/limits.md, "The allocator's
        /// options"), by name.
        public var allocatorOptions: [String: String]
        /// The device profile device times were modelled with (added in version 1).
        public var profile: Profile?
        /// The compressors' libraries by codec, `{"lz4": "liblz4 1.9.4", ...}` (added in
        /// version 1): compressed sizes depend on them.
        public var compressors: [String: String]?
    }

    /// A device profile, named, with a hash of its file.
    public struct Profile: Codable, Sendable, Equatable {
        /// The profile's name (`iphone-xs-2018`, or a file's `name:`).
        public var name: String
        /// A hash of the profile file's bytes: two runs with one hash had the same costs.
        public var hash: String
        /// `ios` or `android`.
        public var platform: String
    }

    /// A results file for runs made on this host, with its allocator and compressors read now.
    ///
    /// - Parameters:
    ///   - version: the tool's version.
    ///   - runs: the runs, in order.
    ///   - profile: the device profile of the runs' device times, if one was in force.
    /// - Throws: `HeapError` when the process does not allocate through jemalloc.
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
    /// The scenario's name.
    public var scenario: String
    /// The cleanup policy every app used.
    public var policy: Cleanup
    /// The device's termination policy.
    public var termination: Termination
    /// The seed of the run's random steps and contents.
    public var seed: UInt64
    /// Which repeat of the same cell this is, from 1 (`--repeat`).
    public var `repeat`: Int
    /// The run's figures.
    public var metrics: RunMetrics
    /// What each controller retained at the end of the run, by app and controller.
    public var owners: [Owner]
    /// One entry a step: the step's label, the bytes retained after it and the pressure level.
    public var timeline: [TimelineEntry]
    /// Owners at the step of peak retained bytes (added in version 1).
    public var peakOwners: [Owner]?
    /// All apps' retained bytes at the end of each cycle of the scenario's `repeat:`
    /// (added in version 1; absent without one): the series ``RunMetrics/growthPerCycleBytes``
    /// is the slope of (docs/formats.md, "Growth per cycle").
    public var cycleRetainedBytes: [Int]?
    /// Each app's retained bytes at the end of each cycle, by app (added in version 1; absent
    /// without a `repeat:`).
    public var cycleRetainedBytesByApp: [String: [Int]]?
    /// The device profile of the run's device times (added in version 1).
    public var profile: String?
    /// Where the run's own files were: `disk` or `tmpfs` (added in version 1; `RunStorage`).
    public var storage: RunStorage.Kind?
    /// The scenario's `device.memory_scale` when more than 1 (added in version 1): 1/N of the
    /// memory was simulated, every byte figure here is at full size (``atFullSize(memoryScale:)``).
    public var memoryScale: Int?

    /// Bytes retained by one controller of one app.
    public struct Owner: Codable, Sendable, Equatable {
        /// The app's name.
        public var app: String
        /// The controller's screen name (or the app-wide data's owner).
        public var controller: String
        /// The bytes it held, measured.
        public var retainedBytes: Int
        /// The owner's growth a cycle of the scenario's `repeat:`, in bytes (added in version
        /// 1; only on an owner that grows or shrinks, in `owners`).
        public var growthPerCycleBytes: Int?
    }

    /// A step of the run as the timeline shows it.
    public struct TimelineEntry: Codable, Sendable, Equatable {
        /// The step's index, from 0.
        public var step: Int
        /// The action's label (`UserAction/label`: `push detail`, `idle 30.0s`), with
        /// ` (skipped)` when it did not apply.
        public var event: String
        /// All apps' retained bytes after the step, measured.
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

        /// An entry with each field given (readers and tests).
        public init(step: Int, event: String, retainedBytes: Int, level: PressureLevel, marks: [TimelineMark]?, aliveApps: Int?) {
            self.step = step
            self.event = event
            self.retainedBytes = retainedBytes
            self.level = level
            self.marks = marks
            self.aliveApps = aliveApps
        }

        /// Reads an entry, its level written as a name (`normal`, `warning`, `critical`).
        /// - Throws: `DecodingError` for a missing field or an unknown level.
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

        /// Writes the entry, its level as a name.
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
    /// How many latencies were recorded.
    public var count: Int
    /// The median, in nanoseconds.
    public var p50: UInt64
    /// The 90th percentile, in nanoseconds.
    public var p90: UInt64
    /// The 99th percentile, in nanoseconds.
    public var p99: UInt64
    /// The largest, in nanoseconds.
    public var max: UInt64
    /// True when a latency was over the histograms' range (one hour) and was counted at it:
    /// the percentiles are lower bounds (absent otherwise).
    public var saturated: Bool?

    /// A summary with each figure given.
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
    /// The most bytes all apps retained at once (after a step), measured.
    public var peakRetainedBytes: Int
    /// The bytes retained after the last step.
    public var finalRetainedBytes: Int
    /// The mean over the steps of the bytes retained after each.
    public var meanRetainedBytes: Int
    /// Memory warnings delivered to apps (each app counted).
    public var warnings: Int
    /// Views released by a cleanup policy or an unload cycle.
    public var viewUnloads: Int
    /// Views loaded again after being released.
    public var viewReloads: Int
    /// Backing stores (drawn bitmaps) released.
    public var backingStorePurges: Int
    /// Caches released.
    public var cachePurges: Int
    /// Processes killed by the termination policy or a limit.
    public var kills: Int
    /// Apps frozen (their memory written to the freezer's file).
    public var freezes: Int
    /// Launches that started a process.
    public var coldLaunches: Int
    /// Returns to an app that was still alive (hot launches).
    public var resumes: Int
    /// Apps in front that died because an allocation was refused.
    public var outOfMemoryCrashes: Int
    /// User data lost: typed but not saved when the app died.
    public var dataLossBytes: Int
    /// The mean number of apps alive in the background, over the steps.
    public var cachedAppsMean: Double
    /// Host time of view reloads (measured, this machine's).
    public var viewReloadLatencyNs: LatencySummary
    /// Host time of cold launches (measured).
    public var coldLaunchLatencyNs: LatencySummary
    /// Host time of resumes (measured).
    public var resumeLatencyNs: LatencySummary
    // Added in version 1 (allowed): more detail.
    /// Frozen apps read back.
    public var thaws: Int
    /// Models released by a cleanup policy.
    public var modelReleases: Int
    /// Host time of redrawing backing stores (measured).
    public var backingStoreRedrawLatencyNs: LatencySummary
    /// Host time of refilling caches (measured).
    public var cacheRefillLatencyNs: LatencySummary
    /// Host time of reading models back (measured).
    public var modelReloadLatencyNs: LatencySummary
    /// Host time of thaws (measured).
    public var thawLatencyNs: LatencySummary
    /// Total real time spent reloading (all kinds), nanoseconds.
    public var reloadTimeNs: UInt64
    /// Steps that did not apply (a pop with nothing to pop, a push with no navigation).
    public var skippedSteps: Int
    /// Steps the script ran (a `repeat` counts each of its steps).
    public var steps: Int
    // Device time (added in version 1; present when a device profile is in force): the work
    // counted times the profile's costs, modelled, deterministic. Never measured.
    /// Device time of cold launches.
    public var coldLaunchDeviceNs: LatencySummary?
    /// Device time of resumes.
    public var resumeDeviceNs: LatencySummary?
    /// Device time of thaws.
    public var thawDeviceNs: LatencySummary?
    /// Device time of view reloads.
    public var viewReloadDeviceNs: LatencySummary?
    /// Device time of backing-store redraws.
    public var backingStoreRedrawDeviceNs: LatencySummary?
    /// Device time of cache refills.
    public var cacheRefillDeviceNs: LatencySummary?
    /// Device time of model reads.
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
    /// The most bytes the compressed pool held.
    public var compressedBytesPeak: Int?
    /// The most apps alive at once (added in version 1).
    public var cachedAppsMax: Int?
    /// Regions compressed.
    public var compressions: Int?
    /// Regions decompressed when touched.
    public var decompressions: Int?
    /// All bytes compressed over their compressed size (measured; 0 when nothing was).
    public var compressionRatio: Double?
    /// Times the device compressed a suspended app (added in version 1).
    public var appsCompressed: Int?
    /// The app life cycle beyond launch and Home (added in version 1): interruptions, launches
    /// into the background, apps Home terminated (before iOS 4), and apps suspended when
    /// their background time ran out. Absent when none happened.
    public var interruptions: Int?
    /// Launches straight into the background.
    public var backgroundLaunches: Int?
    /// Apps Home terminated (before iOS 4).
    public var homeTerminations: Int?
    /// Apps suspended when their background time ran out.
    public var backgroundExpirations: Int?
    /// Clean file-backed memory (apps' code and resources, `clean:`) resident, measured with
    /// `mincore` after each step: its peak and mean, and what the device dropped under
    /// pressure (added in version 1). `peakRetainedBytes` stays dirty memory (jemalloc).
    public var cleanResidentBytesPeak: Int?
    /// The mean of clean file-backed memory resident, over the steps.
    public var cleanResidentBytesMean: Int?
    /// Clean bytes the device dropped under pressure.
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
    /// absent when none), and the first, located (`PolicyMistake`).
    public var policyMistakes: Int?
    /// The first of them, located (its step, policy, call, action and why).
    public var firstPolicyMistake: String?
    /// Growth per cycle (added in version 1; docs/formats.md, "Growth per cycle"): the
    /// least-squares slope of the bytes retained at the end of each cycle of the scenario's
    /// `repeat:`, the first cycle left out, in bytes a cycle; 0 with fewer than three cycles,
    /// or without a `repeat:`.
    public var growthPerCycleBytes: Int?
    /// The cycles of the scenario's `repeat:` (absent without one).
    public var cycles: Int?
    /// How well a line fits the cycles after the first: R², from 0 to 1 (absent without a
    /// `repeat:`).
    public var growthFit: Double?
}
