import Foundation
@testable import PressureLab
@testable import PressureLabHarness
import PressureLabHeap
import PressureLabSweep
import SystemPackage
import Testing
import TestSupport

/// Outputs written all or nothing: a merge's results and database together, temporaries
/// of writers killed outright removed.
@Suite("Outputs all or nothing: a merge's results and database, temporaries left by killed writers", .serialized)
struct AllOrNothingOutputTests {
    @Test("merge writes the results and the database together or neither; one path for both is bad usage")
    func mergeAllOrNothing() throws {
        let directory = try Executable.temporaryDirectory("merge")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sweep = try SweepFixtures.file(in: directory, seeds: 1)
        let ran = try Executable.run(["sweep", sweep, "--jobs", "1"], in: directory)
        #expect(ran.status == 0, "\(ran.stderr)")
        let results = directory.appendingPathComponent("merged.json").path
        let badDatabase = directory.appendingPathComponent("no-such-folder/merged.sqlite").path
        let failed = try Executable.run(["merge", directory.appendingPathComponent("results").path, "--output", results,
                                         "--database", badDatabase], in: directory)
        #expect(failed.status == 1)
        #expect(!FileManager.default.fileExists(atPath: results), "the results were left without their database")
        // A merge that fails after the database is written leaves the previous pair as it was.
        let goodDatabase = directory.appendingPathComponent("merged.sqlite").path
        let first = try Executable.run(["merge", directory.appendingPathComponent("results").path, "--output", results], in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        let before = try Data(contentsOf: URL(fileURLWithPath: goodDatabase))
        let folderResults = directory.appendingPathComponent("a-folder").path
        try FileManager.default.createDirectory(atPath: folderResults, withIntermediateDirectories: false)
        let intoFolder = try Executable.run(["merge", directory.appendingPathComponent("results").path, "--output", folderResults,
                                             "--database", goodDatabase], in: directory)
        #expect(intoFolder.status == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: goodDatabase)) == before)
        let same = try Executable.run(["merge", directory.appendingPathComponent("results").path, "--output", results,
                                       "--database", results], in: directory)
        #expect(same.status == 64 && same.stderr.contains("name the same file"))
    }

    @Test("a temporary left by a writer killed outright is removed when its file is next written; a live writer's is kept")
    func abandonedTemporaries() throws {
        let directory = try Executable.temporaryDirectory("abandoned")
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("trace.jsonl")
        // A process id that is not in use: a child that has exited and been reaped.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let dead = directory.appendingPathComponent("trace.jsonl.tmp-\(child.processIdentifier)-abc").path
        let alive = directory.appendingPathComponent("trace.jsonl.tmp-1-def").path
        let other = directory.appendingPathComponent("other.jsonl.tmp-\(child.processIdentifier)-abc").path
        let fresh = directory.appendingPathComponent("trace.jsonl.tmp-\(child.processIdentifier)-new").path
        for path in [dead, alive, other, fresh] { #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8))) }
        // Untouched for two minutes, but for the fresh one (a writer this host may not see).
        for path in [dead, alive, other] {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -120)], ofItemAtPath: path)
        }
        let removed = AtomicFile.removeAbandonedTemporaries(of: FilePath(destination.path))
        #expect(removed.map(\.string) == [dead])
        for path in [alive, other, fresh] { #expect(FileManager.default.fileExists(atPath: path)) }
    }
}
