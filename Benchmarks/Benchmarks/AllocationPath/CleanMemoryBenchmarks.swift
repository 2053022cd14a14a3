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

/// The raw work a clean mapping stands for: map the file, read it back (WILLNEED, then
/// MADV_POPULATE_READ) and touch every page, count the
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
    // The read-back CleanMapping makes: every 128 KiB window asked for, then every page read
    // and mapped before the call returns (MADV_POPULATE_READ, 22), then one byte a page.
    for offset in stride(from: 0, to: length, by: 128 << 10) {
        _ = posix_fadvise(fd, off_t(offset), off_t(min(128 << 10, length - offset)), POSIX_FADV_WILLNEED)
    }
    _ = madvise(base, length, 22)
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
            // In ABBA order, medians: strictly alternating the two (raw, ours, raw, ours) made
            // every other read-back of the file fast on this host whichever side it was
            // (a C harness of the same calls: 10 ms against 15 ms by position alone), which the
            // old minimum of 7 alternated pairs read as 157% at 16 MiB.
            var raw: [UInt64] = [], ours: [UInt64] = []
            func timeRaw() { raw.append(MonotonicClock.time { blackHole(rawMapTouchDrop(path: path, bytes: bytes)) }.nanoseconds) }
            func timeOurs() { ours.append(MonotonicClock.time { blackHole(mappingMapTouchDrop(path: FilePath(path), bytes: bytes)) }.nanoseconds) }
            for round in 0..<8 {
                if round % 2 == 0 { timeRaw(); timeOurs() } else { timeOurs(); timeRaw() }
            }
            func median(_ samples: [UInt64]) -> UInt64 { samples.sorted()[samples.count / 2] }
            benchmark.measurement(cleanRatio, Int(median(ours) * 100 / max(median(raw), 1)))
        }
    }
}

/// Raw `mincore` over a mapping of `bytes` bytes: what measuring one clean mapping's residency
/// cost before it was measured at the cost of what changed (one byte a page, every page looked up).
@inline(never)
func rawMincoreResidentPages(base: UnsafeMutableRawPointer, length: Int, page: Int) -> Int {
    var vector = [UInt8](repeating: 0, count: length / page)
    _ = vector.withUnsafeMutableBufferPointer { mincore(base, length, $0.baseAddress) }
    var resident = 0
    for flag in vector where flag & 1 != 0 { resident += 1 }
    return resident
}

let measureRatio = BenchmarkMetric.custom("measure/raw mincore time (%)", polarity: .prefersSmaller, useScalingFactor: false)
let readRatio = BenchmarkMetric.custom("read/raw mincore time (%)", polarity: .prefersSmaller, useScalingFactor: false)

/// Measuring one clean mapping's residency against raw `mincore` on the same range, in the same
/// process, with the file resident: a measurement (``CleanMapping/measureResidentBytes()``:
/// `cachestat` where the kernel has it) and a read between changes
/// (``CleanMapping/residentBytes()``: the last measurement), each over 64 calls, best of 7.
func cleanResidencyBenchmarks() {
    for bytes in [16 << 20, 64 << 20] {
        Benchmark("clean: residency of one \(bytes >> 20) MiB mapping / raw mincore",
                  configuration: .init(metrics: [measureRatio, readRatio], maxDuration: .seconds(2), maxIterations: 5)) { benchmark in
            let path = NSTemporaryDirectory() + "pressurelab-bench-residency-\(getpid())-\(bytes)"
            let mapping = try! CleanMapping.create(at: FilePath(path), bytes: bytes, seed: 5)
            defer { unlink(path) }
            mapping.touch()
            let page = CleanMapping.pageBytes, length = (bytes + page - 1) / page * page
            let fd = open(path, O_RDONLY)
            precondition(fd >= 0)
            defer { close(fd) }
            let base = mmap(nil, length, PROT_READ, MAP_SHARED, fd, 0)!
            defer { munmap(base, length) }
            precondition(rawMincoreResidentPages(base: base, length: length, page: page) * page == mapping.measureResidentBytes())
            var raw = UInt64.max, measured = UInt64.max, read = UInt64.max
            for _ in 0..<7 {
                raw = min(raw, MonotonicClock.time { for _ in 0..<64 { blackHole(rawMincoreResidentPages(base: base, length: length, page: page)) } }.nanoseconds)
                measured = min(measured, MonotonicClock.time { for _ in 0..<64 { blackHole(mapping.measureResidentBytes()) } }.nanoseconds)
                read = min(read, MonotonicClock.time { for _ in 0..<64 { blackHole(mapping.residentBytes()) } }.nanoseconds)
            }
            benchmark.measurement(measureRatio, Int(measured * 100 / max(raw, 1)))
            benchmark.measurement(readRatio, Int(read * 100 / max(raw, 1)))
        }
    }
}
