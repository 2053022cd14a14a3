import Foundation
import GRDB
import PressureLabHarness
import PressureLabSweep
import Testing
import TestSupport

/// A sweep of a scenario simulated at 1/N of its size (`device.memory_scale`, docs/importing.md,
/// "Processes bigger than the host"): its database says the scale beside its full-size figures.
@Suite("Sweeps: the memory scale in the database", .serialized)
struct SweepMemoryScaleTests {
    @Test("cells.memory_scale is the scenario's scale (1 without one), and the bytes are the results file's, at full size")
    func databaseSaysTheScale() throws {
        let base = try Executable.temporaryDirectory("sweep-memory-scale")
        defer { try? FileManager.default.removeItem(at: base) }
        // An app of 64 MiB of data on a 512 MiB device, at 1/4.
        try """
            scenario: 1
            name: big
            device:
              memory: 128MiB
              memory_scale: 4
            apps:
              big:
                data: 16384KiB
                screens:
                  main:
                    tree: { views: 1, fanout: 1, bytes: 256B }
                root: main
            script:
              - launch: big
              - idle: 1s
            """.write(to: base.appendingPathComponent("big.yaml"), atomically: true, encoding: .utf8)
        let sweep = base.appendingPathComponent("grid.yaml").path
        try """
            sweep: 1
            output: results
            scenarios: [big.yaml, \(Executable.small)]
            policy: [keep-all]
            """.write(toFile: sweep, atomically: true, encoding: .utf8)
        let run = try Executable.run(["sweep", sweep, "--jobs", "1"])
        #expect(run.status == 0, "\(run.stderr)")

        let results = base.appendingPathComponent("results/results.json").path
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: results))) as? [String: Any]
        let runs = try #require(object?["runs"] as? [[String: Any]])
        let peaks = runs.map { (($0["metrics"] as? [String: Any])?["peakRetainedBytes"] as? Double) ?? -1 }
        let database = try DatabaseQueue(path: base.appendingPathComponent("results/results.sqlite").path)
        try database.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT scenario, memory_scale FROM cells ORDER BY cell")
            #expect(rows.map { $0["scenario"] as String } == ["big", "small"])
            #expect(rows.map { $0["memory_scale"] as Int } == [4, 1])
            let stored = try Double.fetchAll(db, sql: "SELECT value FROM results WHERE metric = 'peakRetainedBytes' ORDER BY cell")
            #expect(stored == peaks)
        }
        // Full size: the 16 MiB the scenario declares is reported as 64 MiB and more.
        #expect(peaks.count == 2 && peaks[0] >= 64 * 1_048_576, "\(peaks)")
        #expect(runs.first?["memoryScale"] as? Int == 4)
    }
}
