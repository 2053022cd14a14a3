#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Real time for latencies: a monotonic clock in nanoseconds (`CLOCK_MONOTONIC`).
///
/// Simulated time (aging, idle steps) is separate and never read from here.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point; only differences mean anything.
    @inline(__always)
    public static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    /// Runs `body` and returns its result with the nanoseconds it took.
    @inline(__always)
    public static func time<Result>(_ body: () throws -> Result) rethrows -> (result: Result, nanoseconds: UInt64) {
        let start = now()
        let result = try body()
        return (result, now() &- start)
    }
}
