import Foundation
import PressureLab
import PressureLabHarness
import PressureLabImport
import Testing
import TestSupport

/// The import command's options: `--memory`, a profile file, a device too big for the host
/// (said naming the dump and the option, never a file that is not written), `--background`
/// on a restarted app, names and values the reader would refuse.
@Suite("Import: --memory, --profile FILE, --background, host fit, values the reader would refuse")
struct ImportCommandOptionsTests {
    static func write(_ text: String, _ name: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let dump = ImportMeminfoTests.snapshot(pid: 7, process: "com.example.notes", scale: 1).joined(separator: "\n") + "\n"

    @Test("--memory sets the device's memory; the report on standard error sets the model beside TOTAL PSS")
    func memoryOption() throws {
        let directory = try Executable.temporaryDirectory("import-memory")
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = try Self.write(Self.dump, "meminfo.txt", in: directory)
        let output = directory.appendingPathComponent("notes.yaml").path
        let run = try Executable.run(["import", "meminfo", dump, "--memory", "3GiB", "--output", output])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ScenarioLoader().load(path: output).device.memoryBytes == 3 << 30)
        #expect(run.stderr.contains("pressurelab:   the dump's own figure: App Summary TOTAL PSS "))
        #expect(run.stderr.contains("pressurelab:   device: memory 3072.0 MiB (--memory), profile pixel-3-2018\n"))
        let bad = try Executable.run(["import", "meminfo", dump, "--memory", "lots"])
        #expect(bad.status == 64)
    }

    @Test("a device too big for the host: the dump and --memory named, exit 65 (64 when --memory gave it); no file named that is not written")
    func hostFit() throws {
        let imported = try ImportMeminfoTests.importing(Self.dump)
        let loader = ScenarioLoader(hostLimitBytes: 64 << 20)
        do {
            _ = try Importers.render(imported, dumps: ["meminfo.txt"], loader: loader)
            Issue.record("accepted")
        } catch {
            #expect(!error.isUsage && error.path == "meminfo.txt" && error.line == 0)
            let device = ImportedScenario.mebibytes(imported.deviceMemoryBytes), modelled = ImportedScenario.mebibytes(imported.modelledBytes)
            let expected: String = "the imported device's memory, \(imported.deviceMemoryBytes) bytes (\(device): twice what the app "
                + "declares, \(modelled), room for its first run), is more than the 67108864 bytes (64.0 MiB) this host allows a "
                + "simulation; give --memory-scale 6 to simulate the process at that fraction of its size (every figure reported at "
                + "full size), or --memory BYTES of at most 67108864 (the app then runs under pressure)"
            #expect(error.message == expected)
        }
        var given = imported
        given.deviceMemoryBytes = 128 << 20
        given.memorySource = .option
        #expect(throws: ImportError(path: "meminfo.txt", line: 0, "--memory 134217728: expected at most the 67108864 bytes (64.0 MiB) this "
            + "host allows a simulation, found 128.0 MiB; give less, or --memory-scale 4 to simulate the device at that fraction of its "
            + "size", isUsage: true)) { try Importers.render(given, dumps: ["meminfo.txt"], loader: loader) }
        // The command: a 100 GB process asks for more than this host allows.
        let directory = try Executable.temporaryDirectory("import-host")
        defer { try? FileManager.default.removeItem(at: directory) }
        let huge = Self.dump.replacingOccurrences(of: "  Native Heap    27958    17008", with: "  Native Heap 104857600 104857600")
        let path = try Self.write(huge, "huge.txt", in: directory)
        let output = directory.appendingPathComponent("huge.yaml").path
        let run = try Executable.run(["import", "meminfo", path, "--output", output])
        #expect(run.status == 65)
        #expect(run.stderr.hasPrefix("pressurelab: \(path): the imported device's memory, "), "\(run.stderr)")
        #expect(run.stderr.contains("give --memory-scale ") && run.stderr.contains("or --memory BYTES")
            && !run.stderr.contains("the imported scenario"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("--profile FILE: read against the scenario's folder, written relative to it; a file holding only 'profile: 1' is refused")
    func profileFile() throws {
        let directory = try Executable.temporaryDirectory("import-profile")
        defer { try? FileManager.default.removeItem(at: directory) }
        let round = try String(contentsOfFile: ImportDisplayScaleTests.round, encoding: .utf8)
        _ = try Self.write(round, "devices/round.yaml", in: directory)
        let dump = try Self.write(Self.dump, "meminfo.txt", in: directory)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("out"), withIntermediateDirectories: true)
        let run = try Executable.run(["import", "meminfo", "meminfo.txt", "--profile", "devices/round.yaml", "--output", "out/notes.yaml"],
                                     in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let written = try String(contentsOfFile: directory.appendingPathComponent("out/notes.yaml").path, encoding: .utf8)
        #expect(written.contains("  profile: ../devices/round.yaml\n"))
        let validated = try Executable.run(["validate", directory.appendingPathComponent("out/notes.yaml").path])
        #expect(validated.status == 0, "\(validated.stderr)")
        _ = try Self.write("profile: 1\n", "only.yaml", in: directory)
        let refused = try Executable.run(["import", "meminfo", dump, "--profile", "only.yaml"], in: directory)
        #expect(refused.status == 64)
        #expect(refused.stderr.hasPrefix("pressurelab: \(dump): --profile only.yaml: expected a device profile, found: "), "\(refused.stderr)")
        let asScenario = try Executable.run(["import", "meminfo", dump, "--merge", "only.yaml"], in: directory)
        #expect(asScenario.status == 65, "\(asScenario.stderr)")
    }

    @Test("a value the reader would refuse is never written: 10,001 children make fanout 10000, and it is said")
    func clampedFanout() throws {
        var nodes = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\"><node class=\"android.widget.FrameLayout\" "
            + "package=\"org.example.wide\" bounds=\"[0,0][1080,2340]\">"
        for index in 0..<10_001 { nodes += "<node class=\"android.view.View\" package=\"org.example.wide\" bounds=\"[0,\(index % 2000)][1,\(index % 2000 + 1)]\" />" }
        nodes += "</node></hierarchy>"
        let imported = try Importers.importScenario(.uiautomator, [DumpText(nodes, path: "wide.xml")], options: .init())
        #expect(imported.app.screens[0].fanout == 10_000 && imported.app.screens[0].views == 10_002)
        #expect(imported.warnings == ["wide.xml: screen main: the tree's mean fanout is more than the 10000 a scenario takes: written as 10000 "
            + "(the view count is the dump's)"])
        _ = try Importers.render(imported)
    }

    @Test("--background: a print of an earlier pid (the app restarted) is not the background of the foreground's process")
    func backgroundRestartedPid() throws {
        let text = (ImportMeminfoTests.snapshot(pid: 100, process: "com.example.notes", scale: 1)
            + ImportMeminfoTests.snapshot(pid: 200, process: "com.example.notes", scale: 2)
            + ImportMeminfoTests.snapshot(pid: 200, process: "com.example.notes", scale: 1)).joined(separator: "\n")
        #expect(throws: ImportError(path: "dump.txt", line: 0, "--background 1: expected a snapshot of pid 200, the foreground's (dump.txt:"
            + "\(ImportMeminfoTests.snapshot(pid: 100, process: "x", scale: 1).count + 4)), found pid 100 (dump.txt:4): another process of "
            + "com.example.notes (the app restarted); snapshots of pid 200: 2, 3", isUsage: true)) {
            try ImportMeminfoTests.importing(text, .init(background: 1))
        }
        let third = try ImportMeminfoTests.importing(text, .init(background: 3))
        #expect(third.app.onBackground.contains("models"))
    }

    @Test("an app name of 248 characters is refused by import (it names the run's files)")
    func longAppName() {
        let long = String(repeating: "a", count: 248)
        #expect(throws: ImportError.self) {
            try Importers.importScenario(.meminfo, [DumpText(Self.dump, path: "m.txt")], options: .init(app: long))
        }
    }
}
