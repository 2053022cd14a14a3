import Foundation
import GRDB
import PressureLabHarness
import PressureLabSweep
import Testing
import TestSupport

/// The sweep engine through the built executable: worker processes, shards and merging,
/// resuming after the parent is killed, failed cells, and the SQLite database.
@Suite("Sweeps: workers, shards, merge, resume", .serialized)
struct SweepEngineTests {
    static func sweepFile(in directory: URL, seeds: Int, policies: String = "[ios6, lru]", extra: String = "") throws -> String {
        try SweepFixtures.file(in: directory, seeds: seeds, policies: policies, extra: extra)
    }

    /// The results' runs with host timings (measured, so never equal twice) left out.
    static func deterministicRuns(_ path: String) throws -> [NSDictionary] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        let runs = try #require(object?["runs"] as? [Any])
        return runs.map { strip($0) as! NSDictionary }
    }

    static func strip(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var kept: [String: Any] = [:]
            for (key, inner) in object where !key.hasSuffix("LatencyNs") && key != "reloadTimeNs" { kept[key] = strip(inner) }
            return kept as NSDictionary
        }
        if let array = value as? [Any] { return array.map(strip) as NSArray }
        return value
    }

    static func cells(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("results/cells").path)) ?? [])
            .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".failed.json") }.sorted()
    }

    @Test("--jobs 2 and three shards run --jobs 1, merged, give the same results (apart from host timings) and a database")
    func shardsAndJobs() throws {
        let base = try Executable.temporaryDirectory("sweep-shards")
        defer { try? FileManager.default.removeItem(at: base) }
        let file = try Self.sweepFile(in: base, seeds: 3)
        let whole = try Executable.run(["sweep", file, "--jobs", "2"])
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(whole.stdout.contains("6 cells: 6 run now, 0 finished before, 0 failed"))
        var shardDirectories: [String] = []
        for number in 1...3 {
            let directory = base.appendingPathComponent("shard\(number)").path
            shardDirectories.append(directory)
            let shard = try Executable.run(["sweep", file, "--jobs", "1", "--shard", "\(number)/3", "--output", directory])
            #expect(shard.status == 0, "\(shard.stderr)")
            #expect(shard.stdout.contains("2 cells (shard \(number)/3 of 6)"))
        }
        let merged = base.appendingPathComponent("merged.json").path
        let merge = try Executable.run(["merge"] + shardDirectories + ["--output", merged])
        #expect(merge.status == 0, "\(merge.stderr)")
        let wholeRuns = try Self.deterministicRuns(base.appendingPathComponent("results/results.json").path)
        #expect(wholeRuns.count == 6)
        #expect(try Self.deterministicRuns(merged) == wholeRuns)

        // The database: one row per cell and metric.
        let database = try DatabaseQueue(path: base.appendingPathComponent("merged.sqlite").path)
        try database.read { db in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM cells") == 6)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM metrics") == 6 * GatedMetric.allCases.count)
            let peaks = try Double.fetchAll(db, sql: "SELECT value FROM results WHERE metric = 'peakRetainedBytes' ORDER BY cell")
            let expected = wholeRuns.map { (($0["metrics"] as? NSDictionary)?["peakRetainedBytes"] as? Double) ?? -1 }
            #expect(peaks == expected)
            #expect(try String.fetchOne(db, sql: "SELECT value FROM sweep WHERE key = 'cells'") == "6")
        }

        // Refusals: a shard given twice, a shard missing, a shard of another sweep.
        let twice = try Executable.run(["merge", shardDirectories[0], shardDirectories[0], shardDirectories[1], shardDirectories[2],
                                        "--output", merged])
        #expect(twice.status == 1)
        #expect(twice.stderr.contains("cannot merge: cell 0 is in both"), "\(twice.stderr)")
        let missing = try Executable.run(["merge", shardDirectories[0], shardDirectories[1], "--output", merged])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot merge: 2 of 6 cells are missing (2, 5); no directory of shard 3/3 was given"),
                "\(missing.stderr)")
        let otherFile = try Self.sweepFile(in: base, seeds: 3, policies: "[ios6, ios3]")
        let other = base.appendingPathComponent("other").path
        #expect(try Executable.run(["sweep", otherFile, "--shard", "3/3", "--output", other]).status == 0)
        let foreign = try Executable.run(["merge", shardDirectories[0], shardDirectories[1], other, "--output", merged])
        #expect(foreign.status == 1)
        #expect(foreign.stderr.contains("holds another sweep"), "\(foreign.stderr)")
    }

    @Test("a sweep killed outright (SIGKILL), then resumed: every cell once, none finished run again")
    func killAndResume() throws {
        let base = try Executable.temporaryDirectory("sweep-kill")
        defer { try? FileManager.default.removeItem(at: base) }
        let file = try Self.sweepFile(in: base, seeds: 8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Executable.path)
        process.arguments = ["sweep", file, "--jobs", "1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait (by polling, with a deadline) for some cells to finish, then kill the parent.
        let deadline = Date().addingTimeInterval(120)
        while Self.cells(in: base).count < 3, process.isRunning, Date() < deadline { usleep(20_000) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        // Its worker notices and ends (within 200 ms): wait for no process to name the directory.
        let results = base.appendingPathComponent("results").path
        while Self.workers(naming: results) > 0, Date() < deadline { usleep(20_000) }
        #expect(Self.workers(naming: results) == 0)
        let before = Self.cells(in: base)
        #expect(before.count >= 3 && before.count < 16, "\(before)")
        var inodes: [String: UInt64] = [:]
        for name in before { inodes[name] = try Self.inode(base.appendingPathComponent("results/cells/\(name)").path) }

        let refused = try Executable.run(["sweep", file])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("already holds \(before.count) finished cells of this sweep; give --resume"))
        let resumed = try Executable.run(["sweep", file, "--resume", "--jobs", "2"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("16 cells: \(16 - before.count) run now, \(before.count) finished before, 0 failed"))
        #expect(Self.cells(in: base) == (0..<16).map { String(format: "%06d.json", $0) })
        for name in before {
            #expect(try Self.inode(base.appendingPathComponent("results/cells/\(name)").path) == inodes[name], "\(name) was run again")
        }
        #expect(try Self.deterministicRuns(base.appendingPathComponent("results/results.json").path).count == 16)
    }

    @Test("a worker that crashes fails its cell with the signal and its last words; the sweep goes on, and says how to resume")
    func failedCell() throws {
        let base = try Executable.temporaryDirectory("sweep-fail")
        defer { try? FileManager.default.removeItem(at: base) }
        let file = try Self.sweepFile(in: base, seeds: 2)
        let outcome = try Executable.run(["sweep", file, "--jobs", "2"], environment: ["PRESSURELAB_SWEEP_FAULT": "1,2"])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("4 cells: 2 run now, 0 finished before, 2 failed"), "\(outcome.stdout)")
        #expect(outcome.stderr.contains("cell 1 (small / ios6 / jetsam / seed 2) failed: killed by signal 6: "
            + "pressurelab: cell 1: aborting as PRESSURELAB_SWEEP_FAULT asks"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("2 cells have no result; 'pressurelab sweep \(file) --resume' runs them again"))
        let failure = try JSONSerialization.jsonObject(with: Data(contentsOf: base.appendingPathComponent("results/cells/000001.failed.json")))
            as? [String: Any]
        #expect(failure?["status"] as? String == "killed by signal 6")
        #expect(Self.cells(in: base) == ["000000.json", "000003.json"])
        // Resumed without the fault, the two failed cells run and their failures go.
        let resumed = try Executable.run(["sweep", file, "--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("4 cells: 2 run now, 2 finished before, 0 failed"))
        #expect(Self.cells(in: base) == ["000000.json", "000001.json", "000002.json", "000003.json"])
        #expect(!FileManager.default.fileExists(atPath: base.appendingPathComponent("results/cells/000001.failed.json").path))
    }

    @Test("a profile that does not load fails the sweep at once, before any worker runs")
    func badProfile() throws {
        let base = try Executable.temporaryDirectory("sweep-profile")
        defer { try? FileManager.default.removeItem(at: base) }
        let file = try Self.sweepFile(in: base, seeds: 1, extra: "profile: [iphone-xs-2018, no-such-profile]")
        let outcome = try Executable.run(["sweep", file])
        #expect(outcome.status == 65)
        #expect(outcome.stderr.contains("no-such-profile"), "\(outcome.stderr)")
        #expect(Self.cells(in: base).isEmpty)
    }

    /// Processes whose command line names `text`.
    static func workers(naming text: String) -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { Int($0) != nil }.filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: data, as: UTF8.self).contains(text)
        }.count
    }

    static func inode(_ path: String) throws -> UInt64 {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
    }
}
