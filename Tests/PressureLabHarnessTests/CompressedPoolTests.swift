import Foundation
import PressureLab
import PressureLabHarness
import Testing

/// The in-RAM compressed pool in whole runs: compressing before killing keeps more apps
/// cached, and a resume from compressed memory costs its decompression. (Region by region,
/// byte-identical round trips and the compressing freezer: `CompressedMemoryTests`.)
@Suite("The in-RAM compressed pool")
struct CompressedPoolTests {
    static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// fleet-switching names the Android profile (its workload is Fleet's, on Android).
    static func run(_ name: String, compressor: Compressor, profile: String = "pixel-3-2018") throws -> RunResult {
        let scenario = try ScenarioLoader().load(path: "\(packageRoot)/scenarios/\(name).yaml")
        let deviceProfile = try ProfileLoader().load(path: "\(packageRoot)/profiles/\(profile).yaml")
        return try Simulation(scenario, cleanup: .ios6, termination: .jetsam, profile: deviceProfile, compressor: compressor).run()
    }

    @Test("with compression on, the same scenario keeps more apps cached and kills fewer", arguments: ["lz4", "zstd"])
    func moreCached(codec: String) throws {
        // day-of-apps on the Android profile: seven phone-sized apps, more than fit uncompressed.
        let off = try Self.run("day-of-apps", compressor: .none)
        let on = try Self.run("day-of-apps", compressor: Compressor(rawValue: codec)!)
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
            let run = try Simulation(scenario, cleanup: .keepAll, termination: .jetsam, profile: deviceProfile,
                                               compressor: .lz4).run()
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
        #expect(scenario.device.content == [.backing: 10.0, .cache: 1.0])
        do {
            _ = try ScenarioLoader().parse(text.replacingOccurrences(of: "cache: 1.0", with: "cache: 0.5"), path: "c.yaml")
            Issue.record("a ratio below 1 was accepted")
        } catch {
            #expect(error.diagnostics.map(\.key) == ["device.content.cache"])
            #expect(error.diagnostics.first?.line == 3)
        }
    }
}
