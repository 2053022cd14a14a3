import Foundation
import PressureLab
import PressureLabHarness
import PressureLabSweep
import Testing
import TestSupport

/// Sweep files: their axes, the cells they expand to (in a fixed order), shards, and located errors.
@Suite("Sweep files: axes, cells, shards, errors")
struct SweepFileTests {
    static let directory = Executable.fixtures.path

    static func plan(_ text: String) throws -> SweepPlan {
        try SweepPlan(try SweepFile.parse(text, path: "\(directory)/grid.yaml"))
    }

    @Test("axes expand in a fixed order: scenarios, policies, terminations, profiles, compressors, seeds")
    func expansion() throws {
        let plan = try Self.plan("""
            sweep: 1
            scenarios: [small.yaml]
            policy: [ios6, lru]
            termination: [jetsam, lmk]
            compressor: [none, lz4]
            seeds: { from: 1, to: 2 }
            repeat: 2
            """)
        #expect(plan.cells.count == 16)
        #expect(plan.cells.map(\.index) == Array(0..<16))
        #expect(plan.cells[0].key == "small / ios6 / jetsam / - / none / 1 / -")
        #expect(plan.cells[1].key == "small / ios6 / jetsam / - / none / 2 / -")
        #expect(plan.cells[2].key == "small / ios6 / jetsam / - / lz4 / 1 / -")
        #expect(plan.cells[4].key == "small / ios6 / lmk / - / none / 1 / -")
        #expect(plan.cells[15].key == "small / lru / lmk / - / lz4 / 2 / -")
        #expect(plan.cells.allSatisfy { $0.repeats == 2 && $0.scenarioPath == "\(Self.directory)/small.yaml" })
        #expect(plan.output == "\(Self.directory)/grid-results")
    }

    @Test("the hash names the cells, not the file's spelling; another axis value is another sweep")
    func hash() throws {
        let one = try Self.plan("sweep: 1\nscenarios: [small.yaml]\npolicy: [ios6, lru]\n")
        let same = try Self.plan("sweep: 1\npolicy: [ios6, lru]\nscenarios:\n  - small.yaml\ntermination: jetsam\n")
        let other = try Self.plan("sweep: 1\nscenarios: [small.yaml]\npolicy: [ios6, ios3]\n")
        #expect(one.hash == same.hash)
        #expect(one.hash != other.hash)
    }

    @Test("shard I/N takes the cells whose index modulo N is I - 1: every cell in exactly one shard")
    func shards() throws {
        let plan = try Self.plan("sweep: 1\nscenarios: [small.yaml]\npolicy: all\n")
        #expect(plan.cells.count == 7)
        let shards = try (1...3).map { number throws(SweepError) in plan.cells(in: try Shard(parsing: "\(number)/3")).map(\.index) }
        #expect(shards == [[0, 3, 6], [1, 4], [2, 5]])
        for text in ["0/3", "4/3", "1/0", "x", "1/2/3", "-1/2"] {
            #expect(throws: SweepError.invalidShard(text)) { try Shard(parsing: text) }
        }
    }

    @Test("user: all makes one cell per user of a replay trace")
    func users() throws {
        let plan = try Self.plan("sweep: 1\nscenarios: [replay.yaml, small.yaml]\nuser: all\n")
        let replayUsers = try #require(try ScenarioLoader().replayUsers(inScenarioAt: "\(Self.directory)/replay.yaml"))
        #expect(plan.cells.filter { $0.scenario != "small" }.map(\.user) == replayUsers.map(Optional.some))
        #expect(plan.cells.filter { $0.scenario == "small" }.map(\.user) == [nil])
    }

    @Test("every problem is reported with its line and key")
    func errors() {
        let text = """
            sweep: 2
            policy: [ios6, ios9]
            seeds: { from: 5, to: 1 }
            repeat: 0
            compressor: [lz4, lz4]
            colour: blue
            """
        #expect(throws: SweepError.invalidFile(path: "g.yaml", problems: [
            "g.yaml:1:8: sweep: expected 'sweep: 1' (the format's version)",
            "g.yaml:2:9: policy: unknown value 'ios9' (did you mean 'ios2', 'ios3' or 'ios6'?); valid values are keep-all, ios2, ios3, ios6, aggressive, lru, cost-aware",
            "g.yaml:3:8: seeds: expected { from: A, to: B } with whole numbers A <= B",
            "g.yaml:4:9: repeat: expected a whole number from 1 to 1000",
            "g.yaml:5:13: compressor: a value is listed twice",
            "g.yaml:6:1: colour: unknown key; valid keys are sweep, output, scenarios, policy, termination, profile, compressor, seeds, repeat, user, step_timeout, cell_timeout",
        ].sorted())) {
            do throws(SweepError) {
                _ = try SweepFile.parse(text, path: "g.yaml")
            } catch {
                guard case .invalidFile(let path, let problems) = error else { throw error }
                throw SweepError.invalidFile(path: path, problems: problems.sorted())
            }
        }
    }
}
