import Foundation
@testable import PressureLab
@testable import PressureLabHarness
import PressureLabHeap
import PressureLabSweep
import SystemPackage
import Testing
import TestSupport

/// Gates that would pass on nothing: a misspelt baseline metric or thresholds key is an error.
@Suite("Gate inputs: unknown baseline metrics and thresholds keys", .serialized)
struct GateInputTests {
    @Test("a baseline metric this tool does not know is an error, or a warning when a newer tool saved it")
    func misspeltBaselineMetric() throws {
        var object = try ReaderHardeningTests.oneEntryBaseline(metrics: ["peakRetainedBytez": 1, "kilz": 0])
        let path = try ReaderHardeningTests.write(object, named: "misspelt.json")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let refused = ScenarioTexts.failure { () throws(GateError) in _ = try Baseline.read(from: path) }
        #expect(refused?.contains("has the metric 'kilz', which this tool does not know") == true)
        object["toolVersion"] = "99.0.0"
        var entries = try #require(object["entries"] as? [[String: Any]])
        entries[0]["metrics"] = ["peakRetainedBytes": 1.0, "futureMetric": 5.0]
        object["entries"] = entries
        let newer = try ReaderHardeningTests.write(object, named: "newer.json")
        defer { try? FileManager.default.removeItem(atPath: newer) }
        let baseline = try Baseline.read(from: newer)
        let report = GateReport.check([], against: baseline)
        #expect(report.findings.isEmpty)
        let entry = try #require(baseline.entries.first)
        var run = try HostileRunTests.run(ScenarioTexts.launchOnly)
        (run.scenario, run.policy, run.termination) = (entry.scenario, entry.policy, entry.termination)
        let checked = GateReport.check([run], against: baseline)
        #expect(checked.findings.map(\.metric) == ["peakRetainedBytes"])
        #expect(checked.warnings.contains { $0.contains("'futureMetric' is unknown to this tool (saved by pressurelab 99.0.0)") })
    }

    @Test("an unknown top-level thresholds key is an error")
    func thresholdsUnknownKey() throws {
        let path = try ReaderHardeningTests.write(["bytes": ["absolute": 0, "relativePercent": 0], "latncy": [:] as [String: Any]],
                                                  named: "thresholds.json")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let refused = ScenarioTexts.failure { () throws(GateError) in _ = try Thresholds.read(from: path) }
        #expect(refused == "\(path): invalid thresholds: unknown key 'latncy'; keys: bytes, latency, counts, deviceTime, metrics")
    }
}
