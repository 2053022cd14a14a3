import Foundation
import SystemPackage

/// The CPUs this process may use: the ones it may run on (its affinity), within its
/// cgroup's CPU quota (`cpu.max`, v2), at least 1. What a sweep's `--jobs` defaults to.
package enum HostCPU {
    /// Reads the current host; the quota's path is a parameter so that tests can feed a file.
    package static func availableCores(cpuMax: String = "/sys/fs/cgroup/cpu.max") -> Int {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let quota = (try? HostFiles.contents(of: FilePath(cpuMax))).flatMap { parseCPUMax(String(decoding: $0, as: UTF8.self)) }
        return max(1, min(cores, quota ?? cores))
    }

    /// The cores a `cpu.max` line allows (`QUOTA PERIOD`, rounded up), or nil for `max`
    /// (no quota) or an unreadable line.
    package static func parseCPUMax(_ text: String) -> Int? {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let quota = Double(fields[0]), let period = Double(fields[1]), period > 0, quota > 0 else { return nil }
        return max(1, Int((quota / period).rounded(.up)))
    }
}
