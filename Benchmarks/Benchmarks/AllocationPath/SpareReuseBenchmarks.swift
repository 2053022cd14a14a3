// A killed app's heap freed and a launch filling the same bytes again (issue 57): with the
// freed pages kept by jemalloc (what the device experiment does now while the apps leave the
// budget room: `DeviceExperiment.spareHeapAllowance`) and with them purged first (what it did
// after every step with more than 512 MiB spare: `Heap.purge`), each against the floor, the
// same fill into memory already touched and kept. CPU time (user + system) of the second
// allocation and fill, best of 3 alternated, in percent.

import Benchmark
import PressureLabHeap

let keptPercent = BenchmarkMetric.custom("refill kept / touched CPU (%)", polarity: .prefersSmaller, useScalingFactor: false)
let purgedPercent = BenchmarkMetric.custom("refill purged / touched CPU (%)", polarity: .prefersSmaller, useScalingFactor: false)

let spareReuseBenchmarks: @Sendable () -> Void = {
    let bytes = 256 << 20
    let fill = ContentFill(ratio: 2.5, pageBytes: 4096, seed: 4)

    /// CPU time of allocating and filling `bytes` after a block of that size was freed
    /// (purged first when `purge`).
    func refill(purge: Bool) -> UInt64 {
        let first = RawMemory.allocate(bytes, filledBy: fill, pattern: 0, salt: 1)!
        first.release()
        if purge { try! Heap.purge() }
        var second: RawMemory?
        let time = cpuTime { second = RawMemory.allocate(bytes, filledBy: fill, pattern: 0, salt: 2) }
        second!.release()
        try! Heap.purge()
        return time
    }

    Benchmark("spare pages: 256 MiB freed and filled again, kept and purged / fill of touched memory (CPU)",
              configuration: .init(metrics: [keptPercent, purgedPercent], maxDuration: .seconds(10), maxIterations: 10)) { benchmark in
        let touched = RawMemory.allocate(bytes, filledBy: fill, pattern: 0, salt: 1)!
        defer { touched.release() }
        for _ in benchmark.scaledIterations {
            var floor = UInt64.max, kept = UInt64.max, purged = UInt64.max
            for _ in 0..<3 {
                floor = min(floor, cpuTime { touched.fill(count: bytes, with: fill, salt: 3) })
                kept = min(kept, refill(purge: false))
                purged = min(purged, refill(purge: true))
            }
            benchmark.measurement(keptPercent, Int(kept * 100 / max(floor, 1)))
            benchmark.measurement(purgedPercent, Int(purged * 100 / max(floor, 1)))
        }
    }
}
