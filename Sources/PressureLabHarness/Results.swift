import PressureLab
import PressureLabHeap

/// The results file, `pressurelab.results/1` (`shared/design.md` section 6). Fields may be
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
    }

    public init(version: String, runs: [RunResult]) throws(HeapError) {
        let allocator = try Heap.allocatorInfo()
        tool = Tool(version: version)
        host = Host(cpus: ProcessInfoShim.processorCount, memoryBytes: HostMemory.current().effectiveLimit,
                    allocator: allocator.name, allocatorOptions: allocator.options)
        self.runs = runs
    }
}

/// One run: a scenario under a cleanup policy and a termination policy, a seed and a repeat.
public struct RunResult: Codable, Sendable {
    public var scenario: String
    public var policy: String
    public var termination: String
    public var seed: UInt64
    public var `repeat`: Int
    public var metrics: RunMetrics
    public var owners: [Owner]
    public var timeline: [TimelineEntry]
    /// Owners at the step of peak retained bytes (added in version 1).
    public var peakOwners: [Owner]?

    public struct Owner: Codable, Sendable, Equatable {
        public var app: String
        public var controller: String
        public var retainedBytes: Int
    }

    public struct TimelineEntry: Codable, Sendable, Equatable {
        public var step: Int
        public var event: String
        public var retainedBytes: Int
        public var level: String
        /// What the device did during the step: `kill NAME`, `cold launch NAME`, `resume NAME`,
        /// `thaw NAME`, `freeze`, `oom`, `warning` (added in version 1; omitted when empty).
        public var marks: [String]?
    }
}

/// A latency distribution in nanoseconds.
public struct LatencySummary: Codable, Sendable, Equatable {
    public var count: Int
    public var p50: UInt64
    public var p90: UInt64
    public var p99: UInt64
    public var max: UInt64

    init(_ summary: ReloadStatistics.Summary) {
        count = summary.count
        p50 = summary.p50
        p90 = summary.p90
        p99 = summary.p99
        max = summary.max
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
}

import Foundation

enum ProcessInfoShim {
    static var processorCount: Int { ProcessInfo.processInfo.activeProcessorCount }
}
