import Foundation
import PressureLabHarness
import Testing
import TestSupport

/// Readers refuse files that would make a gate or a report say something untrue.
@Suite("Reader hardening: baselines, thresholds and results files")
struct ReaderHardeningTests {
    /// The committed baseline cut to its first entry, as JSON text.
    static func oneEntryBaseline(metrics: [String: Double]? = nil) throws -> [String: Any] {
        let url = Executable.packageRoot.appendingPathComponent("baselines/bundled.json")
        var baseline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var entry = try #require((baseline["entries"] as? [[String: Any]])?.first)
        if let metrics { entry["metrics"] = metrics }
        baseline["entries"] = [entry]
        return baseline
    }

    static func write(_ object: Any, named name: String) throws -> String {
        let path = Executable.temporary(name)
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a baseline whose entry has no metrics is refused, naming the entry (it would check 0 metrics and pass)")
    func baselineEntryWithoutMetrics() throws {
        let path = try Self.write(try Self.oneEntryBaseline(metrics: [:]), named: "no-metrics.json")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            _ = try Baseline.read(from: path)
        } throws: { error in
            guard case .baselineCorrupt(let errorPath, let reason) = error as? GateError else { return false }
            return errorPath == path && reason.contains("entry 'day-of-apps / ios6 / jetsam' has no metrics")
        }
    }

    @Test("a baseline whose entries all have metrics still reads")
    func baselineWithMetrics() throws {
        let path = try Self.write(try Self.oneEntryBaseline(), named: "one-entry.json")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let baseline = try Baseline.read(from: path)
        #expect(baseline.entries.count == 1)
        #expect(!baseline.entries[0].metrics.isEmpty)
    }

    @Test("a results file of another schema is refused by name, even when its fields fit")
    func resultsOfAnotherSchema() throws {
        var results = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(
            ResultsFile(version: "test", runs: []))) as? [String: Any])
        #expect(try ResultsFile.decode(JSONSerialization.data(withJSONObject: results), path: "results.json").runs.isEmpty)

        results["schema"] = "pressurelab.results/2"
        let other = try JSONSerialization.data(withJSONObject: results)
        #expect(throws: ResultsFileError.wrongSchema(path: "other.json", found: "pressurelab.results/2")) {
            _ = try ResultsFile.decode(other, path: "other.json")
        }
        let message = ResultsFileError.wrongSchema(path: "other.json", found: "pressurelab.results/2").description
        #expect(message.contains("schema 'pressurelab.results/2'") && message.contains("pressurelab.results/1"))
    }

    @Test("a baseline given to the results reader is refused as a baseline, not as a malformed results file")
    func baselineAsResults() throws {
        let baseline = try JSONSerialization.data(withJSONObject: try Self.oneEntryBaseline())
        #expect(throws: ResultsFileError.wrongSchema(path: "b.json", found: "pressurelab.baseline/1")) {
            _ = try ResultsFile.decode(baseline, path: "b.json")
        }
        var unnamed = try Self.oneEntryBaseline()
        unnamed["schema"] = nil
        #expect(throws: ResultsFileError.wrongSchema(path: "b.json", found: nil)) {
            _ = try ResultsFile.decode(try JSONSerialization.data(withJSONObject: unnamed), path: "b.json")
        }
    }

    @Test("thresholds with a negative allowance for counts are refused like bytes and latency")
    func negativeCountAllowance() throws {
        let data = Data(#"{"counts": {"absolute": -1, "relativePercent": 0}}"#.utf8)
        #expect(throws: GateError.thresholdsInvalid(path: "t.json", reason: "'counts' has a negative allowance")) {
            _ = try Thresholds.decode(data, path: "t.json")
        }
        let committed = Executable.packageRoot.appendingPathComponent("baselines/thresholds.json").path
        #expect(try Thresholds.read(from: committed).counts == .init(absolute: 0, relativePercent: 0))
    }
}
