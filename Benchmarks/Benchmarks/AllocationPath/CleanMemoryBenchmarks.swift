// Clean mapped memory (CleanMapping) against raw mmap + touch + madvise/posix_fadvise of the
// same file, in the same process: map, touch every page, measure with mincore, drop.

import Benchmark
import Foundation
import PressureLab
import PressureLabHeap
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The raw work a clean mapping stands for: map the file, touch every page, count the
/// resident pages with mincore, drop them (MADV_DONTNEED, POSIX_FADV_DONTNEED), unmap.
@inline(never)
func rawMapTouchDrop(path: String, bytes: Int) -> UInt64 {
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let fd = open(path, O_RDONLY)
    precondition(fd >= 0)
    defer { close(fd) }
    let length = (bytes + page - 1) / page * page
    let base = mmap(nil, length, PROT_READ, MAP_SHARED, fd, 0)!
    _ = madvise(base, length, MADV_RANDOM)
    var sum: UInt64 = 0
    let bytesPointer = base.assumingMemoryBound(to: UInt8.self)
    for offset in stride(from: 0, to: bytes, by: page) { sum = sum &* 31 &+ UInt64(bytesPointer[offset]) }
    var vector = [UInt8](repeating: 0, count: length / page)
    _ = vector.withUnsafeMutableBufferPointer { mincore(base, length, $0.baseAddress) }
    _ = madvise(base, length, MADV_DONTNEED)
    _ = posix_fadvise(fd, 0, off_t(length), POSIX_FADV_DONTNEED)
    munmap(base, length)
    return sum &+ UInt64(vector.count)
}

@inline(never)
func mappingMapTouchDrop(path: FilePath, bytes: Int) -> UInt64 {
    let mapping = try! CleanMapping(mapping: path, bytes: bytes)
    let sum = mapping.touch()
    let resident = mapping.residentBytes()
    mapping.drop()
    return sum &+ UInt64(resident)
}

let cleanRatio = BenchmarkMetric.custom("mapping/raw time (%)", polarity: .prefersSmaller, useScalingFactor: false)

func cleanMemoryBenchmarks() {
    for bytes in [1 << 20, 16 << 20] {
        Benchmark("clean: map, touch, mincore, drop \(bytes >> 20) MiB / raw",
                  configuration: .init(metrics: [cleanRatio], maxDuration: .seconds(2), maxIterations: 5)) { benchmark in
            let path = NSTemporaryDirectory() + "pressurelab-bench-clean-\(getpid())-\(bytes)"
            let mapping = try! CleanMapping.create(at: FilePath(path), bytes: bytes, seed: 3)
            blackHole(mapping)
            defer { unlink(path) }
            var raw = UInt64.max, ours = UInt64.max
            for _ in 0..<7 {
                raw = min(raw, MonotonicClock.time { blackHole(rawMapTouchDrop(path: path, bytes: bytes)) }.nanoseconds)
                ours = min(ours, MonotonicClock.time { blackHole(mappingMapTouchDrop(path: FilePath(path), bytes: bytes)) }.nanoseconds)
            }
            benchmark.measurement(cleanRatio, Int(ours * 100 / max(raw, 1)))
        }
    }
}
