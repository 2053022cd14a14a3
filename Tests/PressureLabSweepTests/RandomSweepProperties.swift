import Foundation
import PressureLab
import PressureLabHarness
import PressureLabSweep
import Testing
import TestSupport

/// Seeded random valid sweep files: each expands to the product of its axes, in index
/// order; its shards partition the cells; the same file spelt otherwise is the same sweep;
/// and a resume over any set of finished records runs exactly the others.
@Suite("Random sweeps expand, shard and resume consistently", .serialized)
struct RandomSweepProperties {
    /// One random valid sweep file and the cell count its axes multiply to.
    static func randomSweep(_ random: inout SplitMix64) -> (text: String, reordered: String, cells: Int) {
        func pick<T>(_ values: [T], atLeast: Int = 1) -> [T] {
            let count = atLeast + Int(random.next() % UInt64(values.count - atLeast + 1))
            var chosen = values
            for index in stride(from: chosen.count - 1, to: 0, by: -1) { chosen.swapAt(index, Int(random.next() % UInt64(index + 1))) }
            return Array(chosen.prefix(count))
        }
        let scenarios = pick(["small.yaml", "replay.yaml"])
        let policies = pick(Cleanup.builtIns.map(\.name))
        let terminations = pick(Termination.builtIns.map(\.name))
        let compressors = pick(Compressor.allCases.map(\.rawValue))
        let profiles = random.next() % 2 == 0 ? [] : pick(["iphone-xs-2018", "pixel-3-2018"])
        let seedFrom = random.next() % 1000, seedCount = 1 + random.next() % 4
        let repeats = 1 + Int(random.next() % 3)
        let users = scenarios.contains("replay.yaml") && random.next() % 2 == 0
        var lines = [
            "scenarios: [\(scenarios.joined(separator: ", "))]",
            "policy: [\(policies.joined(separator: ", "))]",
            "termination: [\(terminations.joined(separator: ", "))]",
            "compressor: [\(compressors.joined(separator: ", "))]",
            "seeds: { from: \(seedFrom), to: \(seedFrom + seedCount - 1) }",
            "repeat: \(repeats)",
        ]
        if !profiles.isEmpty { lines.append("profile: [\(profiles.joined(separator: ", "))]") }
        if users { lines.append("user: all") }
        // The replay fixture's trace has 3 users; a scenario without a replay is one cell a combination.
        let scenarioCells = scenarios.map { users && $0 == "replay.yaml" ? 3 : 1 }.reduce(0, +)
        let cells = scenarioCells * policies.count * terminations.count * compressors.count * Int(seedCount) * max(1, profiles.count)
        let text = (["sweep: 1"] + lines).joined(separator: "\n") + "\n"
        let reordered = (["sweep: 1"] + lines.reversed()).joined(separator: "\n") + "\n# the same sweep, spelt otherwise\n"
        return (text, reordered, cells)
    }

    @Test("50 seeded random sweeps: product of the axes, shards partition, same hash however spelt, resume runs the rest")
    func randomSweeps() throws {
        var random = SplitMix64(seed: 20_261_124)
        let fixtures = Executable.fixtures.path
        let replayUsers = try #require(try ScenarioLoader().replayUsers(inScenarioAt: "\(fixtures)/replay.yaml"))
        #expect(replayUsers.count == 3)
        let directory = try Executable.temporaryDirectory("random-sweeps")
        defer { try? FileManager.default.removeItem(at: directory) }
        let results = try ResultsFile(version: PressureLabVersion.current, runs: [])
        for round in 0..<50 {
            let sweep = Self.randomSweep(&random)
            let plan = try SweepPlan(try SweepFile.parse(sweep.text, path: "\(fixtures)/random-\(round).yaml"))
            #expect(plan.cells.count == sweep.cells, "\(sweep.text)")
            #expect(plan.cells.map(\.index) == Array(0..<sweep.cells))
            let again = try SweepPlan(try SweepFile.parse(sweep.reordered, path: "\(fixtures)/random-\(round).yaml"))
            #expect(again.hash == plan.hash && again.cells == plan.cells)
            // Shards: every cell in exactly one, whatever N.
            let count = 1 + Int(random.next() % 5)
            let shards = (1...count).map { plan.cells(in: Shard(number: $0, count: count)).map(\.index) }
            #expect(shards.flatMap { $0 }.sorted() == plan.cells.map(\.index))
            // Resume: with a random set of cells finished, exactly the others are run.
            let output = SweepDirectory(path: directory.appendingPathComponent("r\(round)").path)
            let runner = SweepRunner(plan: plan, directory: output, jobs: 1, worker: .init(executable: "/bin/false", arguments: []))
            let fresh = try runner.prepare(resume: false)
            #expect(fresh.cells == plan.cells && fresh.alreadyFinished == 0)
            let finished = plan.cells.filter { _ in random.next() % 3 == 0 }
            for cell in finished { try output.write(CellRecord(tool: PressureLabVersion.current, sweep: plan.hash, cell: cell, results: results)) }
            let resumed = try runner.prepare(resume: true)
            #expect(resumed.alreadyFinished == finished.count)
            #expect(resumed.cells.map(\.index) == plan.cells.map(\.index).filter { index in !finished.contains { $0.index == index } })
        }
    }
}
