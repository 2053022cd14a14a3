import Foundation
@testable import PressureLab
import PressureLabHarness
import PressureLabHeap
import Testing

/// `Cost`, the one list of a profile's costs, and what is driven by it: the work counters'
/// storage and JSON, the cost model's arithmetic, the profile reader, the docs' table
/// (docs/formats.md, "Device profile").
@Suite("Costs: one enum")
struct CostTests {
    @Test("each cost's ordinal is its place in allCases; raw values are the keys, in the order the bundled profiles list them")
    func ordinalsAndOrder() throws {
        #expect(Cost.allCases.enumerated().allSatisfy { $0.offset == $0.element.ordinal })
        #expect(DeviceProfile.costNames == Cost.allCases.map(\.rawValue))
        for name in ["iphone-xs-2018", "pixel-3-2018"] {
            let text = try String(contentsOfFile: DeviceTimeTests.packageRoot + "/profiles/\(name).yaml", encoding: .utf8)
            let entry = /^  ([a-z_0-9]+):\s*\{/
            // The costs: section only (a profile's kernel: section has entries of the same form).
            let costs = text.components(separatedBy: "\ncosts:")[1].components(separatedBy: "\ncontent:")[0]
            let keys = costs.split(separator: "\n").compactMap { line in line.firstMatch(of: entry).map { String($0.1) } }
            #expect(keys == Cost.allCases.map(\.rawValue), "\(name)")
        }
    }

    @Test("each kind's fields and counters")
    func kinds() {
        #expect(Cost.Kind.time.fields == ["time"] && Cost.Kind.time.measures == [.occurrences])
        #expect(Cost.Kind.throughput.fields == ["throughput"] && Cost.Kind.throughput.measures == [.bytes])
        #expect(Cost.Kind.transfer.fields == ["throughput", "latency"] && Cost.Kind.transfer.measures == [.bytes, .occurrences])
        #expect(Cost.Kind.perCompressor.fields == ["lz4", "zstd"] && Cost.Kind.perCompressor.measures == [.bytes])
        #expect(Cost.allCases.filter { $0.kind == .transfer } == [.storageRead, .storageWrite])
        #expect(Cost.allCases.filter { $0.kind == .perCompressor } == [.compress, .decompress])
        #expect(Cost.allCases.allSatisfy { !$0.summary.isEmpty && !$0.summary.contains("|") && !$0.summary.contains("\n") })
    }

    /// The docs' table of costs, one row a cost, as `Cost` describes them.
    static func costTable() -> [String] {
        ["| Cost | Form | Charged for |", "|---|---|---|"]
            + Cost.allCases.map { "| `\($0.rawValue)` | `{ \($0.kind.fields.joined(separator: ", ")) }` | \($0.summary) |" }
    }

    @Test("docs/formats.md's cost table lists exactly Cost.allCases, with their kinds' fields and summaries")
    func docsTable() throws {
        let text = try String(contentsOfFile: DeviceTimeTests.packageRoot + "/docs/formats.md", encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "| Cost | Form | Charged for |"))
        let table = lines[start...].prefix { $0.hasPrefix("|") }
        #expect(Array(table) == Self.costTable(), "expected:\n\(Self.costTable().joined(separator: "\n"))")
    }

    @Test("every cost fits the counters' inline storage")
    func capacity() {
        #expect(Cost.allCases.count <= WorkCounters.costCapacity)
        var work = WorkCounters()
        for cost in Cost.allCases {
            work[occurrences: cost] = cost.ordinal * 2 + 1
            work[bytes: cost] = cost.ordinal * 2 + 2
        }
        #expect(Cost.allCases.allSatisfy { work[occurrences: $0] == $0.ordinal * 2 + 1 && work[bytes: $0] == $0.ordinal * 2 + 2 })
    }

    @Test("counting and pricing allocate nothing: they run inside the ledger's measured scopes")
    func noAllocation() throws {
        let costs = try ProfileLoader().load(path: DeviceTimeTests.round).costs
        let ledger = OwnerLedger<String>()
        let before = WorkCounters()
        var work = before
        func count() -> Measured<UInt64> {
            ledger.measure(owner: "app") { () -> UInt64 in
                work.viewsDecoded += 3
                work[bytes: .storageRead] += 4096
                work.bytesCompressed += 8192
                return costs.nanoseconds(for: work - before, compressor: .lz4) + costs.nanoseconds(of: .storageRead, for: work)
            }
        }
        _ = count()  // the ledger's own first bookkeeping (its tables) is allocated in the first scope
        work = before
        let measured = count()
        // 3 x 10 us + 4096 B at 100 MB/s (40,960 ns) + 8192 B at 400 MB/s (20,480 ns); then the read again.
        #expect(measured.value == 30_000 + 40_960 + 20_480 + 40_960)
        #expect(measured.delta.allocated == 0 && measured.delta.deallocated == 0, "\(measured.delta)")
    }

    @Test("the named counters are the cost-keyed ones; + and - work slot by slot")
    func namedCounters() {
        var work = WorkCounters()
        work.viewsDecoded += 3
        work.storageReadBytes = 100
        work.storageReads = 2
        work[bytes: .compress] = 7
        #expect(work[occurrences: .viewDecode] == 3 && work[bytes: .storageRead] == 100 && work[occurrences: .storageRead] == 2)
        #expect(work.bytesCompressed == 7 && work[bytes: .viewDecode] == 0 && work.bytesDecompressed == 0)
        let sum = work + work
        #expect(sum.viewsDecoded == 6 && sum.storageReadBytes == 200 && sum.bytesCompressed == 14)
        #expect(sum - work == work && (sum - work - work) == WorkCounters())
    }

    @Test("the work object's JSON keys and their order are those of the counters' former stored fields")
    func workJSON() throws {
        let keys = ["processStarts", "appInits", "firstFrames", "storageReadBytes", "storageReads", "storageWriteBytes", "storageWrites",
                    "viewsDecoded", "viewsLaidOut", "bitmapBytesDrawn", "cacheBytesFilled", "archiveBytesDecoded", "bytesCompressed",
                    "bytesDecompressed"]
        var work = WorkCounters()
        work.processStarts = 1; work.appInits = 2; work.firstFrames = 3; work.storageReadBytes = 4; work.storageReads = 5
        work.storageWriteBytes = 6; work.storageWrites = 7; work.viewsDecoded = 8; work.viewsLaidOut = 9; work.bitmapBytesDrawn = 10
        work.cacheBytesFilled = 11; work.archiveBytesDecoded = 12; work.bytesCompressed = 13; work.bytesDecompressed = 14
        // The order they are encoded in (the synthesized encoder's, the fields' order) ...
        #expect(Array(WorkCounters.fields.map(\.key).prefix(keys.count)) == keys)
        // Costs added since: their counters under derived names, after those.
        #expect(Array(WorkCounters.fields.map(\.key).dropFirst(keys.count)) == ["heapTrimBytes"])
        // ... and the bytes the results writer (sorted keys) produces, as before.
        let legacy = "{" + keys.enumerated().map { "\"\($0.element)\":\($0.offset + 1)" }.joined(separator: ",") + "}"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = try #require(String(data: try encoder.encode(work), encoding: .utf8))
        // (Costs added later write their counters too, as 0 here, under derived names.)
        let expected = "{" + WorkCounters.fields.map(\.key).sorted()
            .map { key in "\"\(key)\":\(keys.firstIndex(of: key).map { $0 + 1 } ?? 0)" }.joined(separator: ",") + "}"
        #expect(json == expected)
        #expect(try JSONDecoder().decode(WorkCounters.self, from: Data(json.utf8)) == work)
        // A file written before a later cost existed still reads (its counters are 0).
        #expect(try JSONDecoder().decode(WorkCounters.self, from: Data(legacy.utf8)) == work)
        // Every legacy key is required, as the synthesized decoder required it.
        let missing = legacy.replacingOccurrences(of: "\"viewsLaidOut\":9,", with: "")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(WorkCounters.self, from: Data(missing.utf8)) }
    }

    /// Today's arithmetic, written out term by term as `CostModel` computed it before costs
    /// were an enum: the reference the generic loop must match.
    static func reference(_ model: (ns: [UInt64], rates: [UInt64], latencies: [UInt64], compress: [UInt64], decompress: [UInt64]),
                          _ work: WorkCounters, _ compressor: Compressor) -> UInt64 {
        func times(_ count: Int, _ each: UInt64) -> UInt64 { UInt64(max(0, count)).multipliedSaturating(by: each) }
        func at(_ bytes: Int, _ rate: UInt64) -> UInt64 { CostModel.transferNanoseconds(bytes, bytesPerSecond: rate) }
        let terms: [UInt64] = [
            times(work.processStarts, model.ns[0]), times(work.appInits, model.ns[1]), times(work.firstFrames, model.ns[2]),
            at(work.storageReadBytes, model.rates[0]), times(work.storageReads, model.latencies[0]),
            at(work.storageWriteBytes, model.rates[1]), times(work.storageWrites, model.latencies[1]),
            times(work.viewsDecoded, model.ns[3]), times(work.viewsLaidOut, model.ns[4]),
            at(work.bitmapBytesDrawn, model.rates[2]), at(work.cacheBytesFilled, model.rates[3]),
            at(work.archiveBytesDecoded, model.rates[4]),
        ]
        var total = terms.reduce(UInt64(0)) { $0.addingSaturating($1) }
        if compressor != .none {
            let index = compressor == .lz4 ? 0 : 1
            total = total.addingSaturating(at(work.bytesCompressed, model.compress[index]))
            total = total.addingSaturating(at(work.bytesDecompressed, model.decompress[index]))
        }
        return total
    }

    @Test("the generic loop gives exactly the former term-by-term figures, saturating, for 20,000 random models and counts")
    func sameArithmetic() {
        var random = SplitMix64(seed: 25)
        func count() -> Int {
            switch random.next() % 6 {
            case 0: 0
            case 1: Int.random(in: 1...10, using: &random)
            case 2: Int.random(in: 1...(1 << 30), using: &random)
            case 3: Int.random(in: 1...Int.max, using: &random)
            case 4: Int.max
            default: Int.random(in: -1000...(-1), using: &random)
            }
        }
        func cost() -> UInt64 {
            switch random.next() % 5 {
            case 0: 0
            case 1: 1
            case 2: UInt64.random(in: 1...1_000_000_000_000, using: &random)
            case 3: UInt64.max
            default: UInt64.random(in: 1...UInt64.max, using: &random)
            }
        }
        for _ in 0..<20_000 {
            let model = (ns: (0..<5).map { _ in cost() }, rates: (0..<5).map { _ in cost() }, latencies: (0..<2).map { _ in cost() },
                         compress: (0..<2).map { _ in cost() }, decompress: (0..<2).map { _ in cost() })
            let costs = CostModel(processStartNanoseconds: model.ns[0], appInitNanoseconds: model.ns[1], firstFrameNanoseconds: model.ns[2],
                                  storageRead: .init(bytesPerSecond: model.rates[0], latencyNanoseconds: model.latencies[0]),
                                  storageWrite: .init(bytesPerSecond: model.rates[1], latencyNanoseconds: model.latencies[1]),
                                  viewDecodeNanoseconds: model.ns[3], viewLayoutNanoseconds: model.ns[4],
                                  bitmapDrawBytesPerSecond: model.rates[2], cacheFillBytesPerSecond: model.rates[3],
                                  archiveDecodeBytesPerSecond: model.rates[4],
                                  compressBytesPerSecond: .init(lz4: model.compress[0], zstd: model.compress[1]),
                                  decompressBytesPerSecond: .init(lz4: model.decompress[0], zstd: model.decompress[1]))
            var work = WorkCounters()
            for cost in Cost.allCases {
                for measure in cost.kind.measures where random.next() % 3 != 0 { work[measure, cost] = count() }
            }
            for compressor in Compressor.allCases {
                let expected = Self.reference(model, work, compressor)
                let actual = costs.nanoseconds(for: work, compressor: compressor)
                #expect(actual == expected, "\(compressor) \(work) \(costs)")
                if actual != expected { return }
            }
        }
    }

    @Test("the loader builds the model cost by cost from the profile's fields")
    func loadedValues() throws {
        let costs = try ProfileLoader().load(path: DeviceTimeTests.round).costs
        #expect(costs[.processStart] == .time(100_000_000))
        #expect(costs[.storageRead] == .transfer(.init(bytesPerSecond: 100_000_000, latencyNanoseconds: 100_000)))
        #expect(costs[.archiveDecode] == .throughput(10_000_000))
        #expect(costs[.decompress] == .perCompressor(.init(lz4: 2_000_000_000, zstd: 800_000_000)))
    }

    @Test("a per-compressor cost missing one compressor is refused with its key")
    func missingCompressor() throws {
        let text = try String(contentsOfFile: DeviceTimeTests.round, encoding: .utf8)
        let bad = text.replacingOccurrences(of: "compress:       { lz4: 400MB/s, zstd: 100MB/s,", with: "compress:       { lz4: 400MB/s,")
        #expect(bad != text)
        do {
            _ = try ProfileLoader().parse(bad, path: "bad.yaml")
            Issue.record("accepted a compress cost without zstd")
        } catch {
            #expect(error.diagnostics.map(\.key) == ["costs.compress.zstd"])
            #expect(error.diagnostics.first?.message == "missing required key 'zstd'")
        }
    }
}

/// The results' `deviceTimeByCostNs`: all of a run's counted work, priced cost by cost
/// (docs/formats.md, "Results").
@Suite("Device time by cost")
struct DeviceTimeByCostTests {
    @Test("by hand: counts x costs, cost by cost, only costs with time; their sum is the total")
    func handComputed() throws {
        let costs = try ProfileLoader().load(path: DeviceTimeTests.round).costs
        var work = WorkCounters()
        work.processStarts = 2
        work.storageReadBytes = 1_000
        work.storageReads = 3
        work.viewsDecoded = 7
        work.bytesCompressed = 4_000_000
        // 2 x 100 ms; 1,000 B at 100 MB/s = 10 us + 3 x 100 us; 7 x 10 us; 4 MB at 400 MB/s (lz4) = 10 ms.
        let expected: [Cost: UInt64] = [.processStart: 200_000_000, .storageRead: 10_000 + 300_000, .viewDecode: 70_000,
                                        .compress: 10_000_000]
        #expect(costs.nanosecondsByCost(for: work, compressor: .lz4) == expected)
        #expect(costs.nanoseconds(for: work, compressor: .lz4) == expected.values.reduce(0, +))
        // Without a compressor, (de)compression costs nothing and is left out.
        #expect(costs.nanosecondsByCost(for: work)[.compress] == nil)
    }

    @Test("a run's deviceTimeByCostNs is its counted work times the profile's costs (a cold launch by hand)")
    func run() throws {
        let profile = try ProfileLoader().load(path: DeviceTimeTests.round)
        let scenario = try ScenarioLoader().parse("""
            scenario: 1
            name: by-cost
            device: { memory: 256MiB }
            apps:
              a:
                screens: { s: { tree: { depth: 1, fanout: 3, bytes: 1KiB } } }
                root: s
            script:
              - launch: a
            """, path: "by-cost.yaml")
        let run = try Simulation(scenario, cleanup: .ios6, termination: .jetsam, profile: profile).run()
        // One cold launch of four views: process 100 ms, app init 50 ms, first frame 10 ms; the
        // description file (24 + 4 x 24 = 120 B) at 100 MB/s = 1,200 ns + one read 100 us;
        // 4 views decoded x 10 us, 4 laid out x 5 us.
        #expect(run.metrics.deviceTimeByCostNs == ["process_start": 100_000_000, "app_init": 50_000_000,
                                                   "first_frame": 10_000_000, "storage_read": 101_200,
                                                   "view_decode": 40_000, "view_layout": 20_000])
        let work = try #require(run.metrics.work)
        #expect(work.processStarts == 1 && work.viewsDecoded == 4 && work.storageReadBytes == 120)
        // The results file writes it with its keys sorted.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = try #require(String(data: try encoder.encode(run.metrics.deviceTimeByCostNs), encoding: .utf8))
        #expect(json == #"{"app_init":50000000,"first_frame":10000000,"process_start":100000000,"storage_read":101200,"#
            + #""view_decode":40000,"view_layout":20000}"#)
    }
}

/// `heap_trim`: the heap bytes an app released entering the background, measured as its
/// ledger's drop over the transition, priced at the profile's throughput (docs/formats.md).
@Suite("heap_trim (ART heap.cc Heap::RequestTrim / Heap::Trim; libmalloc malloc_zone_pressure_relief)")
struct HeapTrimTests {
    @Test("a background transition counts the ledger's drop and charges it at heap_trim's throughput, rounded down")
    func backgroundTransition() throws {
        let profile = try ProfileLoader().load(path: DeviceTimeTests.round)
        #expect(profile.costs[.heapTrim] == .throughput(300_000_000))
        let runtime = try RuntimeContext(app: "trim")
        try runtime.register(ScreenSpec(name: "s", view: try .tree(depth: 1, fanout: 3, bytes: 1024, rootBacking: 1 << 20),
                                        cacheBytes: 512 << 10))
        let app = Application(name: "trim", runtime: runtime, hierarchy: .screen("s"))
        app.releasesOnBackground = [.cache]
        let device = Device(model: .init(budgetBytes: 256 << 20, purgesBackingStoresInBackground: true, costs: profile.costs),
                            termination: JetsamPolicy())
        device.install(app)
        #expect(try device.open("trim") == .cold)
        #expect(runtime.work[bytes: .heapTrim] == 0)
        let main = try #require(app.window.topViewController)
        let held = runtime.ledger.total
        let before = runtime.work
        try device.goHome()
        // The cache (512 KiB) and the root's bitmap (1 MiB) went; the drop is measured by
        // jemalloc, net of what the transition itself allocated (saving the archive).
        #expect(main.cache == nil && !main.hasBackingStores)
        let dropped = held - runtime.ledger.total
        #expect(dropped > 1 << 20 && dropped <= (1 << 20) + (512 << 10) + (64 << 10), "dropped \(dropped) bytes")
        let work = runtime.work - before
        #expect(work[bytes: .heapTrim] == dropped)
        #expect(work.storageWrites == 1)  // the archive: the rest of the transition's work
        let byCost = profile.costs.nanosecondsByCost(for: work)
        #expect(byCost[.heapTrim] == UInt64(dropped) * 1_000_000_000 / 300_000_000)
        // Back in front: nothing more is trimmed; a second Home counts its own drop only.
        #expect(try device.open("trim") == .resume)
        let again = runtime.work, heldAgain = runtime.ledger.total
        try device.goHome()
        #expect((runtime.work - again)[bytes: .heapTrim] == heldAgain - runtime.ledger.total)
        app.kill()
    }

    @Test("a run charges heap_trim outside any latency: deviceTimeByCostNs has it, launches do not")
    func run() throws {
        let profile = try ProfileLoader().load(path: DeviceTimeTests.round)
        let scenario = try ScenarioLoader().parse("""
            scenario: 1
            name: trim
            device: { memory: 256MiB }
            apps:
              a:
                screens: { s: { tree: { depth: 1, fanout: 3, bytes: 1KiB }, backing: 1MiB, cache: 512KiB } }
                root: s
                on_background: [caches]
              b:
                screens: { s: { tree: { depth: 0, bytes: 1KiB } } }
                root: s
            script:
              - launch: a
              - launch: b
            """, path: "trim.yaml")
        let run = try Simulation(scenario, cleanup: .ios6, termination: .jetsam, profile: profile).run()
        let work = try #require(run.metrics.work)
        #expect(work[bytes: .heapTrim] > 1 << 20)  // a's bitmap and cache, measured (net of the archive's bookkeeping)
        #expect(run.metrics.deviceTimeByCostNs?["heap_trim"] == UInt64(work[bytes: .heapTrim]) * 1_000_000_000 / 300_000_000)
        // b's cold launch, which sent a home, is b's own work only (a's trim is not in it):
        // 100 + 50 + 10 ms, its description (24 + 24 = 48 B) at 100 MB/s = 480 ns + one read
        // 100 us, one view decoded 10 us and laid out 5 us. a's, the other, is the larger.
        let cold = try #require(run.metrics.coldLaunchDeviceNs)
        #expect(cold.count == 2)
        #expect(cold.p50 == DeviceTimeTests.histogramValue(160_000_000 + 480 + 100_000 + 10_000 + 5_000))
        let json = try #require(String(data: try JSONEncoder().encode(work), encoding: .utf8))
        #expect(json.contains("\"heapTrimBytes\":\(work[bytes: .heapTrim])"))
    }
}
