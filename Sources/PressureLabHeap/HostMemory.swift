import Foundation
import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// The process's address-space limit (`RLIMIT_AS`), or nil when unlimited.
    public var addressSpaceLimitBytes: Int?
    /// The process's data-segment limit (`RLIMIT_DATA`, which covers `mmap` on Linux 4.7+),
    /// or nil when unlimited.
    public var dataLimitBytes: Int?

    /// The share of the effective limit a simulation may use by default.
    public static let defaultSafeShare = 0.5

    public init(physicalBytes: Int, cgroupLimitBytes: Int?, addressSpaceLimitBytes: Int? = nil, dataLimitBytes: Int? = nil) {
        self.physicalBytes = physicalBytes
        self.cgroupLimitBytes = cgroupLimitBytes
        self.addressSpaceLimitBytes = addressSpaceLimitBytes
        self.dataLimitBytes = dataLimitBytes
    }

    /// The smallest of physical memory, the cgroup limit and the process limits.
    public var effectiveLimit: Int {
        [physicalBytes, cgroupLimitBytes, addressSpaceLimitBytes, dataLimitBytes]
            .compactMap { $0 }.filter { $0 > 0 }.min() ?? physicalBytes
    }

    /// The bytes a simulation may allocate: `share` of the effective limit.
    public func safeLimit(share: Double = HostMemory.defaultSafeShare) -> Int {
        Int(Double(effectiveLimit) * share)
    }

    /// Reads the current host. The paths are parameters so that tests can feed files.
    public static func current(meminfo: String = "/proc/meminfo",
                               cgroupV2Max: String = "/sys/fs/cgroup/memory.max",
                               cgroupV1Limit: String = "/sys/fs/cgroup/memory/memory.limit_in_bytes") -> HostMemory {
        func text(_ path: String) -> String? {
            (try? HostFiles.contents(of: FilePath(path))).map { String(decoding: $0, as: UTF8.self) }
        }
        let physical = text(meminfo).flatMap(parseMemTotal) ?? Int(ProcessInfo.processInfo.physicalMemory)
        let limit = text(cgroupV2Max).flatMap(parseCgroupLimit) ?? text(cgroupV1Limit).flatMap(parseCgroupLimit)
        return HostMemory(physicalBytes: physical, cgroupLimitBytes: limit,
                          addressSpaceLimitBytes: processLimit(Self.addressSpaceResource),
                          dataLimitBytes: processLimit(Self.dataResource))
    }

    #if canImport(Glibc)
    private static let addressSpaceResource = __rlimit_resource_t(RLIMIT_AS.rawValue)
    private static let dataResource = __rlimit_resource_t(RLIMIT_DATA.rawValue)
    #else
    private static let addressSpaceResource = RLIMIT_AS
    private static let dataResource = RLIMIT_DATA
    #endif

    /// A process resource limit (its soft value), or nil when unlimited or unreadable.
    #if canImport(Glibc)
    private static func processLimit(_ resource: __rlimit_resource_t) -> Int? {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur != rlim_t.max, limit.rlim_cur < rlim_t(Int.max) else { return nil }
        return Int(limit.rlim_cur)
    }
    #else
    private static func processLimit(_ resource: Int32) -> Int? {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur != RLIM_INFINITY, limit.rlim_cur < rlim_t(Int.max) else { return nil }
        return Int(limit.rlim_cur)
    }
    #endif

    /// The `MemTotal:` line of `/proc/meminfo`, in bytes.
    ///
    /// Read on the UTF-8 bytes: splitting the file (about 1.5 KB) into `Character` lines took
    /// about 2.5 million instructions a call, and every run reads it (callgrind, 2026-11-24).
    static func parseMemTotal(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { bytes -> Int? in
            for line in bytes.split(separator: UInt8(ascii: "\n")) where line.starts(with: "MemTotal:".utf8) {
                let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
                guard fields.count >= 2, let kibibytes = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
                return kibibytes * 1024
            }
            return nil
        }
    }

    /// A cgroup limit file: a number of bytes, or `max` (no limit). Absurdly large v1
    /// values (the kernel's "unlimited") count as no limit.
    static func parseCgroupLimit(_ text: String) -> Int? {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard value != "max", let bytes = Int(value), bytes > 0, bytes < (1 << 60) else { return nil }
        return bytes
    }
}
