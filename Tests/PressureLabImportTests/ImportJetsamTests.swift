import Foundation
import PressureLabHarness
import PressureLabImport
import Testing
import TestSupport

/// `pressurelab import jetsam`: every fixture in `Fixtures/jetsam/` (README.md there says
/// what in each is a posted report's and where from) imports, validates and runs; the
/// report's kills are printed beside the model's; bad input is refused at its line, exit 65,
/// nothing written.
@Suite("Import: jetsam event reports")
struct ImportJetsamTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/jetsam")

    static func fixture(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static func dump(_ name: String) throws -> DumpText {
        DumpText(try String(contentsOfFile: fixture(name), encoding: .utf8), path: name)
    }

    /// Each report: its layout, page size, processes, apps (not daemons), and kills as (name, reason).
    static let reports: [(file: String, layout: JetsamReport.Layout, pageSize: Int, processes: Int, apps: Int,
                          kills: [String])] = [
        ("JetsamEvent-2022-07-10-iOS15-per-process-limit.ips", .json, 16384, 9, 5,
         ["Weather vm-pageshortage", "PhotoEditor per-process-limit"]),
        ("JetsamEvent-2018-03-27-iOS11-per-process-limit.ips", .json, 16384, 7, 4, ["RebornTunnel per-process-limit"]),
        ("JetsamEvent-2017-09-02-iOS10-body-only.ips", .json, 4096, 6, 3,
         ["assetsd highwater", "Facebook vm-pageshortage", "mediaserverd vnode-limit"]),
        ("LowMemory-2013-12-08-iOS7.ips", .lowMemory, 4096, 7, 3, ["Photos vm"]),
    ]

    @Test("each report reads: layout, page size, processes, states, kills", arguments: reports.map(\.file))
    func reads(file: String) throws {
        let expected = try #require(Self.reports.first { $0.file == file })
        let report = try JetsamReport.read(try Self.dump(file))
        #expect(report.layout == expected.layout && report.pageSize == expected.pageSize)
        #expect(report.processes.count == expected.processes)
        #expect(report.processes.filter { !$0.isDaemon }.count == expected.apps)
        #expect(report.kills.map { "\($0.name) \($0.killReason ?? "")" } == expected.kills)
        #expect(report.processes.filter(\.isFrontmost).count == 1)
    }

    @Test("the iOS 15 report: bytes are rpages x pageSize, the frontmost app launched last, suspended ones in the report's order")
    func scenarioOfTheMoment() throws {
        let imported = try JetsamImporter.importScenario(try Self.dump("JetsamEvent-2022-07-10-iOS15-per-process-limit.ips"))
        let scenario = try ScenarioLoader().parse(imported.yaml, path: "jetsam.yaml")
        #expect(scenario.apps.map(\.name) == ["weather", "notes", "maps", "mail", "photoeditor"])
        // 89,600 pages of 16 KiB, simulated at 1/7: the scenario's bytes, and the device's
        // budget (what the apps hold and the 8,686 free pages).
        #expect(imported.memoryScale == 7)
        #expect(scenario.apps.last?.dataBytes == 89_600 * 16_384 / 7)
        #expect(imported.budgetBytes == (1_630 + 2_210 + 5_540 + 4_120 + 89_600 + 8_686) * 16_384)
        #expect(scenario.script.map { "\($0)" }.last?.contains("photoeditor") == true)
        #expect(imported.yaml.contains("# Device class: iPhone 12 (iPhone13,2)."))
        #expect(imported.yaml.contains("KILLED in the report: per-process-limit"))
    }

    @Test("every report imports through the command, validates and runs; the summary puts the report's kills beside the model's",
          arguments: reports.map(\.file))
    func command(file: String) throws {
        let output = Executable.temporary("jetsam") + ".yaml"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let outcome = try Executable.run(["import", "jetsam", Self.fixture(file), "--output", output])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try Executable.run(["validate", output]).status == 0)
        #expect(outcome.stderr.contains("kills: in the report "))
        let expected = try #require(Self.reports.first { $0.file == file })
        for kill in expected.kills where !kill.hasPrefix("assetsd") && !kill.hasPrefix("mediaserverd") {
            let app = JetsamImporterName.of(String(kill.split(separator: " ")[0]))
            #expect(outcome.stderr.contains("  \(app) (") && outcome.stderr.contains("report killed (\(kill.split(separator: " ")[1]))"),
                    "\(outcome.stderr)")
        }
        let run = try Executable.run(["run", output, "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test("the model's kills beside the report's: none from the iOS 15 moment (the profile's compressor makes room), three from the iOS 7 one")
    func modelKills() throws {
        let ios15 = try Executable.run(["import", "jetsam", Self.fixture("JetsamEvent-2022-07-10-iOS15-per-process-limit.ips")])
        #expect(ios15.status == 0, "\(ios15.stderr)")
        #expect(ios15.stderr.contains("kills: in the report 2, in the model 0"))
        #expect(ios15.stderr.contains("  weather (suspended, 25.5 MiB): report killed (vm-pageshortage); model alive"))
        #expect(ios15.stderr.contains("  photoeditor (frontmost, resume, 1400.0 MiB): report killed (per-process-limit); model alive"))
        let ios7 = try Executable.run(["import", "jetsam", Self.fixture("LowMemory-2013-12-08-iOS7.ips")])
        #expect(ios7.stderr.contains("kills: in the report 1, in the model 3"))
        #expect(ios7.stderr.contains("  photos (suspended, 8.4 MiB): report killed (vm); model killed at step 3 (vm-page-shortage)"))
        // Killed as it launched (an out-of-memory crash of the app in front): a kill, not alive.
        #expect(ios7.stderr.contains("  pictures (frontmost, resume, 257.9 MiB): report alive; model killed at step 3 (vm-page-shortage)"))
    }

    @Test("bad input: not a report, another bug_type, a truncated report: exit 65 at the line, saying what was expected; nothing written",
          arguments: [("bad-not-a-report.txt", "bad-not-a-report.txt:1: expected a jetsam event report"),
                      ("bad-bug-type-309.ips", "bad-bug-type-309.ips:1: bug_type 309 (a crash report), expected 298"),
                      ("bad-truncated.ips", "bad-truncated.ips:127: the report is truncated: it stops at line 127")])
    func badInput(file: String, message: String) throws {
        let output = Executable.temporary("jetsam-bad") + ".yaml"
        let outcome = try Executable.run(["import", "jetsam", Self.fixture(file), "--output", output])
        #expect(outcome.status == 65)
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("a LowMemory report cut before **End** is truncated, at its last line")
    func truncatedLowMemory() throws {
        let text = try String(contentsOfFile: Self.fixture("LowMemory-2013-12-08-iOS7.ips"), encoding: .utf8)
        let cut = String(text[..<text.range(of: "**End**")!.lowerBound])
        let lines = DumpText(cut, path: "cut.ips").lines.count
        #expect(throws: ImportError(path: "cut.ips", line: lines, "the report is truncated: it stops at line \(lines) without "
            + "'**End**' (expected the rest of the process table, then '**End**')")) {
            _ = try JetsamReport.read(DumpText(cut, path: "cut.ips"))
        }
    }
}

/// The scenario names the importer gives processes (lowercase, dashes).
enum JetsamImporterName {
    static func of(_ process: String) -> String { process.lowercased() }
}
