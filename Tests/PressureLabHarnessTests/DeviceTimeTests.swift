import Foundation
import PressureLab
import PressureLabHarness
import Testing

/// Device time: the work counted times a profile's costs. Deterministic, so these tests
/// assert exact figures and orders.
@Suite("Device time and device profiles")
struct DeviceTimeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let round = fixtures.appendingPathComponent("profiles/round.yaml").path

    @Test("a cold launch costs exactly its counted work times the profile's costs (by hand)")
    func handComputedColdLaunch() throws {
        let profile = try ProfileLoader().load(path: Self.round)
        let runtime = try RuntimeContext(app: "hand")
        // Four views (a root and three subviews of 1 KiB), a 1 MiB bitmap on the root.
        try runtime.register(ScreenSpec(name: "s", view: try .tree(depth: 1, fanout: 3, bytes: 1024, rootBacking: 1 << 20)))
        let app = Application(name: "hand", runtime: runtime, hierarchy: .screen("s"))
        let device = Device(model: .init(budgetBytes: 256 << 20, costs: profile.costs), termination: JetsamPolicy())
        device.install(app)
        #expect(try device.open("hand") == .cold)
        // process 100 ms + app init 50 ms + first frame 10 ms
        // + description file (24-byte header + 24 bytes a view = 120 B) at 100 MB/s = 1,200 ns, + one read 100 us
        // + 4 views decoded x 10 us + 4 laid out x 5 us + 1 MiB drawn at 1 GB/s = 1,048,576 ns
        let firstLaunch: UInt64 = 100_000_000 + 50_000_000 + 10_000_000 + 1_200 + 100_000 + 40_000 + 20_000 + 1_048_576
        #expect(device.metrics.launchDeviceLatency(.cold).max == Self.histogramValue(firstLaunch))
        #expect(runtime.work.processStarts == 1 && runtime.work.viewsDecoded == 4 && runtime.work.viewsLaidOut == 4)
        #expect(runtime.work.bitmapBytesDrawn == 1 << 20 && runtime.work.storageReadBytes == 120)
        #expect(profile.costs.nanoseconds(for: runtime.work) == firstLaunch)

        // Home saves the archive (A bytes); a kill, then a cold launch reads and decodes it.
        try device.goHome()
        let archiveBytes = try #require(try FileManager.default.attributesOfItem(atPath: app.archivePath)[.size] as? Int)
        device.installed("hand").map { _ in app.kill() }
        let before = runtime.work
        #expect(try device.open("hand") == .cold)
        let relaunch = profile.costs.nanoseconds(for: runtime.work - before)
        let archive = UInt64(archiveBytes) * 1_000_000_000 / 100_000_000 + 100_000 + UInt64(archiveBytes) * 1_000_000_000 / 10_000_000
        #expect(relaunch == firstLaunch + archive)
        app.kill()
    }

    /// HDR histograms keep three significant digits: the value a histogram reports for `value`.
    static func histogramValue(_ value: UInt64) -> UInt64 {
        var histogram = ReloadStatistics.makeTestHistogram()
        _ = histogram.record(value)
        return histogram.max
    }

    @Test("terms are integer arithmetic: bytes x 1e9 / rate, rounded down, without overflow")
    func transferArithmetic() {
        #expect(CostModel.transferNanoseconds(120, bytesPerSecond: 100_000_000) == 1_200)
        #expect(CostModel.transferNanoseconds(1, bytesPerSecond: 3) == 333_333_333)
        // (2^63 - 1) x 1e9 / 2^40 = 2^23 x 1e9 - a fraction: 128-bit intermediate, no overflow.
        #expect(CostModel.transferNanoseconds(Int.max, bytesPerSecond: 1 << 40) == 8_388_607_999_999_999)
        #expect(CostModel.transferNanoseconds(0, bytesPerSecond: 5) == 0)
    }

    @Test("under every bundled profile, resume < thaw < cold in device time, for the same app")
    func launchOrder() throws {
        let profiles = try ProfileLibrary.all(library: ScenarioLibrary(directory: Self.packageRoot + "/profiles"))
        #expect(profiles.count >= 2)
        for profile in profiles {
            // Both platforms discard a background app's drawn views (ViewRootImpl on Android).
            // XNU's freezer takes an app of 8 MB or more (FREEZE_PAGES_MIN) when more than 4
            // suspended apps are not frozen (FREEZE_SUSPENDED_THRESHOLD_DEFAULT) and at most half
            // the memory is available; its thread runs every 10 s. a is the head of the idle band.
            let filler = "{ screens: { s: { backing: 256KiB, cache: 512KiB } }, root: s }"
            let scenario = try ScenarioLoader().parse("""
                scenario: 1
                name: order
                device: { memory: 21MiB }
                apps:
                  a:
                    data: 2MiB
                    screens:
                      feed: { tree: { depth: 2, fanout: 6, bytes: 2KiB }, backing: 1MiB, cache: 5MiB, model: 1MiB }
                      detail: { tree: { depth: 2, fanout: 4, bytes: 2KiB }, backing: 1MiB, cache: 1MiB }
                    root: { tabs: [ { nav: feed }, detail ] }
                  f1: \(filler)
                  f2: \(filler)
                  f3: \(filler)
                  f4: \(filler)
                  f5: \(filler)
                script:
                  - launch: a
                  - switch: f1
                  - switch: f2
                  - switch: f3
                  - switch: f4
                  - switch: f5
                  - idle: 10s
                  - switch: a
                  - switch: f5

                """, path: "order.yaml")
            // No in-RAM compressor here: the freezer compresses and writes a itself.
            let run = try Simulation(scenario, cleanup: .ios6, termination: .freeze, profile: profile, compressor: Compressor.none).run()
            let cold = try #require(run.metrics.coldLaunchDeviceNs), resume = try #require(run.metrics.resumeDeviceNs)
            let thaw = try #require(run.metrics.thawDeviceNs)
            #expect(cold.count > 0 && resume.count > 0 && thaw.count > 0, "\(profile.name)")
            #expect(resume.p50 < thaw.p50, "\(profile.name): resume \(resume.p50) ns, thaw \(thaw.p50) ns")
            #expect(thaw.p50 < cold.p50, "\(profile.name): thaw \(thaw.p50) ns, cold \(cold.p50) ns")
        }
    }

    static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    @Test("two runs with the same scenario, seed and profile give identical device-time fields")
    func deterministic() throws {
        let profile = try ProfileLoader().load(path: Self.round)
        let scenario = try ScenarioLoader().load(path: Self.packageRoot + "/scenarios/photo-browser.yaml")
        var encoded: [Data] = []
        for _ in 0..<2 {
            let run = try Simulation(scenario, cleanup: .costAware, termination: .jetsam, profile: profile).run()
            encoded.append(try Self.withoutHostTimes(run))
        }
        #expect(encoded[0] == encoded[1])
    }

    /// A run's JSON with every host-time field removed (latencies measured here).
    static func withoutHostTimes(_ run: RunResult) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var object = try #require(try JSONSerialization.jsonObject(with: encoder.encode(run)) as? [String: Any])
        var metrics = try #require(object["metrics"] as? [String: Any])
        for key in metrics.keys where key.hasSuffix("LatencyNs") || key == "reloadTimeNs" { metrics.removeValue(forKey: key) }
        object["metrics"] = metrics
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    @Test("a profile's release: the platform's default when absent (iOS 12, Android 10); the bundled profiles name theirs")
    func releases() throws {
        let text = try String(contentsOfFile: Self.round, encoding: .utf8)
        #expect(try ProfileLoader().parse(text, path: "round.yaml").release == .iOS12)
        #expect(try ProfileLoader().parse(text.replacingOccurrences(of: "memory: 1GiB", with: "memory: 1GiB\nrelease: 18"),
                                          path: "round.yaml").release == .iOS18)
        let profiles = try ProfileLibrary.all(library: ScenarioLibrary(directory: Self.packageRoot + "/profiles"))
        #expect(Dictionary(uniqueKeysWithValues: profiles.map { ($0.name, $0.release) })
            == ["iphone-xs-2018": .iOS12, "pixel-3-2018": .android10, "pixel-4-2019": .android10])
        // The other platform's policy on a device is a what-if, and says so.
        #expect(Termination.freeze.whatIfNote(on: .android10)?.contains("Android does not ship") == true)
        #expect(Termination.freeze.whatIfNote(on: .iOS12) == nil)
        #expect(Termination.lmk.whatIfNote(on: .iOS18) != nil)
        #expect(Termination.lmk.whatIfNote(on: .android14) == nil)
    }

    @Test("bad profiles are refused with their location", arguments: [
        ("  process_start:  { time: 100ms, source: \"test value\" }", "  process_start:  { time: 100ms, source: \"x\", speed: 3 }",
         "costs.process_start.speed", "unknown key 'speed'"),
        ("  app_init:       { time: 50ms, source: \"test value\" }", "  app_init:       { time: 50ms }",
         "costs.app_init.source", "missing required key 'source'"),
        ("  bitmap_draw:    { throughput: 1GB/s, source: \"test value\" }", "  bitmap_draw:    { throughput: 0MB/s, source: \"x\" }",
         "costs.bitmap_draw.throughput", "is zero"),
        ("  cache_fill:     { throughput: 500MB/s, source: \"test value\" }", "  cache_fill:     { throughput: -5MB/s, source: \"x\" }",
         "costs.cache_fill.throughput", "not a throughput"),
        ("  view_decode:    { time: 10us, source: \"test value\" }", "  view_decode:    { time: 10 parsecs, source: \"x\" }",
         "costs.view_decode.time", "not a duration"),
        ("memory: 1GiB", "memory: 1GiB\nwarp: 9", "warp", "unknown key 'warp'"),
        ("memory: 1GiB", "memory: 1GiB\nrelease: 15", "release", "modelled releases are 12, 18"),
    ])
    func badProfiles(original: String, replacement: String, key: String, message: String) throws {
        let text = try String(contentsOfFile: Self.round, encoding: .utf8)
        #expect(text.contains(original))
        do {
            _ = try ProfileLoader().parse(text.replacingOccurrences(of: original, with: replacement), path: "bad.yaml")
            Issue.record("accepted: \(replacement)")
        } catch {
            let found = error.diagnostics.first { $0.key == key }
            #expect(found != nil, "\(error.description)")
            #expect(found?.message.contains(message) == true, "\(error.description)")
            #expect((found?.line ?? 0) > 1)
        }
    }
}
