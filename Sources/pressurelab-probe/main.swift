// A measurement that needs a quiet process runs here, in a process of its own, so that
// process-wide heap figures (jemalloc's `stats.allocated`) are not disturbed by tests
// running in parallel. The tests start it and assert on what it prints.
//
// Usage: pressurelab-probe PROBE
//   global-snapshot   64 MiB malloc'd, touched and freed, between global snapshots
//   oversize-reuse    64 MiB malloc'd, touched and freed, then 64 MiB in 4 KiB blocks: what
//                     stays resident after the free, and what the small blocks add
//   life-cycle        a controller life cycle (load, appear, type, warn, disappear, deinit):
//                     net bytes on the thread, and process-wide, after a warm-up run
//   purge             32 MiB malloc'd, touched and freed, then purged: what stays resident
//   policy-registry   registers a cleanup policy of its own (the process-wide registry, which
//                     a test process must not change) and prints 1 or 0 for each check
// Prints `name=value` lines (bytes), then exits 0; a failure prints a line to stderr and
// exits 1.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PressureLab
import PressureLabHeap

enum ProbeError: Error { case noMemory(bytes: Int) }

/// Writes a line to standard error (file descriptor 2).
func printError(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

func report(_ values: KeyValuePairs<String, Int>) {
    for (name, value) in values { print("\(name)=\(value)") }
}

/// Writes the block to `/dev/null`: the system call reads it, so a block allocated, written and
/// freed is not removed from a release build (with nothing reading it, the optimizer dropped
/// the `malloc`, the `memset` and the `free` together).
func keep(_ pointer: UnsafeMutableRawPointer, count: Int) {
    let sink = open("/dev/null", O_WRONLY)
    guard sink >= 0 else { return }
    var offset = 0
    while offset < count {
        let written = write(sink, pointer + offset, count - offset)
        if written <= 0 { break }
        offset += written
    }
    close(sink)
}

func globalSnapshot() throws {
    let size = 64 << 20
    let before = try Heap.snapshot()
    guard let block = malloc(size) else { throw ProbeError.noMemory(bytes: size) }
    memset(block, 1, size)
    keep(block, count: size)
    let during = try Heap.snapshot()
    free(block)
    let after = try Heap.snapshot()
    report(["size": size, "allocatedDuring": during.allocated - before.allocated,
            "allocatedAfter": after.allocated - before.allocated, "residentGrowth": during.resident - before.resident])
}

/// jemalloc's compiled-in options (CJemallocOptions, docs/limits.md): a freed region of 64 MiB
/// (over `oversize_threshold`) stays resident, dirty, instead of being purged at once, and the
/// small blocks allocated next are carved out of it instead of new pages.
func oversizeReuse() throws {
    let size = 64 << 20, small = 4096
    let before = try Heap.snapshot()
    guard let block = malloc(size) else { throw ProbeError.noMemory(bytes: size) }
    memset(block, 1, size)
    keep(block, count: size)
    free(block)
    let afterFree = try Heap.snapshot()
    var blocks: [UnsafeMutableRawPointer] = []
    blocks.reserveCapacity(size / small)
    let beforeSmall = try Heap.snapshot()
    for _ in 0..<(size / small) {
        guard let piece = malloc(small) else { throw ProbeError.noMemory(bytes: small) }
        memset(piece, 2, small)
        keep(piece, count: small)
        blocks.append(piece)
    }
    let afterSmall = try Heap.snapshot()
    for piece in blocks { free(piece) }
    report(["size": size, "residentAfterFree": afterFree.resident - before.resident,
            "residentGrowthForSmall": afterSmall.resident - beforeSmall.resident])
}

func lifeCycle() throws {
    let runtime = try RuntimeContext(app: "probe", generation: .iOS5)
    try runtime.register(ScreenSpec(name: "detail",
                                    view: try .balanced(count: 2000, fanout: 6, bytes: 2048, rootBacking: 3 << 20),
                                    outlets: 6, cacheBytes: 2 << 20, modelBytes: 1 << 20))
    runtime.trace.isEnabled = false
    func once() throws {
        let window = Window()
        let first = try runtime.makeController(screen: "detail")
        let second = try runtime.makeController(screen: "detail")
        try window.show(first)
        try window.transition(from: first, to: second)
        first.type(bytes: 10_000)
        first.receiveMemoryWarning()
        try window.transition(from: second, to: first)
        window.hide(first)
    }
    // The first run warms one-time allocations (metadata, caches); the next are measured:
    // once on this thread's counters, once with the process-wide statistics.
    try once()
    let threadNet = try Heap.measure(once).delta.net
    let before = try Heap.snapshot()
    try once()
    let after = try Heap.snapshot()
    report(["threadNet": threadNet, "allocatedAfter": after.allocated - before.allocated])
}

/// `Heap.purge()` gives freed dirty pages back: resident memory after the purge is not above
/// what it was before it. `Heap.purge(ifSpareAbove:)` purges only past its limit, and the
/// spare it reads counts the freed block.
func purgeFreed() throws {
    let size = 32 << 20
    guard let block = malloc(size) else { throw ProbeError.noMemory(bytes: size) }
    memset(block, 7, size)
    keep(block, count: size)
    free(block)
    try Heap.purge(ifSpareAbove: 0)
    let spareBefore = try Heap.spareResidentBytes()
    guard let again = malloc(size) else { throw ProbeError.noMemory(bytes: size) }
    memset(again, 7, size)
    keep(again, count: size)
    free(again)
    let spareFreed = try Heap.spareResidentBytes()
    let purgedAboveLimit = try Heap.purge(ifSpareAbove: spareFreed)
    let beforePurge = try Heap.snapshot()
    let purgedBelowLimit = try Heap.purge(ifSpareAbove: size / 2)
    let afterPurge = try Heap.snapshot()
    report(["size": size, "residentGrowth": afterPurge.resident - beforePurge.resident,
            "spareGrowth": spareFreed - spareBefore, "spareAfter": try Heap.spareResidentBytes(),
            "purgedAtLimit": purgedAboveLimit ? 1 : 0, "purgedPastLimit": purgedBelowLimit ? 1 : 0])
}

/// The policy registry of a program that adds its own policies (PressureLabCommandLine does
/// this at start): names known after registration, listed after the built-ins, read back
/// from a file; a second registration, a built-in name and an invalid name refused.
func policyRegistry() throws {
    struct Probe: CleanupPolicy, Sendable {
        var name = "probe-policy"
        func plan(for context: CleanupContext) -> CleanupPlan { CleanupPlan() }
    }
    func refused(_ policy: Cleanup) -> Bool { (try? PolicyRegistry.register(policy)) == nil }
    let knownBefore = Cleanup(named: "probe-policy") != nil
    try PolicyRegistry.register(Cleanup(Probe()))
    let known = Cleanup(named: "probe-policy")
    let decoded = try JSONDecoder().decode([Cleanup].self, from: Data(#"["probe-policy"]"#.utf8))
    func flag(_ value: Bool) -> Int { value ? 1 : 0 }
    report(["knownBefore": flag(knownBefore), "knownAfter": flag(known?.isBuiltIn == false),
            "makes": flag((try? known?.makePolicy())?.name == "probe-policy"),
            "listedAfterBuiltIns": flag(PolicyRegistry.cleanupPolicies.map(\.name) == Cleanup.builtIns.map(\.name) + ["probe-policy"]),
            "decodedRuns": flag((try? decoded[0].makePolicy())?.name == "probe-policy"),
            "secondRefused": flag(refused(Cleanup(Probe()))),
            "builtInNameRefused": flag(refused(Cleanup(Probe(name: "lru")))),
            "invalidNameRefused": flag(refused(Cleanup(Probe(name: "Probe Policy")))),
            "terminationVariantRefused": flag((try? PolicyRegistry.register(Termination(name: "lmk-without-lmkd") { NoTermination() })) == nil)])
}

let probes: [String: () throws -> Void] = ["global-snapshot": globalSnapshot, "life-cycle": lifeCycle,
                                           "oversize-reuse": oversizeReuse, "policy-registry": policyRegistry,
                                           "purge": purgeFreed]
let arguments = CommandLine.arguments.dropFirst()
guard let name = arguments.first, let probe = probes[name], arguments.count == 1 else {
    printError("usage: pressurelab-probe \(probes.keys.sorted().joined(separator: "|"))")
    exit(2)
}
do {
    try probe()
} catch {
    printError("pressurelab-probe: \(name): \(error)")
    exit(1)
}
