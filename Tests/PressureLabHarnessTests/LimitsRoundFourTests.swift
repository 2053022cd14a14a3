import Foundation
import PressureLab
import PressureLabHarness
import PressureLabImport
import PressureLabSweep
import Testing
import TestSupport

/// Issue 42, classes 9, 10 and 13: the bytes a run may fill and the clean memory it may read
/// again, bounded at `validate`; names bounded where the file system bounds them; a local
/// `profiles` folder that adds to the bundled ones; sweeps that leave nothing behind and
/// locate every error; a screen's backing said at its own key.
@Suite("Limits, round four: fill, clean memory, names, folders, sweeps")
struct LimitsRoundFourTests {
    static func diagnostics(_ text: String, path: String = "h.yaml", loader: ScenarioLoader = ScenarioLoader()) -> [String] {
        do {
            _ = try loader.parse(text, path: path)
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    /// Every shipped workload: the bundled scenarios, the experiments, the sweeps' scenarios and the scale benchmarks.
    static func shipped() throws -> [Scenario] {
        let root = Executable.packageRoot
        var paths = ["scenarios", "scenarios/experiments", "Benchmarks/Scale"].flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? [])
                .filter { $0.hasSuffix(".yaml") }.sorted().map { root.appendingPathComponent("\(folder)/\($0)").path }
        }
        for sweep in ["sweeps/bundled.yaml", "sweeps/grid-1120.yaml"] {
            paths += try SweepPlan(try SweepFile.load(path: root.appendingPathComponent(sweep).path)).cells.map(\.scenarioPath)
        }
        var seen = Set<String>()
        return try paths.filter { seen.insert($0).inserted }.map { try ScenarioLoader().load(path: $0) }
    }

    @Test("every shipped workload is within the fill limits")
    func shippedWithinFill() throws {
        for scenario in try Self.shipped() {
            let fill = scenario.declaredFill
            print("fill \(scenario.name): \(fill.launches) launches, \(fill.filledBytes) B filled, \(fill.cleanBytesRead) B clean read")
            #expect(fill.filledBytes <= ScenarioLimits.filledBytes / 2, "\(scenario.name)")
            #expect(fill.cleanBytesRead <= ScenarioLimits.cleanBytesRead, "\(scenario.name)")
            #expect(scenario.apps.allSatisfy { $0.cleanBytes <= scenario.device.memoryBytes }, "\(scenario.name)")
        }
    }

    static let cleanRelaunch = """
        scenario: 1
        name: clean-relaunch
        device:
          memory: 160MiB
        apps:
          big:
            clean: 64MiB
            screens: { main: { backing: 64KiB } }
            root: main
          other:
            data: 120MiB
            screens: { main: { backing: 64KiB } }
            root: main
        script:
          - repeat:
              times: 100
              steps:
                - switch: big
                - switch: other

        """

    @Test("an app of 64 MiB of clean memory opened 100 times under pressure: refused at validate, at its clean key")
    func cleanRelaunch() {
        #expect(Self.diagnostics(Self.cleanRelaunch) == ["h.yaml:7:12: apps.big.clean: the script's 200 steps that open an app can read "
            + "the apps' clean mapped files again 6710886400 bytes in all (each a cold launch at worst, which reads the app's whole clean "
            + "file: this app's 67108864 bytes), more than the 6442450944 bytes a run may read (docs/limits.md); declare less clean memory "
            + "or open apps less often"])
        #expect(Self.diagnostics(Self.cleanRelaunch.replacingOccurrences(of: "times: 100", with: "times: 90")).isEmpty)
    }

    @Test("3 GiB of clean memory on a 16 MiB device: refused at validate, at the clean key")
    func cleanOverBudget() {
        let text = "scenario: 1\nname: huge\ndevice:\n  memory: 16MiB\napps:\n  big:\n    clean: 3GiB\n    screens: { main: {} }\n"
            + "    root: main\nscript:\n  - launch: big\n"
        #expect(Self.diagnostics(text) == ["h.yaml:7:12: apps.big.clean: the app's clean mapped memory (3221225472 bytes) is more than the "
            + "device's memory (16777216 bytes): a launch reads all of it into memory; declare at most 16777216 bytes, or give the device "
            + "more memory"])
    }

    @Test("5 apps of 24 MiB on a 40 MiB device switched 20,000 times: refused at validate, at the script")
    func refill() {
        var text = "scenario: 1\nname: refill\ndevice:\n  memory: 40MiB\napps:\n"
        for index in 0..<5 { text += "  app\(index): { data: 24MiB, screens: { main: {} }, root: main }\n" }
        text += "script:\n  - repeat:\n      times: 4000\n      steps: [ { switch: app0 }, { switch: app1 }, { switch: app2 }, { switch: app3 }, { switch: app4 } ]\n"
        let found = Self.diagnostics(text)
        #expect(found == ["h.yaml:12:3: script: the script can fill 503338560000 bytes of memory (20000 steps that open an app, each a cold "
            + "launch at worst that fills the app's data and launch screens up to the budget; repeats multiplied), more than the "
            + "137438953472 bytes a run may fill (docs/limits.md); open apps less often, or give them less memory or the device a "
            + "smaller budget"])
    }

    @Test("an app or screen name of 248 characters is refused at validate (it names the run's files), and by import")
    func longNames() throws {
        let long = String(repeating: "a", count: 248)
        let text = "scenario: 1\nname: long\ndevice:\n  memory: 64MiB\napps:\n  \(long):\n    screens: { main: {} }\n    root: main\n"
            + "script:\n  - launch: \(long)\n"
        #expect(Self.diagnostics(text).first == "h.yaml:6:3: apps: the name has 248 characters, more than the 128 a name may have (names "
            + "name the run's files, and a file name has at most 255 bytes)")
        let screen = text.replacingOccurrences(of: "{ main: {} }", with: "{ \(long): {} }").replacingOccurrences(of: "root: main", with: "root: \(long)")
            .replacingOccurrences(of: "  \(long):\n", with: "  a:\n").replacingOccurrences(of: "launch: \(long)", with: "launch: a")
        #expect(Self.diagnostics(screen).first?.hasPrefix("h.yaml:7:16: apps.a.screens: the name has 248 characters") == true)
        #expect(throws: ImportError.self) {
            try Importers.importScenario(.meminfo, [DumpText(ImportCommandRoundFourTests.dump, path: "m.txt")], options: .init(app: long))
        }
    }

    @Test("a screen's backing over the host is said at its backing key, not counted under its tree")
    func backingAtItsKey() {
        let text = "scenario: 1\nname: b\ndevice:\n  memory: 64MiB\napps:\n  a:\n    screens:\n      s:\n        tree: { views: 10, bytes: 1KiB }\n"
            + "        backing: 900GiB\n    root: s\nscript:\n  - launch: a\n"
        let found = Self.diagnostics(text, loader: ScenarioLoader(hostLimitBytes: 1 << 30))
        #expect(found == ["h.yaml:10:18: apps.a.screens.s.backing: the backing store declares 966367641600 bytes, more than the 1073741824 "
            + "bytes this host allows a simulation"])
    }

    @Test("a local profiles folder adds to the bundled profiles; a same-named local one wins, said once on standard error")
    func localProfiles() throws {
        let directory = try Executable.temporaryDirectory("local-profiles")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("profiles"), withIntermediateDirectories: true)
        let round = try String(contentsOfFile: ImportDisplayScaleTests.round, encoding: .utf8)
        try round.write(toFile: directory.appendingPathComponent("profiles/mine.yaml").path, atomically: true, encoding: .utf8)
        let bundled = try Executable.run(["run", Executable.small, "--profile", "iphone-xs-2018"], in: directory)
        #expect(bundled.status == 0, "\(bundled.stderr)")
        let mine = try Executable.run(["run", Executable.small, "--profile", "mine"], in: directory)
        #expect(mine.status == 0, "\(mine.stderr)")
        let shadow = round.replacingOccurrences(of: "name: round", with: "name: pixel-3-2018")
        try shadow.write(toFile: directory.appendingPathComponent("profiles/pixel-3-2018.yaml").path, atomically: true, encoding: .utf8)
        let shadowed = try Executable.run(["run", Executable.small, "--profile", "pixel-3-2018"], in: directory)
        #expect(shadowed.status == 0, "\(shadowed.stderr)")
        #expect(shadowed.stderr.components(separatedBy: "takes the place of the bundled profile").count == 2, "\(shadowed.stderr)")
        #expect(shadowed.stderr.contains("pressurelab: profile pixel-3-2018: using \(directory.path)/profiles/pixel-3-2018.yaml, which takes "
            + "the place of the bundled profile of that name\n"))
    }

    @Test("sweeps: a results.sqlite that is a directory is refused, nothing left beside it; errors located; ./p.yaml stays p.yaml")
    func sweeps() throws {
        let directory = try Executable.temporaryDirectory("sweep-round-four")
        defer { try? FileManager.default.removeItem(at: directory) }
        try String(contentsOfFile: Executable.small, encoding: .utf8).write(toFile: directory.appendingPathComponent("small.yaml").path,
                                                                             atomically: true, encoding: .utf8)
        try String(contentsOfFile: ImportDisplayScaleTests.round, encoding: .utf8).write(toFile: directory.appendingPathComponent("p.yaml").path,
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
        #expect(cells?.hasPrefix("\(directory.path)/s.yaml:2:12: scenarios: 10 scenarios x 7 policies x 1 terminations x 1 profiles x "
            + "1 compressors x 20000 seeds make 1400000 cells, more than the 1000000 a sweep may have") == true, "\(cells ?? "")")
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
