import Foundation
import PressureLab
import PressureLabHarness
import PressureLabHeap
import Testing
import TestSupport

@Suite("Footprint regression gates", .serialized)
struct BaselineTests {
    static func directory() throws -> String {
        let path = Executable.temporary("baselines")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The small scenario with the detail screen's bitmap 10% bigger (1 MiB to 1.1 MiB).
    static func bloated(in directory: String) throws -> String {
        let text = try String(contentsOfFile: Executable.small, encoding: .utf8)
            .replacingOccurrences(of: "        backing: 1MiB", with: "        backing: 1.1MiB")
        let path = "\(directory)/small.yaml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("an unchanged run passes; a bloated controller fails with exit 2 naming scenario, metric and amounts")
    func gate() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let save = try Executable.run(["baseline", "save", "small", Executable.small, "--dir", directory,
                                       "--policy", "ios6", "--repeat", "3"])
        #expect(save.status == 0, "\(save.stderr)")
        let baseline = try Baseline.read(from: "\(directory)/small.json")
        #expect(baseline.entries.count == 1)
        #expect(baseline.entries[0].repeats == 3)
        #expect(baseline.allocator.hasPrefix("jemalloc"))

        // Bytes gate tightly; host latencies are not gated unless a thresholds file names them.
        let bytesOnly = Executable.packageRoot.appendingPathComponent("baselines/thresholds.json").path
        let same = try Executable.run(["baseline", "check", "small", Executable.small, "--dir", directory, "--repeat", "3",
                                       "--thresholds", bytesOnly])
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout.contains("no regression"))

        let markdown = "\(directory)/summary.md", export = "\(directory)/export.json"
        let bloated = try Executable.run(["baseline", "check", "small", try Self.bloated(in: directory), "--dir", directory,
                                          "--repeat", "3", "--markdown", markdown, "--export", export,
                                          "--thresholds", bytesOnly])
        #expect(bloated.status == 2, "\(bloated.stdout)\(bloated.stderr)")
        let line = try #require(bloated.stdout.split(separator: "\n").first { $0.contains("peakRetainedBytes") })
        #expect(line.hasPrefix("REGRESSION small / ios6 / jetsam: peakRetainedBytes measured "))
        #expect(line.contains("baseline ") && line.contains("allowed up to ") && line.contains("over by "))
        let summary = try String(contentsOfFile: markdown, encoding: .utf8)
        #expect(summary.contains("**failed**"))
        #expect(summary.contains("| small / ios6 / jetsam | peakRetainedBytes |"))
        let points = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: export))) as? [[String: Any]])
        #expect(points.contains { ($0["name"] as? String) == "small / ios6 / jetsam / peakRetainedBytes" && ($0["unit"] as? String) == "bytes" })
        #expect(points.allSatisfy { $0["value"] is Double || $0["value"] is Int })
    }

    @Test("thresholds are read from a file: a loose byte allowance lets the bloated run pass")
    func thresholdsFromFile() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try Executable.run(["baseline", "save", "small", Executable.small, "--dir", directory, "--policy", "ios6"]).status == 0)
        let loose = "\(directory)/loose.json"
        // A bigger bitmap also costs more device time (drawing it): loosen that too.
        try #"{ "bytes": { "absolute": 0, "relativePercent": 20 }, "deviceTime": { "absolute": 1e12, "relativePercent": 1e6 } }"#
            .write(toFile: loose, atomically: true, encoding: .utf8)
        let outcome = try Executable.run(["baseline", "check", "small", try Self.bloated(in: directory), "--dir", directory,
                                          "--thresholds", loose])
        #expect(outcome.status == 0, "\(outcome.stdout)")
        let strict = "\(directory)/strict.json"
        try #"{ "metrics": { "peakRetainedBytes": { "absolute": 0, "relativePercent": 1 } }, "bytes": { "absolute": 1e12, "relativePercent": 0 }, "deviceTime": { "absolute": 1e12, "relativePercent": 1e6 } }"#
            .write(toFile: strict, atomically: true, encoding: .utf8)
        let failing = try Executable.run(["baseline", "check", "small", try Self.bloated(in: directory), "--dir", directory,
                                          "--thresholds", strict])
        #expect(failing.status == 2)
        #expect(failing.stdout.split(separator: "\n").filter { $0.hasPrefix("REGRESSION") }.allSatisfy { $0.contains("peakRetainedBytes") })
        let invalid = "\(directory)/invalid.json"
        try #"{ "metrics": { "peakBytes": { "absolute": 0, "relativePercent": 1 } } }"#.write(toFile: invalid, atomically: true, encoding: .utf8)
        let rejected = try Executable.run(["baseline", "check", "small", Executable.small, "--dir", directory, "--thresholds", invalid])
        #expect(rejected.status == 1)
        #expect(rejected.stderr.contains("unknown metric 'peakBytes'"))
    }

    @Test("a missing or corrupt baseline is a clear error, not a pass")
    func brokenBaselines() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let missing = try Executable.run(["baseline", "check", "absent", Executable.small, "--dir", directory])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("absent.json: no such baseline"))
        try "{ not json".write(toFile: "\(directory)/corrupt.json", atomically: true, encoding: .utf8)
        let corrupt = try Executable.run(["baseline", "check", "corrupt", Executable.small, "--dir", directory])
        #expect(corrupt.status == 1)
        #expect(corrupt.stderr.contains("corrupt.json: the baseline is unreadable"))
        try #"{"schema":"pressurelab.baseline/1","name":"e","toolVersion":"0","allocator":"jemalloc","allocatorOptions":{},"entries":[]}"#
            .write(toFile: "\(directory)/empty.json", atomically: true, encoding: .utf8)
        #expect(try Executable.run(["baseline", "check", "empty", Executable.small, "--dir", directory]).status == 1)
    }

    @Test("a baseline from another allocator configuration warns")
    func allocatorWarning() throws {
        let scenario = try ScenarioLoader().load(path: Executable.small)
        let run = try Simulation(scenario, cleanup: .ios6).run()
        var baseline = try Baseline(name: "other", runs: [run])
        baseline.allocatorOptions["opt.narenas"] = "1"
        let report = GateReport.check([run], against: baseline, allocator: "jemalloc 5.3.0",
                                      allocatorOptions: ["opt.narenas": "8"])
        #expect(report.passed)
        #expect(report.warnings.count == 1)
        #expect(report.text.hasPrefix("warning: the baseline was measured with"))
    }

    @Test("baselines and results name the compressors' libraries; another version warns")
    func compressorWarning() throws {
        let scenario = try ScenarioLoader().load(path: Executable.small)
        let run = try Simulation(scenario, cleanup: .ios6).run()
        var baseline = try Baseline(name: "other", runs: [run])
        #expect(baseline.compressors?["lz4"]?.hasPrefix("liblz4 ") == true)
        #expect(baseline.compressors?["zstd"]?.hasPrefix("libzstd ") == true)
        #expect(try ResultsFile(version: "t", runs: [run]).host.compressors == PageCodec.libraries)
        #expect(GateReport.check([run], against: baseline, compressors: PageCodec.libraries).warnings.isEmpty)
        baseline.compressors?["lz4"] = "liblz4 1.0.0"
        let report = GateReport.check([run], against: baseline, compressors: PageCodec.libraries)
        #expect(report.passed)
        #expect(report.warnings == ["the baseline was measured with liblz4 1.0.0, this run has \(PageCodec.lz4.library); "
            + "compressed sizes, and footprints and device times with compression, may differ for that reason alone"])
    }

    @Test("our own bundled scenarios stay within their committed footprint baseline")
    func bundledFootprint() throws {
        let outcome = try Executable.run(["baseline", "check", "bundled", "--thresholds", "baselines/thresholds.json"])
        #expect(outcome.status == 0, "a bundled scenario's footprint regressed:\n\(outcome.stdout)\(outcome.stderr)")
    }
}
