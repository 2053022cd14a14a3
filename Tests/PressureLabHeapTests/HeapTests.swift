import Foundation
import PressureLabHeap
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Heap: jemalloc measurements")
struct HeapTests {
    @Test("the process allocates through jemalloc, built with statistics")
    func runsOnJemalloc() throws {
        try Heap.verify()
        let info = try Heap.allocatorInfo()
        #expect(info.name.hasPrefix("jemalloc 5."))
        #expect(info.options["config.stats"] == "true")
        #expect(info.options["opt.narenas"] != nil)
    }

    @Test("jemalloc runs with PressureLab's compiled-in options (CJemallocOptions), unless MALLOC_CONF overrides them")
    func compiledInOptions() throws {
        let environment = ProcessInfo.processInfo.environment
        guard environment["MALLOC_CONF"] == nil, environment["JE_MALLOC_CONF"] == nil else { return }
        let info = try Heap.allocatorInfo()
        #expect(info.options["opt.dirty_decay_ms"] == "-1")
        #expect(info.options["opt.muzzy_decay_ms"] == "-1")
        #expect(info.options["opt.lg_extent_max_active_fit"] == "16")
        #expect(info.options["opt.oversize_threshold"] == "0")
    }

    @Test("a snapshot's figures are coherent: allocated <= active <= mapped, resident > 0")
    func snapshotIsCoherent() throws {
        let snapshot = try Heap.snapshot()
        #expect(snapshot.allocated > 0)
        #expect(snapshot.allocated <= snapshot.active)
        #expect(snapshot.active <= snapshot.mapped)
        #expect(snapshot.resident > 0)
        #expect(snapshot.metadata > 0)
    }

    @Test("a measured malloc is counted at its size class, and its free brings the net back to 0",
          arguments: [1, 96, 1000, 4096, 65_536, 1 << 20, 3 << 20])
    func measuresAllocationsExactly(size: Int) {
        var block: UnsafeMutableRawPointer?
        let allocation = Heap.measure { block = malloc(size) }
        #expect(allocation.delta.allocated == Heap.sizeClass(for: size))
        #expect(allocation.delta.deallocated == 0)
        let release = Heap.measure { free(block) }
        #expect(release.delta.deallocated == Heap.sizeClass(for: size))
        #expect(allocation.delta.net + release.delta.net == 0)
    }

    @Test("size classes: 1,000 bytes take 1,024; 4 KiB take 4 KiB")
    func sizeClasses() {
        #expect(Heap.sizeClass(for: 1000) == 1024)
        #expect(Heap.sizeClass(for: 4096) == 4096)
        #expect(Heap.sizeClass(for: 0) == 0)
    }

}

@Suite("Heap: owner attribution")
struct OwnerLedgerTests {
    /// Unoptimized (debug) builds allocate a generic temporary of up to 64 bytes around a
    /// nested scope that the enclosing scope may see; optimized builds specialize it away.
    static let nestingNoise = 64

    @Test("nested scopes attribute bytes to the innermost owner; balances add up")
    func nestedScopes() {
        func scopes(check: Bool) {
            let ledger = OwnerLedger<String>()
            var outer: UnsafeMutableRawPointer?
            var inner: UnsafeMutableRawPointer?
            let measured = ledger.measure(owner: "screen") {
                outer = malloc(128 << 10)
                ledger.measure(owner: "cache") { inner = malloc(64 << 10) }
            }
            let noise = Self.nestingNoise
            if check {
                #expect(ledger.balance(of: "cache") == 64 << 10)
                #expect(abs(ledger.balance(of: "screen") - (128 << 10)) <= noise)
                #expect(abs(measured.delta.allocated - (128 << 10)) <= noise)
                #expect(abs(ledger.total - (192 << 10)) <= noise)
            }
            ledger.measure(owner: "cache") { free(inner) }
            ledger.measure(owner: "screen") { free(outer) }
            if check {
                #expect(ledger.balance(of: "cache") == 0)
                #expect(abs(ledger.balance(of: "screen")) <= noise)
            }
        }
        // The first pass makes the one-time allocations of the path (generic metadata and
        // the like, process-wide: made by whichever test gets there first).
        scopes(check: false)
        scopes(check: true)
    }

    @Test("the running total always equals the sum of the balances (measure, adjust, remove)")
    func runningTotal() {
        func balances(check: Bool) {
            let ledger = OwnerLedger<Int>()
            var blocks: [UnsafeMutableRawPointer?] = []
            blocks.reserveCapacity(5)  // array growth inside a scope would be attributed too
            for owner in 0..<5 { ledger.measure(owner: owner) { blocks.append(malloc(4096 * (owner + 1))) } }
            ledger.adjust(owner: 9, by: 1000)
            if check {
                #expect(ledger.total == ledger.allBalances.values.reduce(0, +))
                #expect(ledger.total == 4096 * 15 + 1000)
            }
            ledger.remove(owner: 2)
            ledger.remove(owner: 42)  // not an owner: nothing changes
            if check { #expect(ledger.total == 4096 * 12 + 1000) }
            ledger.measure(owner: 0) { free(blocks[0]) }
            if check {
                #expect(ledger.total == ledger.allBalances.values.reduce(0, +))
                #expect(ledger.total == 4096 * 11 + 1000)
            }
            for block in blocks.dropFirst() { free(block) }
        }
        balances(check: false)  // one-time allocations, as above
        balances(check: true)
    }

    @Test("a scope that throws still records what it allocated")
    func throwingScope() {
        struct Failure: Error {}
        let ledger = OwnerLedger<Int>()
        var leaked: UnsafeMutableRawPointer?
        #expect(throws: Failure.self) {
            try ledger.measure(owner: 1) {
                leaked = malloc(8192)
                throw Failure()
            }
        }
        // The thrown error's box (and, on a first throw, runtime caches) are allocated
        // inside the scope too.
        #expect(ledger.balance(of: 1) >= 8192)
        #expect(ledger.balance(of: 1) < 8192 + (64 << 10))
        free(leaked)
    }
}

@Suite("Host memory limits")
struct HostMemoryTests {
    private func file(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "pressurelab-host-\(UUID().uuidString)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("reads MemTotal and a cgroup v2 limit, and takes the smaller")
    func cgroupLimit() throws {
        let meminfo = try file("MemTotal:       24000000 kB\nMemFree:        1000 kB\n")
        let max = try file("4294967296\n")
        let host = HostMemory.current(meminfo: meminfo, cgroupV2Max: max, cgroupV1Limit: "/nonexistent")
        #expect(host.physicalBytes == 24_000_000 * 1024)
        #expect(host.cgroupLimitBytes == 4 << 30)
        #expect(host.effectiveLimit == 4 << 30)
        #expect(host.safeLimit() == 2 << 30)
    }

    @Test("'max' and the v1 'unlimited' value mean no cgroup limit")
    func noLimit() throws {
        let meminfo = try file("MemTotal: 1024 kB\n")
        #expect(HostMemory.current(meminfo: meminfo, cgroupV2Max: try file("max\n"), cgroupV1Limit: "/nonexistent")
            .cgroupLimitBytes == nil)
        #expect(HostMemory.current(meminfo: meminfo, cgroupV2Max: "/nonexistent",
                                   cgroupV1Limit: try file("9223372036854771712\n")).cgroupLimitBytes == nil)
        #expect(HostMemory.current(meminfo: meminfo, cgroupV2Max: "/nonexistent", cgroupV1Limit: "/nonexistent")
            .effectiveLimit == 1 << 20)
    }

    @Test("this machine reports a plausible limit")
    func currentHost() {
        let host = HostMemory.current()
        #expect(host.effectiveLimit > 256 << 20)
    }
}
