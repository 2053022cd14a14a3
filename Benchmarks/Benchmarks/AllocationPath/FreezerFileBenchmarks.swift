// The freezer's and swap's files (issue 57): 64 MiB written and read back through
// `UnbufferedFile` (O_DIRECT in aligned 1 MiB chunks where the file system takes it) against
// the floor it approaches, two `memcpy`s of the same bytes (one out, one back), and against
// the buffered path it replaced (`SequentialFile`: write(2) and read(2) through the page
// cache, what `FreezerFile` used before). CPU time (user + system, `getrusage`) is the
// measure: the kernel's copy into and out of the page cache, its writeback and its reclaim are
// what the unbuffered path removes; waiting for the device is not CPU. All in one process,
// best of 3 alternated runs, files in `$TMPDIR` (the disk, where the device experiment's
// Pixel 4 runs keep them).

import Benchmark
import Foundation
import PressureLabHeap
import SystemPackage

let fileCPUPercent = BenchmarkMetric.custom("file / 2 memcpy CPU (%)", polarity: .prefersSmaller, useScalingFactor: false)
let bufferedCPUPercent = BenchmarkMetric.custom("buffered file / 2 memcpy CPU (%)", polarity: .prefersSmaller, useScalingFactor: false)

/// User plus system CPU time of this process so far, nanoseconds.
func processCPUNanoseconds() -> UInt64 {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    func nanoseconds(_ time: timeval) -> UInt64 { UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_usec) * 1_000 }
    return nanoseconds(usage.ru_utime) + nanoseconds(usage.ru_stime)
}

/// CPU time of `body`, nanoseconds.
func cpuTime(_ body: () throws -> Void) rethrows -> UInt64 {
    let start = processCPUNanoseconds()
    try body()
    return processCPUNanoseconds() - start
}

let freezerFileBenchmarks: @Sendable () -> Void = {
    let bytes = 64 << 20, piece = 8 << 20
    let source = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes, alignment: 64)
    let restored = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes, alignment: 64)
    ContentFill(ratio: 2.5, pageBytes: 4096, seed: 1).fill(source, salt: 1)
    memset(restored.baseAddress!, 1, bytes)
    let path = FilePath(NSTemporaryDirectory()).appending("pressurelab-bench-\(getpid()).frozen")

    func unbufferedRoundTrip() throws {
        let writer = try UnbufferedFile(path: path, mode: .write, direct: true)
        for offset in stride(from: 0, to: bytes, by: piece) {
            try writer.write(UnsafeRawBufferPointer(rebasing: source[offset..<(offset + piece)]))
        }
        try writer.finish()
        writer.close()
        let reader = try UnbufferedFile(path: path, mode: .read, direct: true)
        for offset in stride(from: 0, to: bytes, by: piece) {
            try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: restored[offset..<(offset + piece)]))
        }
        reader.close()
        HostFiles.remove(path)
    }
    func bufferedRoundTrip() throws {
        let writer = try SequentialFile(creating: path)
        for offset in stride(from: 0, to: bytes, by: piece) {
            try writer.write(UnsafeRawBufferPointer(rebasing: source[offset..<(offset + piece)]))
        }
        writer.close()
        let reader = try SequentialFile(reading: path)
        for offset in stride(from: 0, to: bytes, by: piece) {
            try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: restored[offset..<(offset + piece)]))
        }
        reader.close()
        HostFiles.remove(path)
    }

    Benchmark("freezer file: write+read 64 MiB, unbuffered and buffered / 2 memcpy (CPU)",
              configuration: .init(metrics: [fileCPUPercent, bufferedCPUPercent], maxDuration: .seconds(10), maxIterations: 10)) { benchmark in
        for _ in benchmark.scaledIterations {
            var floor = UInt64.max, unbuffered = UInt64.max, buffered = UInt64.max
            for _ in 0..<3 {
                floor = min(floor, cpuTime {
                    memcpy(restored.baseAddress!, source.baseAddress!, bytes)
                    memcpy(source.baseAddress!, restored.baseAddress!, bytes)
                })
                unbuffered = min(unbuffered, try! cpuTime(unbufferedRoundTrip))
                buffered = min(buffered, try! cpuTime(bufferedRoundTrip))
            }
            precondition(memcmp(source.baseAddress!, restored.baseAddress!, bytes) == 0, "the bytes came back")
            benchmark.measurement(fileCPUPercent, Int(unbuffered * 100 / max(floor, 1)))
            benchmark.measurement(bufferedCPUPercent, Int(buffered * 100 / max(floor, 1)))
        }
    }
}
