// The swap file's slots (issue 57): 64 MiB written into 64 slots of one `SlotFile` and read
// back, the slots given back and written over at the next round (what a device's swap space
// does since 2026-11-29), against the floor it approaches, two `memcpy`s of the same bytes (one
// out, one back), and against what it replaced: a new file for the same bytes, written, read
// back and removed, 2.5 s after the last one was removed (long enough for a virtual machine
// that reports freed pages to its host to have reported them: docs/limits.md, "Freezer and swap
// files"). CPU time (user + system, `getrusage`), in one process, best of 3 (the floor and the
// slots) and one round of the new file a sample; files in `$TMPDIR` (the disk, where the Pixel 4
// experiment keeps them).

import Benchmark
import Foundation
import PressureLabHeap
import SystemPackage

let slotsCPUPercent = BenchmarkMetric.custom("slots written over / 2 memcpy CPU (%)", polarity: .prefersSmaller, useScalingFactor: false)
let newFileCPUPercent = BenchmarkMetric.custom("new file after 2.5 s / 2 memcpy CPU (%)", polarity: .prefersSmaller, useScalingFactor: false)

let swapSlotBenchmarks: @Sendable () -> Void = {
    let bytes = 64 << 20, slot = SlotFile.slotBytes
    let source = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes, alignment: 64)
    let restored = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes, alignment: 64)
    ContentFill(ratio: 2.5, pageBytes: 4096, seed: 1).fill(source, salt: 1)
    memset(restored.baseAddress!, 1, bytes)
    let directory = FilePath(NSTemporaryDirectory())
    let slotPath = directory.appending("pressurelab-bench-\(getpid()).swapfile")
    let newPath = directory.appending("pressurelab-bench-\(getpid()).swap.1")

    func slotsRoundTrip(_ file: SlotFile) throws {
        var slots: [Int] = []
        for offset in stride(from: 0, to: bytes, by: slot) {
            let taken = file.takeSlot()
            try file.write(UnsafeRawBufferPointer(rebasing: source[offset..<(offset + slot)]), toSlot: taken)
            slots.append(taken)
        }
        for (index, taken) in slots.enumerated() {
            try file.read(into: UnsafeMutableRawBufferPointer(rebasing: restored[(index * slot)..<((index + 1) * slot)]), fromSlot: taken)
        }
        for taken in slots.reversed() { file.give(taken) }
    }
    func newFileRoundTrip() throws {
        let writer = try UnbufferedFile(path: newPath, mode: .write, direct: false)
        try writer.write(UnsafeRawBufferPointer(source))
        try writer.finish()
        writer.close()
        let reader = try UnbufferedFile(path: newPath, mode: .read, direct: false)
        try reader.read(into: restored)
        reader.close()
        HostFiles.remove(newPath)
    }

    Benchmark("swap slots: write+read 64 MiB, slots written over and a new file / 2 memcpy (CPU)",
              configuration: .init(metrics: [slotsCPUPercent, newFileCPUPercent], maxDuration: .seconds(30), maxIterations: 5)) { benchmark in
        // The slot file lives while the benchmark runs (not when it is only registered), and goes after.
        let file = try! SlotFile(path: slotPath)
        defer {
            file.close()
            HostFiles.remove(slotPath)
        }
        for _ in benchmark.scaledIterations {
            var floor = UInt64.max, slots = UInt64.max
            for _ in 0..<3 {
                floor = min(floor, cpuTime {
                    memcpy(restored.baseAddress!, source.baseAddress!, bytes)
                    memcpy(source.baseAddress!, restored.baseAddress!, bytes)
                })
                slots = min(slots, try! cpuTime { try slotsRoundTrip(file) })
            }
            precondition(memcmp(source.baseAddress!, restored.baseAddress!, bytes) == 0, "the bytes came back")
            usleep(2_500_000)
            let newFile = try! cpuTime(newFileRoundTrip)
            precondition(memcmp(source.baseAddress!, restored.baseAddress!, bytes) == 0, "the bytes came back")
            benchmark.measurement(slotsCPUPercent, Int(slots * 100 / max(floor, 1)))
            benchmark.measurement(newFileCPUPercent, Int(newFile * 100 / max(floor, 1)))
        }
    }
}
