import Foundation
import PressureLabHarness
import PressureLabImport
import Testing
import TestSupport

/// `pressurelab import` end to end: the scenario written (or merged as text), the exit codes,
/// and nothing written on a bad dump.
@Suite("Import: the command, --merge")
struct ImportCommandTests {
    static let base = """
        # A hand-written scenario: this comment must survive a merge.
        scenario: 1
        name: mine
        device:
          memory: 512MiB
        apps:
          # the mail app, by hand
          mail:
            screens:
              inbox: { tree: { depth: 1, fanout: 2, bytes: 1KiB }, backing: 1MiB }
            root: inbox
        script:
          - launch: mail
          # a comment in the script

        """

    @Test("--merge appends the app and a launch of it as text: comments kept, the result validates")
    func mergeApp() throws {
        let imported = try ImportMeminfoTests.importing(ImportMeminfoTests.loopDump())
        let merged = try Importers.render(imported, merge: (Self.base, "mine.yaml"))
        #expect(merged.hasPrefix(Self.base.components(separatedBy: "script:")[0]))
        #expect(merged.contains("# the mail app, by hand") && merged.contains("# a comment in the script"))
        let scenario = try ScenarioLoader().parse(merged, path: "mine.yaml")
        #expect(scenario.apps.map(\.name) == ["mail", "twitter-android"])
        #expect(scenario.script.map(\.label) == ["launch mail", "launch twitter-android"])
    }

    @Test("--merge with --app naming an app of the scenario adds the screen to it")
    func mergeScreen() throws {
        let imported = try ImportMeminfoTests.importing(ImportMeminfoTests.loopDump(), .init(app: "mail", screen: "timeline"))
        let merged = try Importers.render(imported, merge: (Self.base, "mine.yaml"))
        let scenario = try ScenarioLoader().parse(merged, path: "mine.yaml")
        #expect(scenario.apps.count == 1)
        #expect(scenario.apps[0].screens.map(\.name) == ["inbox", "timeline"])
        #expect(throws: ImportError.self) { try Importers.render(imported, merge: (merged, "mine.yaml")) }
    }

    @Test("--merge refuses a flow-style apps section, at its line")
    func mergeFlow() throws {
        let flow = "scenario: 1\nname: f\ndevice: { memory: 64MiB }\napps: { a: { screens: { s: {} }, root: s } }\nscript:\n  - launch: a\n"
        let imported = try ImportMeminfoTests.importing(ImportMeminfoTests.loopDump())
        #expect(throws: ImportError(path: "f.yaml", line: 4, "--merge: expected a block-style 'apps:' to append to, found "
            + "'apps: { a: { screens: { s: {} }, root: s } }' (flow style: rewrite it one entry a line)")) {
            try Importers.render(imported, merge: (flow, "f.yaml"))
        }
    }

    @Test("the command writes a scenario that validate accepts; a bad dump exits 65 and writes nothing")
    func command() throws {
        let directory = try Executable.temporaryDirectory("import")
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = directory.appendingPathComponent("meminfo.txt").path
        try ImportMeminfoTests.loopDump().write(toFile: dump, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("twitter.yaml").path
        let imported = try Executable.run(["import", "meminfo", dump, "--background", "3", "--output", output])
        #expect(imported.status == 0, "\(imported.stderr)")
        let validated = try Executable.run(["validate", output])
        #expect(validated.status == 0 && validated.stdout.contains("ok (1 apps, 3 steps)"), "\(validated.stderr)")

        let bad = directory.appendingPathComponent("bad.txt").path
        try "not a dump\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try Executable.run(["import", "meminfo", bad, "--output", directory.appendingPathComponent("bad.yaml").path])
        #expect(refused.status == 65)
        #expect(refused.stderr == "pressurelab: \(bad):1: expected dumpsys meminfo's '** MEMINFO in pid PID [PROCESS] **', found none "
            + "in 1 lines (is this adb shell dumpsys meminfo PACKAGE?)\n")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("bad.yaml").path))
        let usage = try Executable.run(["import", "meminfo", dump, "--background", "9"])
        #expect(usage.status == 64)
    }
}
