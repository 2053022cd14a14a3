// The real compressors' throughput on realistic contents, and the cost of realistic contents
// against memset.

import Benchmark
import Foundation
import PressureLab
import PressureLabHeap

let megabytesPerSecond = BenchmarkMetric.custom("MB/s", polarity: .prefersLarger, useScalingFactor: false)
let fillPercent = BenchmarkMetric.custom("fill / memset time (%)", polarity: .prefersSmaller, useScalingFactor: false)

let compressionBenchmarks: @Sendable () -> Void = {
    let bytes = 64 << 20
    let source = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes, alignment: 64)
    let restored = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes, alignment: 64)
    ContentFill(ratio: 2.5, pageBytes: 4096, seed: 1).fill(source, salt: 1)
    memset(restored.baseAddress!, 1, bytes)

    for codec in PageCodec.allCases {
        Benchmark("compress: \(codec.rawValue), 64 MiB of 2.5:1 contents, 4 KiB pages",
                  configuration: .init(metrics: [megabytesPerSecond], maxDuration: .seconds(5), maxIterations: 10)) { benchmark in
            for _ in benchmark.scaledIterations {
                let start = MonotonicClock.now()
                let compressed = CompressedPages(compressing: UnsafeRawBufferPointer(source), pageBytes: 4096, codec: codec)
                let seconds = Double(MonotonicClock.now() - start) / 1e9
                blackHole(compressed)
                benchmark.measurement(megabytesPerSecond, Int(Double(bytes) / 1e6 / seconds))
            }
        }
        let compressed = CompressedPages(compressing: UnsafeRawBufferPointer(source), pageBytes: 4096, codec: codec)!
        Benchmark("decompress: \(codec.rawValue), 64 MiB of 2.5:1 contents, 4 KiB pages",
                  configuration: .init(metrics: [megabytesPerSecond], maxDuration: .seconds(5), maxIterations: 10)) { benchmark in
            for _ in benchmark.scaledIterations {
                let start = MonotonicClock.now()
                let ok = compressed.decompress(into: restored)
                let seconds = Double(MonotonicClock.now() - start) / 1e9
                precondition(ok)
                benchmark.measurement(megabytesPerSecond, Int(Double(bytes) / 1e6 / seconds))
            }
        }
    }

    Benchmark("fill: realistic 2.5:1 contents / memset, 64 MiB (memory already touched)",
              configuration: .init(metrics: [fillPercent], maxDuration: .seconds(5), maxIterations: 20)) { benchmark in
        let fill = ContentFill(ratio: 2.5, pageBytes: 4096, seed: 2)
        for _ in benchmark.scaledIterations {
            var filled = UInt64.max, plain = UInt64.max
            for _ in 0..<3 {
                var start = MonotonicClock.now()
                memset(restored.baseAddress!, 0x5A, bytes)
                plain = min(plain, MonotonicClock.now() - start)
                start = MonotonicClock.now()
                fill.fill(restored, salt: 3)
                filled = min(filled, MonotonicClock.now() - start)
            }
            benchmark.measurement(fillPercent, Int(filled * 100 / max(plain, 1)))
        }
    }
}
