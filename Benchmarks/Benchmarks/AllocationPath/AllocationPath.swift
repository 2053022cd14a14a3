// Building and freeing view trees against a raw malloc + memset + free of the same sizes,
// in the same process. The ratio benchmark runs both in each iteration and reports their
// ratio (x100) and the measured bookkeeping bytes per view as custom metrics.

import Benchmark
import PressureLab
import PressureLabHeap

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The raw work a view tree stands for: one written block per view, then freed.
@inline(never)
func rawAllocateAndFree(count: Int, bytes: Int, pointers: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
    for index in 0..<count {
        let block = malloc(bytes)!
        memset(block, Int32(truncatingIfNeeded: index &* 31 &+ 0xA5), bytes)
        pointers[index] = block
    }
    for index in 0..<count { free(pointers[index]) }
}

@inline(never)
func buildAndFreeTree(_ description: ViewDescription) {
    let root = View.build(from: description)
    blackHole(root)
}

let treeMetrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .mallocCountTotal, .throughput]
let ratioPercent = BenchmarkMetric.custom("tree/raw time (%)", polarity: .prefersSmaller, useScalingFactor: false)
let overheadPerView = BenchmarkMetric.custom("bookkeeping B/view", polarity: .prefersSmaller, useScalingFactor: false)

/// Tree build+free against raw malloc+memset+free for `views` views of `bytes` each:
/// the ratio in percent (best of 5 interleaved runs each). Small trees are built and freed
/// repeatedly inside one timed run (at least 1,000 views a run), so that the clock's own
/// cost does not weigh on the ratio.
func ratioPercent(views: Int, bytes: Int, pointers: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> Int {
    let description = try! ViewDescription.balanced(count: views, fanout: 8, bytes: bytes)
    let repeats = max(1, 1_000 / views)
    var raw = UInt64.max, tree = UInt64.max
    for _ in 0..<5 {
        raw = min(raw, MonotonicClock.time {
            for _ in 0..<repeats { rawAllocateAndFree(count: views, bytes: bytes, pointers: pointers) }
        }.nanoseconds)
        tree = min(tree, MonotonicClock.time {
            for _ in 0..<repeats { buildAndFreeTree(description) }
        }.nanoseconds)
    }
    return Int(tree * 100 / max(raw, 1))
}

let benchmarks: @Sendable () -> Void = {
    runtimeBenchmarks()
    throughputBenchmarks()
    deviceTimeBenchmarks()
    compressionBenchmarks()
    cleanMemoryBenchmarks()
    cleanResidencyBenchmarks()
    largeBlockBenchmarks()
    freezerFileBenchmarks()
    swapSlotBenchmarks()
    spareReuseBenchmarks()
    Benchmark.defaultConfiguration = .init(
        metrics: treeMetrics,
        timeUnits: .microseconds,
        warmupIterations: 3,
        maxDuration: .seconds(2),
        maxIterations: 2_000
    )
    do { try Heap.verify() } catch { fatalError("\(error)") }

    let views = 1_000
    let bytes = 4_096
    let description = try! ViewDescription.wide(count: views, bytes: bytes)
    let pointers = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 10_000)

    for count in [1, 100, 10_000] {
        for size in [256, 4096, 65_536] {
            let metric = BenchmarkMetric.custom("tree/raw time (%)", polarity: .prefersSmaller, useScalingFactor: false)
            Benchmark("ratio: \(count) views x \(size) B", configuration: .init(metrics: [metric], maxDuration: .seconds(1),
                                                                                  maxIterations: count == 10_000 ? 20 : 200)) { benchmark in
                for _ in benchmark.scaledIterations {
                    benchmark.measurement(metric, ratioPercent(views: count, bytes: size, pointers: pointers))
                }
            }
        }
    }

    Benchmark("raw malloc+memset+free, 1,000 x 4 KiB") { benchmark in
        for _ in benchmark.scaledIterations {
            rawAllocateAndFree(count: views, bytes: bytes, pointers: pointers)
        }
    }

    Benchmark("view tree build+free, 1,000 x 4 KiB") { benchmark in
        for _ in benchmark.scaledIterations {
            buildAndFreeTree(description)
        }
    }

    Benchmark("ratio: view tree / raw, 1,000 x 4 KiB",
              configuration: .init(metrics: [ratioPercent, overheadPerView], maxDuration: .seconds(3), maxIterations: 200)) { benchmark in
        for _ in benchmark.scaledIterations {
            // Interleave the two so that both see the same machine state; best of 5 each.
            var raw = UInt64.max
            var tree = UInt64.max
            for _ in 0..<5 {
                raw = min(raw, MonotonicClock.time { rawAllocateAndFree(count: views, bytes: bytes, pointers: pointers) }.nanoseconds)
                tree = min(tree, MonotonicClock.time { buildAndFreeTree(description) }.nanoseconds)
            }
            benchmark.measurement(ratioPercent, Int(tree * 100 / max(raw, 1)))
            var root: View?
            let built = Heap.measure { root = View.build(from: description) }
            blackHole(root)
            root = nil
            benchmark.measurement(overheadPerView, (built.delta.net - description.payloadBytes) / views)
        }
    }
}
