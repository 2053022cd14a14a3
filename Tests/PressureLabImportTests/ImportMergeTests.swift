import Foundation
import PressureLab
import PressureLabHarness
import PressureLabImport
import Testing
import TestSupport

/// `import --merge`: checked where it is written, two at once, a quoted key, `--profile`.
@Suite("Import: --merge written elsewhere, two at once, a quoted key, --profile")
struct ImportMergeTests {
    @Test("--merge --output OTHER: checked where it is written; a relative replay path that does not resolve there is refused")
    func mergeElsewhere() throws {
        let directory = try Executable.temporaryDirectory("import-merge-elsewhere")
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = try ImportCommandOptionsTests.write(try String(contentsOfFile: Executable.fixtures.appendingPathComponent("replay.yaml").path, encoding: .utf8),
                                      "a/replay.yaml", in: directory)
        _ = try ImportCommandOptionsTests.write(try String(contentsOfFile: Executable.fixtures.appendingPathComponent("traces/lsapp-small.tsv").path, encoding: .utf8),
                           "a/traces/lsapp-small.tsv", in: directory)
        let dump = try ImportCommandOptionsTests.write(ImportCommandOptionsTests.dump, "meminfo.txt", in: directory)
        let other = directory.appendingPathComponent("b/x.yaml").path
        try FileManager.default.createDirectory(atPath: directory.appendingPathComponent("b").path, withIntermediateDirectories: true)
        let run = try Executable.run(["import", "meminfo", dump, "--merge", scenario, "--output", other])
        #expect(run.status == 65)
        #expect(run.stderr.hasPrefix("pressurelab: \(scenario): the scenario it would write to \(other) does not validate there, so nothing is written: "),
                "\(run.stderr)")
        #expect(run.stderr.contains("(relative paths in \(scenario) are read from the folder it is written to; write it beside"))
        #expect(!FileManager.default.fileExists(atPath: other))
        let beside = try Executable.run(["import", "meminfo", dump, "--merge", scenario, "--output", directory.appendingPathComponent("a/y.yaml").path])
        #expect(beside.status == 0, "\(beside.stderr)")
    }

    @Test("two merges into one scenario at once: both apps are there, every time")
    func concurrentMerges() throws {
        let directory = try Executable.temporaryDirectory("import-merge-race")
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = try ImportCommandOptionsTests.write(ImportCommandOptionsTests.dump, "meminfo.txt", in: directory)
        for attempt in 0..<4 {
            let scenario = try ImportCommandOptionsTests.write(ImportCommandTests.base, "mine-\(attempt).yaml", in: directory)
            let processes = try ["first", "second"].map { app -> Process in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: Executable.path)
                process.arguments = ["import", "meminfo", dump, "--app", app, "--merge", scenario]
                process.standardError = FileHandle.nullDevice
                try process.run()
                return process
            }
            for process in processes { process.waitUntilExit() }
            #expect(processes.allSatisfy { $0.terminationStatus == 0 })
            let merged = try ScenarioLoader().load(path: scenario)
            #expect(Set(merged.apps.map(\.name)) == ["mail", "first", "second"], "attempt \(attempt)")
        }
    }

    @Test("--merge: a quoted 'apps': key works; --profile other than the scenario's own is refused, not ignored")
    func mergeDetails() throws {
        let quoted = ImportCommandTests.base.replacingOccurrences(of: "\napps:", with: "\n'apps':")
        let imported = try ImportMeminfoTests.importing(ImportCommandOptionsTests.dump, .init(app: "notes"))
        let merged = try Importers.render(imported, merge: (quoted, "mine.yaml"))
        #expect(try ScenarioLoader().parse(merged, path: "mine.yaml").apps.map(\.name) == ["mail", "notes"])
        #expect(throws: ImportError(path: "mine.yaml", line: 0, "--profile pixel-3-2018: expected no --profile with --merge, or the scenario's "
            + "own, found no device.profile: a merge adds the app and keeps the scenario's device; drop --profile or change device.profile "
            + "in mine.yaml", isUsage: true)) {
            try Importers.render(imported, merge: (ImportCommandTests.base, "mine.yaml"), requestedProfile: "pixel-3-2018")
        }
    }
}
