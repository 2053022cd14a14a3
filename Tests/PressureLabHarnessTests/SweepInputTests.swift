import Foundation
@testable import PressureLab
@testable import PressureLabHarness
import PressureLabHeap
import PressureLabSweep
import SystemPackage
import Testing
import TestSupport

/// Sweep files read with the scenario reader's defences and their errors located; results
/// files that cannot be written refused, leaving nothing; shard counts bounded; cell records
/// named strictly, and unreadable ones run again on resume.
@Suite("Sweep inputs: the reader's defences, located errors, bounded shards, cell records, resume", .serialized)
struct SweepInputTests {
    @Test("sweep files: an alias bomb, an empty file, a syntax error, each named and located; problems have columns")
    func sweepDefences() {
        var bomb = "sweep: 1\na: &a [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 { bomb += "l\(level): &l\(level) [" + Array(repeating: level == 1 ? "*a" : "*l\(level - 1)", count: 10).joined(separator: ", ") + "]\n" }
        let bombed = ScenarioTexts.failure { () throws(SweepError) in _ = try SweepFile.parse(bomb, path: "b.yaml") }
        #expect(bombed?.hasPrefix("b.yaml:") == true && bombed?.contains("YAML aliases") == true)
        let empty = ScenarioTexts.failure { () throws(SweepError) in _ = try SweepFile.parse("", path: "e.yaml") }
        #expect(empty == "e.yaml:1:1: the file is empty; a sweep file starts with 'sweep: 1'")
        let syntax = ScenarioTexts.failure { () throws(SweepError) in _ = try SweepFile.parse("sweep: 1\npolicy: [ios6\n", path: "s.yaml") }
        #expect(syntax?.hasPrefix("s.yaml:3:1: YAML syntax error") == true)
        let column = ScenarioTexts.failure { () throws(SweepError) in _ = try SweepFile.parse("sweep: 1\nrepeat: 0\n", path: "c.yaml") }
        #expect(column == "c.yaml:2:9: repeat: expected a whole number from 1 to 1000")
    }

    @Test("an unknown scenario or profile named by a sweep is located at its entry in the sweep file")
    func sweepUnknownNames() {
        let scenario = ScenarioTexts.failure { () throws(SweepError) in
            _ = try SweepPlan(try SweepFile.parse("sweep: 1\nscenarios:\n  - small.yaml\n  - nope\n", path: "\(Executable.fixtures.path)/g.yaml"))
        }
        #expect(scenario == "\(Executable.fixtures.path)/g.yaml:4:5: scenarios: nope: no such file, nor a bundled scenario of that name "
            + "('pressurelab list scenarios' lists the bundled ones)")
        let profile = ScenarioTexts.failure { () throws(SweepError) in
            _ = try SweepPlan(try SweepFile.parse("sweep: 1\nscenarios: [small.yaml]\nprofile: [pixel-3-2018, nada]\n",
                                                  path: "\(Executable.fixtures.path)/g.yaml"))
        }
        #expect(profile == "\(Executable.fixtures.path)/g.yaml:3:25: profile: nada: no bundled profile named 'nada'; "
            + "bundled profiles: iphone-xs-2018, pixel-3-2018, pixel-4-2019")
        let user = ScenarioTexts.failure { () throws(SweepError) in
            _ = try SweepPlan(try SweepFile.parse("sweep: 1\nscenarios: [small.yaml]\nuser: all\n", path: "\(Executable.fixtures.path)/g.yaml"))
        }
        #expect(user?.hasSuffix("user: none of the sweep's scenarios replays a trace; remove 'user' or add a scenario with a 'replay' step") == true)
    }

    @Test("a shard count is bounded, and a merge names at most ten absent shards")
    func shardBounds() {
        #expect(throws: SweepError.invalidShard("1/1000000000000")) { try Shard(parsing: "1/1000000000000") }
        #expect((try? Shard(parsing: "3/1000000"))?.count == 1_000_000)
    }

    @Test("a record named like a cell but not one (-1.json, +5.json, 5.json) is no finished cell")
    func strictRecordNames() throws {
        let directory = try Executable.temporaryDirectory("names")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sweep = SweepDirectory(path: directory.path)
        try sweep.create()
        for name in ["-1.json", "+5.json", "5.json", "000007.json", "000003.failed.json", "-00003.failed.json"] {
            #expect(FileManager.default.createFile(atPath: "\(sweep.cellsPath)/\(name)", contents: Data()))
        }
        #expect(try sweep.finishedIndices() == [7])
        #expect(try sweep.failedIndices() == [3])
    }

    @Test("a truncated, garbage or directory cell record is set aside and its cell runs again")
    func unreadableRecords() throws {
        let directory = try Executable.temporaryDirectory("resume")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sweep = try SweepFixtures.file(in: directory, seeds: 2)
        let ran = try Executable.run(["sweep", sweep, "--jobs", "1"], in: directory)
        #expect(ran.status == 0, "\(ran.stderr)")
        let results = SweepDirectory(path: directory.appendingPathComponent("results").path)
        let truncated = try Data(contentsOf: URL(fileURLWithPath: results.cellPath(0)))
        try truncated.prefix(truncated.count / 2).write(to: URL(fileURLWithPath: results.cellPath(0)))
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: results.cellPath(1)))
        try FileManager.default.removeItem(atPath: results.cellPath(2))
        try FileManager.default.createDirectory(atPath: results.cellPath(2), withIntermediateDirectories: false)
        let resumed = try Executable.run(["sweep", sweep, "--jobs", "1", "--resume"], in: directory)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        for index in 0...2 {
            #expect(resumed.stderr.contains("cell \(index): its record could not be read"))
            #expect(FileManager.default.fileExists(atPath: results.cellsPath + "/00000\(index).unreadable"))
            #expect((try? results.record(index))?.cell.index == index)
        }
        #expect(resumed.stdout.contains("3 run now, 1 finished before"))
        // Nothing left to run: said so, no rate over cells that took no time here.
        let again = try Executable.run(["sweep", sweep, "--jobs", "1000", "--resume"], in: directory)
        #expect(again.status == 0 && again.stdout.contains("nothing to run") && again.stdout.contains("with 0 workers at once"))
    }

    @Test("sweeps: a results.sqlite that is a directory is refused, nothing left beside it; errors located; ./p.yaml stays p.yaml")
    func sweeps() throws {
        let directory = try Executable.temporaryDirectory("sweep-round-four")
        defer { try? FileManager.default.removeItem(at: directory) }
        try String(contentsOfFile: Executable.small, encoding: .utf8).write(toFile: directory.appendingPathComponent("small.yaml").path,
                                                                             atomically: true, encoding: .utf8)
        try String(contentsOfFile: ProfileDisplayScaleTests.round, encoding: .utf8).write(toFile: directory.appendingPathComponent("p.yaml").path,
                                                                                          atomically: true, encoding: .utf8)
        try "sweep: 1\noutput: out\nscenarios: [small.yaml]\npolicy: [ios6]\nprofile: [./p.yaml]\n"
            .write(toFile: directory.appendingPathComponent("db.yaml").path, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("out/results.sqlite"), withIntermediateDirectories: true)
        let refused = try Executable.run(["sweep", "db.yaml"], in: directory)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("out/results.sqlite: cannot write the database there: it is a directory; move it away or name another file"),
                "\(refused.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("out").path)
        #expect(!left.contains { $0.contains(".tmp-") }, "\(left)")
        try FileManager.default.removeItem(at: directory.appendingPathComponent("out"))
        let ran = try Executable.run(["sweep", "db.yaml"], in: directory)
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(ProfileReference("./p.yaml").resolved(against: ".") == .file("p.yaml"))
        #expect(ProfileReference("./p.yaml").resolved(against: "dir") == .file("dir/p.yaml"))
        #expect(ProfileReference("../p.yaml").resolved(against: "dir/sub") == .file("dir/p.yaml"))
        #expect(ProfileReference("pixel-3-2018").resolved(against: "dir") == .bundled("pixel-3-2018"))
        let inFolder = try SweepPlan(try SweepFile.parse("sweep: 1\nscenarios: [small.yaml]\nprofile: [./p.yaml]\n",
                                                         path: directory.appendingPathComponent("db.yaml").path))
        #expect(inFolder.cells.map(\.profile) == ["\(directory.path)/p.yaml"])
        let user = Self.sweepFailure("sweep: 1\nscenarios: [small.yaml]\npolicy: [ios6]\nuser: all\n", directory)
        #expect(user == "\(directory.path)/s.yaml:4:7: user: none of the sweep's scenarios replays a trace; remove 'user' or add a scenario "
            + "with a 'replay' step")
        let cells = Self.sweepFailure("sweep: 1\nscenarios: all\npolicy: all\nseeds: { from: 1, to: 20000 }\n", directory)
        #expect(cells?.hasPrefix("\(directory.path)/s.yaml:2:12: scenarios: 12 scenarios x 7 policies x 1 terminations x 1 profiles x "
            + "1 compressors x 20000 seeds make 1680000 cells, more than the 1000000 a sweep may have") == true, "\(cells ?? "")")
    }

    static func sweepFailure(_ text: String, _ directory: URL) -> String? {
        do {
            _ = try SweepPlan(try SweepFile.parse(text, path: directory.appendingPathComponent("s.yaml").path))
            return nil
        } catch {
            return error.description
        }
    }
}
