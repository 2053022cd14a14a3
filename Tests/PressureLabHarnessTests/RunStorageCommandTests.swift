import Foundation
import PressureLabHarness
import PressureLabHeap
import Testing
import TestSupport

/// Where the tool puts a run's own files (docs/formats.md, "Storage"), what the results and
/// baselines say of it, and that the per-run directory goes however the process ends. The
/// tmpfs cases use a directory made in `/dev/shm` as `XDG_RUNTIME_DIR` (the preferred
/// candidate), so that what is left there can be looked at; they run where `/dev/shm` is a
/// tmpfs with room.
@Suite("Run storage: results say it; the per-run directory on tmpfs goes at exit and at a signal", .serialized)
struct RunStorageCommandTests {
    static let hasTmpfs = CleanMapping.isOnTmpfs("/dev/shm")
        && (HostFiles.freeBytes(at: "/dev/shm") ?? 0) >= 2 * RunStorage.StorageNeed.minimumBytes

    static func storages(_ path: String) throws -> [String?] {
        let results = try JSONDecoder().decode(ResultsFile.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        return results.runs.map { $0.storage?.rawValue }
    }

    @Test("PRESSURELAB_STORAGE=disk, or an explicit TMPDIR, keeps the files in TMPDIR and the results say disk")
    func disk() throws {
        let scratch = try ScratchDirectory(), temporary = try ScratchDirectory()
        for environment in [["TMPDIR": temporary.path], ["TMPDIR": temporary.path, "PRESSURELAB_STORAGE": "disk"]] {
            let output = scratch.file("results.json")
            let outcome = try BuiltExecutable.run(["run", Executable.small, "--policy", "ios6", "--output", output],
                                                  environment: environment)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(try Self.storages(output) == ["disk"])
            #expect(temporary.contents() == [], "left behind: \(temporary.contents())")
        }
        let refused = try BuiltExecutable.run(["run", Executable.small], environment: ["PRESSURELAB_STORAGE": "ram"])
        #expect(refused.status == 1 && refused.stderr.contains("PRESSURELAB_STORAGE='ram'"), "\(refused.stderr)")
    }

    @Test("on tmpfs the results and the baseline say so, and the per-run directory is gone after the run",
          .enabled(if: hasTmpfs))
    func tmpfs() throws {
        let memory = try ScratchDirectory(in: "/dev/shm"), disk = try ScratchDirectory(), scratch = try ScratchDirectory()
        let environment = ["XDG_RUNTIME_DIR": memory.path, "TMPDIR": disk.path, "PRESSURELAB_STORAGE": "tmpfs"]
        let output = scratch.file("results.json")
        let outcome = try BuiltExecutable.run(["run", Executable.small, "--policy", "ios6", "--output", output],
                                              environment: environment)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try Self.storages(output) == ["tmpfs"])
        #expect(memory.contents() == [] && disk.contents() == [], "left behind: \(memory.contents()) \(disk.contents())")

        let save = try BuiltExecutable.run(["baseline", "save", "small", Executable.small, "--dir", scratch.path,
                                            "--policy", "ios6"], environment: environment)
        #expect(save.status == 0, "\(save.stderr)")
        #expect(try Baseline.read(from: scratch.file("small.json")).storage == "tmpfs")
        // A check on the disk warns that reload latencies may differ for that reason alone.
        let check = try BuiltExecutable.run(["baseline", "check", "small", Executable.small, "--dir", scratch.path,
                                             "--policy", "ios6"], environment: ["TMPDIR": disk.path])
        #expect(check.stdout.contains("files on tmpfs, this run's on disk"), "\(check.stdout)")
        #expect(memory.contents() == [] && disk.contents() == [], "left behind: \(memory.contents()) \(disk.contents())")
    }

    @Test("SIGTERM during a run on tmpfs removes the per-run directory there", .enabled(if: hasTmpfs))
    func signal() throws {
        let inputs = try ScratchDirectory()
        let scenario = try OutputHandlingTests.longScenario(in: inputs)
        let memory = try ScratchDirectory(in: "/dev/shm"), disk = try ScratchDirectory()
        let running = try BuiltExecutable.Running(
            ["run", scenario, "--policy", "ios3"],
            environment: ["XDG_RUNTIME_DIR": memory.path, "TMPDIR": disk.path, "PRESSURELAB_STORAGE": "tmpfs"],
            standardOutput: nil)
        // (Not a timed assertion: the deadline only stops the wait; the expectations below judge.)
        let deadline = Date().addingTimeInterval(300)
        while running.process.isRunning, !memory.contents().contains(where: { $0.contains("-bundle-") }), Date() < deadline {
            usleep(2_000)
        }
        #expect(running.process.isRunning, "the run ended before the signal")
        #expect(disk.contents().allSatisfy { !$0.contains("-bundle-") }, "bundles on disk: \(disk.contents())")
        kill(running.process.processIdentifier, SIGTERM)
        let outcome = running.finish()
        #expect(outcome.status == 128 + SIGTERM, "\(outcome.stderr)")
        #expect(memory.contents() == [] && disk.contents() == [], "left behind: \(memory.contents()) \(disk.contents())")
    }
}
