// A large block just above a power of two (57.3 MiB), written and freed: held in pieces of
// exact size classes (what PressureLab does since blocks are split, docs/limits.md "Measured
// against declared") against one allocation of the same bytes (what it did before: one malloc,
// rounded up to the 64 MiB class), with a constant pattern and with realistic contents.

import Benchmark
import PressureLab
import PressureLabHeap

let largeBlockBenchmarks: @Sendable () -> Void = {
    let bytes = Int(57.3 * 1_048_576)
    let fill = ContentFill(ratio: 2.5, pageBytes: 16384, seed: 1)
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal]
    let configuration = Benchmark.Configuration(metrics: metrics, timeUnits: .milliseconds, warmupIterations: 2,
                                                maxDuration: .seconds(3), maxIterations: 30)

    Benchmark("large block: 57.3 MiB in pieces, pattern, allocate+write+free", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let memory = RawMemory.allocate(bytes, touchedWith: 0x5A)!
            blackHole(memory)
            memory.release()
        }
    }
    Benchmark("large block: 57.3 MiB as one allocation, pattern, allocate+write+free", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let memory = RawMemory.allocateContiguous(bytes)!
            memory.fill(count: bytes, pattern: 0x5A)
            blackHole(memory)
            memory.release()
        }
    }
    Benchmark("large block: 57.3 MiB in pieces, 2.5:1 contents, allocate+fill+free", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let memory = RawMemory.allocate(bytes, filledBy: fill, pattern: 0, salt: 1)!
            blackHole(memory)
            memory.release()
        }
    }
    Benchmark("large block: 57.3 MiB as one allocation, 2.5:1 contents, allocate+fill+free", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let memory = RawMemory.allocateContiguous(bytes)!
            memory.fill(count: bytes, with: fill, salt: 1)
            blackHole(memory)
            memory.release()
        }
    }
}
