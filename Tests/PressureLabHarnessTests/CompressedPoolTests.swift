import Foundation
import PressureLab
import PressureLabHarness
import Testing

/// The in-RAM compressed pool: compressing before killing keeps more apps cached, a resume
/// from compressed memory costs its decompression, and what comes back is byte-identical.
@Suite("The in-RAM compressed pool")
struct CompressedPoolTests {
    static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// fleet-switching names the Android profile (its workload is Fleet's, on Android).
    static func run(_ name: String, compressor: Compressor, profile: String = "pixel-3-2018") throws -> RunResult {
        let scenario = try ScenarioLoader().load(path: "\(packageRoot)/scenarios/\(name).yaml")
        let deviceProfile = try ProfileLoader().load(path: "\(packageRoot)/profiles/\(profile).yaml")
        return try ScenarioRunner().run(scenario, policy: "ios6", termination: "jetsam", profile: deviceProfile, compressor: compressor)
    }

    @Test("with compression on, the same scenario keeps more apps cached and kills fewer", arguments: ["lz4", "zstd"])
    func moreCached(codec: String) throws {
        let off = try Self.run("fleet-switching", compressor: .none)
        let on = try Self.run("fleet-switching", compressor: Compressor(rawValue: codec)!)
        #expect(on.metrics.cachedAppsMean > off.metrics.cachedAppsMean)
        #expect(on.metrics.kills < off.metrics.kills)
        #expect((on.metrics.compressions ?? 0) > 0 && off.metrics.compressions == 0)
        #expect((on.metrics.compressionRatio ?? 0) > 1.5)
        #expect((on.metrics.compressedBytesPeak ?? 0) > 0)
    }

    @Test("a resume from compressed memory is slower than a plain resume and faster than a cold launch (device time)",
          arguments: ["iphone-xs-2018", "pixel-3-2018"])
    func resumeOrder(profile: String) throws {
        let deviceProfile = try ProfileLoader().load(path: "\(Self.packageRoot)/profiles/\(profile).yaml")
        func resumeDeviceTime(pressure: Bool) throws -> (resume: UInt64, cold: UInt64) {
            // b is left suspended; c's launch puts the device under pressure (or not) and b is
            // compressed (or not); then b resumes. Their memory is mostly caches and app data:
            // on iOS the system discards drawn views in the background.
            let scenario = try ScenarioLoader().parse("""
                scenario: 1
                name: resume
                device: { memory: \(pressure ? "20MiB" : "64MiB") }
                apps:
                  b: { data: 3MiB, screens: { s: { tree: { depth: 2, fanout: 5, bytes: 2KiB }, backing: 1MiB, cache: 4MiB } }, root: { nav: s } }
                  c: { screens: { s: { backing: 1MiB, cache: 8MiB } }, root: s }
                script:
                  - launch: b
                  - launch: c
                  - switch: b

                """, path: "resume.yaml")
            let run = try ScenarioRunner().run(scenario, policy: "keep-all", termination: "jetsam", profile: deviceProfile,
                                               compressor: .lz4)
            // Under pressure b is compressed when c launches (and c when b comes back).
            #expect(pressure ? (run.metrics.compressions ?? 0) >= 1 : run.metrics.compressions == 0, "\(profile) pressure \(pressure)")
            // b comes back by a resume (c may be killed to make room for it; b is not).
            #expect(run.metrics.resumes == 1 && run.metrics.coldLaunches == 2, "\(profile) pressure \(pressure)")
            return (try #require(run.metrics.resumeDeviceNs).max, try #require(run.metrics.coldLaunchDeviceNs).p50)
        }
        let plain = try resumeDeviceTime(pressure: false)
        let compressed = try resumeDeviceTime(pressure: true)
        #expect(plain.resume < compressed.resume, "\(profile): plain \(plain.resume) ns, compressed \(compressed.resume) ns")
        #expect(compressed.resume < compressed.cold, "\(profile): compressed \(compressed.resume) ns, cold \(compressed.cold) ns")
    }

    @Test("memory that went through the pool comes back byte-identical (checksums)", arguments: [Compressor.lz4, .zstd])
    func byteIdentical(codec: Compressor) throws {
        let runtime = try RuntimeContext(app: "b")
        runtime.contents = MemoryContents(ratios: [.view: 3, .backing: 2.5, .cache: 1.5, .model: 2.5, .userData: 2], pageBytes: 4096, seed: 5)
        try runtime.register(ScreenSpec(name: "s", view: try .tree(depth: 2, fanout: 3, bytes: 1500, rootBacking: 1 << 20),
                                         outlets: 2, cacheBytes: 300_000, modelBytes: 50_000))
        let app = Application(name: "b", runtime: runtime, hierarchy: .navigation(["s"]))
        app.appDataBytes = 100_000
        let other = try RuntimeContext(app: "o")
        try other.register(ScreenSpec(name: "s", view: try .single(bytes: 64)))
        let device = Device(configuration: .init(budgetBytes: 512 << 20, compressor: codec), termination: JetsamPolicy())
        device.install(app)
        device.install(Application(name: "o", runtime: other, hierarchy: .screen("s")))
        try device.open("b")
        try (app.rootViewController as! NavigationController).push(try runtime.makeController(screen: "s"))
        app.window.topViewController!.type(bytes: 12_345)
        try device.open("o")
        let before = app.controllers.map(\.memoryChecksums)
        let heldBefore = runtime.ledger.total
        #expect(device.compress(device.installed("b")!))
        #expect(device.installed("b")!.isCompressed)
        #expect(runtime.ledger.total < heldBefore)  // the pool holds less than the memory it took
        // A region per controller holding memory (the container, both screens) and the app data.
        #expect(device.metrics.compressions == 4)
        #expect(app.controllers.allSatisfy(\.isCompressed) && app.isAppDataCompressed)
        try device.open("b")
        // The resume brings back what it touches: the app data and what is on screen; the
        // screen below the top stays compressed until it is touched.
        let hidden = app.controllers.filter { !$0.appearance.isOnScreen }
        #expect(hidden.map(\.id.description) == ["s#1"] && hidden[0].isViewLoaded)
        #expect(hidden.allSatisfy(\.isCompressed) && !app.isAppDataCompressed)
        #expect(app.controllers.filter(\.appearance.isOnScreen).allSatisfy { !$0.isCompressed })
        #expect(device.metrics.decompressions == 3)
        #expect(runtime.work.bytesDecompressed < runtime.work.bytesCompressed)
        // Reading the hidden screen's memory touches it: everything is back, byte-identical.
        #expect(app.controllers.map(\.memoryChecksums) == before)
        #expect(device.metrics.decompressions == 4 && device.metrics.compressedBytesNow == 0)
        #expect(runtime.compressedRegions == 0 && runtime.compressedBytes == 0)
        #expect(runtime.work.bytesCompressed > 0 && runtime.work.bytesDecompressed == runtime.work.bytesCompressed)
        app.kill()
    }

    @Test("a warning that frees compressed memory decompresses it first; a kill drops it unread")
    func touchAndDiscard() throws {
        let runtime = try RuntimeContext(app: "b")
        runtime.contents = MemoryContents(ratios: [.view: 3, .backing: 2.5, .cache: 1.5], pageBytes: 4096, seed: 5)
        try runtime.register(ScreenSpec(name: "s", view: try .tree(depth: 1, fanout: 2, bytes: 1500, rootBacking: 256 << 10),
                                         cacheBytes: 200_000))
        let app = Application(name: "b", runtime: runtime, hierarchy: .navigation(["s"]))
        let other = try RuntimeContext(app: "o")
        try other.register(ScreenSpec(name: "s", view: try .single(bytes: 64)))
        let device = Device(configuration: .init(budgetBytes: 512 << 20, compressor: .lz4), termination: JetsamPolicy())
        device.install(app)
        device.install(Application(name: "o", runtime: other, hierarchy: .screen("s")))
        try device.open("b")
        try (app.rootViewController as! NavigationController).push(try runtime.makeController(screen: "s"))
        try device.open("o")
        #expect(device.compress(device.installed("b")!))
        try device.open("b")
        let hidden = try #require(app.controllers.first { !$0.appearance.isOnScreen })
        #expect(hidden.isCompressed)
        let decompressedBefore = runtime.work.bytesDecompressed
        // Purging the hidden screen's cache touches its memory: it comes back, then the cache goes.
        #expect(hidden.purgeCache())
        #expect(!hidden.isCompressed && hidden.cache == nil)
        #expect(runtime.work.bytesDecompressed > decompressedBefore)
        // Compressed again, then killed: the region is dropped without being read back.
        try device.open("o")
        #expect(device.compress(device.installed("b")!))
        let decompressed = device.metrics.decompressions
        let bytesDecompressed = runtime.work.bytesDecompressed
        app.kill()
        #expect(device.metrics.decompressions == decompressed && runtime.work.bytesDecompressed == bytesDecompressed)
        #expect(device.metrics.compressedBytesNow == 0 && runtime.compressedRegions == 0)
        #expect(device.compressedPool?.discards ?? 0 > 0)
    }

    /// An app with realistic contents on a device with `codec`, frozen, and the path of its file.
    static func frozenApp(codec: Compressor) throws -> (Device, Application, checksums: [[UInt64]], held: Int) {
        let runtime = try RuntimeContext(app: "f")
        runtime.contents = MemoryContents(ratios: [.view: 3, .backing: 2.5, .cache: 1.5], pageBytes: 4096, seed: 5)
        try runtime.register(ScreenSpec(name: "s", view: try .tree(depth: 2, fanout: 3, bytes: 1500, rootBacking: 2 << 20),
                                         cacheBytes: 300_000))
        let app = Application(name: "f", runtime: runtime, hierarchy: .screen("s"))
        let other = try RuntimeContext(app: "o")
        try other.register(ScreenSpec(name: "s", view: try .single(bytes: 64)))
        let device = Device(configuration: .init(budgetBytes: 512 << 20, compressor: codec), termination: FreezePolicy())
        device.install(app)
        device.install(Application(name: "o", runtime: other, hierarchy: .screen("s")))
        try device.open("f")
        try device.open("o")
        let checksums = app.controllers.map(\.memoryChecksums)
        let held = runtime.ledger.total
        #expect(device.freeze(device.installed("f")!))
        return (device, app, checksums, held)
    }

    @Test("the freezer writes compressed pages, and a thaw reads and decompresses them, byte-identical")
    func compressedFreezer() throws {
        let (device, app, checksums, held) = try Self.frozenApp(codec: .lz4)
        // About 2.3 MiB held; the file holds the compressed pages: well under that.
        #expect(device.metrics.frozenBytesWritten < held * 2 / 3)
        #expect(app.runtime.work.bytesCompressed > device.metrics.frozenBytesWritten)
        try device.open("f")
        #expect(device.metrics.thaws == 1)
        #expect(app.controllers.map(\.memoryChecksums) == checksums)
        #expect(app.runtime.work.bytesDecompressed == app.runtime.work.bytesCompressed)
        app.kill()
    }

    @Test("a thaw from a corrupt or truncated compressed freezer file is a clean kill, not a crash", arguments: ["corrupt", "truncated"])
    func corruptFreezerFile(damage: String) throws {
        let (device, app, _, _) = try Self.frozenApp(codec: .lz4)
        let path = "\(app.runtime.bundle.directory)/f.frozen"
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        if damage == "truncated" {
            data = data.prefix(data.count / 2)
        } else {
            for index in stride(from: 16, to: data.count, by: 97) { data[index] ^= 0x5A }
        }
        try data.write(to: URL(fileURLWithPath: path))
        #expect(try device.open("f") == .cold)
        #expect(device.metrics.kills == 1)
        #expect(app.state == .active)
        app.kill()
    }
}

@Suite("Scenario content overrides")
struct ContentOverrideTests {
    @Test("device.content overrides the profile's compressibility, kind by kind; bad ratios are located")
    func override() throws {
        let text = """
            scenario: 1
            name: c
            device: { memory: 64MiB, content: { backing: 10.0, cache: 1.0 } }
            apps:
              a: { screens: { s: { backing: 1MiB } }, root: s }
            script: [ { launch: a } ]

            """
        let scenario = try ScenarioLoader().parse(text, path: "c.yaml")
        #expect(scenario.device.content == ["backing": 10.0, "cache": 1.0])
        do {
            _ = try ScenarioLoader().parse(text.replacingOccurrences(of: "cache: 1.0", with: "cache: 0.5"), path: "c.yaml")
            Issue.record("a ratio below 1 was accepted")
        } catch {
            #expect(error.diagnostics.map(\.key) == ["device.content.cache"])
            #expect(error.diagnostics.first?.line == 3)
        }
    }
}
