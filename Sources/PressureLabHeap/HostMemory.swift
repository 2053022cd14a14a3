import Foundation

/// How much memory the host lets this process use: physical memory, or a smaller
/// cgroup limit when the process runs inside one.
///
/// Scenario sizes and view trees are checked against ``safeLimit`` before anything is
/// allocated, so that a simulation never gets the harness itself killed.
public struct HostMemory: Sendable, Equatable {
    /// Physical memory (`MemTotal` in `/proc/meminfo`), in bytes.
    public var physicalBytes: Int
    /// The cgroup memory limit in bytes (`memory.max`, v2, or `memory.limit_in_bytes`, v1),
    /// or nil when there is none.
    public var cgroupLimitBytes: Int?

    /// The share of the effective limit a simulation may use by default.
    public static let defaultSafeShare = 0.5

    public init(physicalBytes: Int, cgroupLimitBytes: Int?) {
        self.physicalBytes = physicalBytes
        self.cgroupLimitBytes = cgroupLimitBytes
    }

    /// The smaller of physical memory and the cgroup limit.
    public var effectiveLimit: Int {
        if let cgroupLimitBytes, cgroupLimitBytes > 0 { return min(physicalBytes, cgroupLimitBytes) }
        return physicalBytes
    }

    /// The bytes a simulation may allocate: `share` of the effective limit.
    public func safeLimit(share: Double = HostMemory.defaultSafeShare) -> Int {
        Int(Double(effectiveLimit) * share)
    }

    /// Reads the current host. The paths are parameters so that tests can feed files.
    public static func current(meminfo: String = "/proc/meminfo",
                               cgroupV2Max: String = "/sys/fs/cgroup/memory.max",
                               cgroupV1Limit: String = "/sys/fs/cgroup/memory/memory.limit_in_bytes") -> HostMemory {
        let physical = (try? String(contentsOfFile: meminfo, encoding: .utf8)).flatMap(parseMemTotal)
            ?? Int(ProcessInfo.processInfo.physicalMemory)
        let limit = (try? String(contentsOfFile: cgroupV2Max, encoding: .utf8)).flatMap(parseCgroupLimit)
            ?? (try? String(contentsOfFile: cgroupV1Limit, encoding: .utf8)).flatMap(parseCgroupLimit)
        return HostMemory(physicalBytes: physical, cgroupLimitBytes: limit)
    }

    /// The `MemTotal:` line of `/proc/meminfo`, in bytes.
    static func parseMemTotal(_ text: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix("MemTotal:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, let kibibytes = Int(fields[1]) else { return nil }
            return kibibytes * 1024
        }
        return nil
    }

    /// A cgroup limit file: a number of bytes, or `max` (no limit). Absurdly large v1
    /// values (the kernel's "unlimited") count as no limit.
    static func parseCgroupLimit(_ text: String) -> Int? {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard value != "max", let bytes = Int(value), bytes > 0, bytes < (1 << 60) else { return nil }
        return bytes
    }
}
