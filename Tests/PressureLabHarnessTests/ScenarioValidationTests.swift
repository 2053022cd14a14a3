import Foundation
import PressureLab
import PressureLabHarness
import PressureLabSweep
import Testing
import TestSupport

/// What `validate` refuses before a run, each at its key: the bytes a run may fill and the
/// clean memory it may read again, names longer than the file system takes, a screen's
/// backing over the host, an unknown profile; one mistake is one message.
@Suite("Scenario validation: fill and clean-read limits, name lengths, errors at their keys")
struct ScenarioValidationTests {
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
        #expect(ScenarioTexts.diagnostics(Self.cleanRelaunch) == ["h.yaml:7:12: apps.big.clean: the script's 200 steps that open an app can read "
            + "the apps' clean mapped files again 6710886400 bytes in all (each a cold launch at worst, which reads the app's whole clean "
            + "file: this app's 67108864 bytes), more than the 6442450944 bytes a run may read (docs/limits.md); declare less clean memory "
            + "or open apps less often"])
        #expect(ScenarioTexts.diagnostics(Self.cleanRelaunch.replacingOccurrences(of: "times: 100", with: "times: 90")).isEmpty)
    }

    @Test("3 GiB of clean memory on a 16 MiB device: refused at validate, at the clean key")
    func cleanOverBudget() {
        let text = "scenario: 1\nname: huge\ndevice:\n  memory: 16MiB\napps:\n  big:\n    clean: 3GiB\n    screens: { main: {} }\n"
            + "    root: main\nscript:\n  - launch: big\n"
        #expect(ScenarioTexts.diagnostics(text) == ["h.yaml:7:12: apps.big.clean: the app's clean mapped memory (3221225472 bytes) is more than the "
            + "device's memory (16777216 bytes): a launch reads all of it into memory; declare at most 16777216 bytes, or give the device "
            + "more memory"])
    }

    @Test("5 apps of 24 MiB on a 40 MiB device switched 20,000 times: refused at validate, at the script")
    func refill() {
        var text = "scenario: 1\nname: refill\ndevice:\n  memory: 40MiB\napps:\n"
        for index in 0..<5 { text += "  app\(index): { data: 24MiB, screens: { main: {} }, root: main }\n" }
        text += "script:\n  - repeat:\n      times: 4000\n      steps: [ { switch: app0 }, { switch: app1 }, { switch: app2 }, { switch: app3 }, { switch: app4 } ]\n"
        let found = ScenarioTexts.diagnostics(text)
        #expect(found == ["h.yaml:12:3: script: the script can fill 503338560000 bytes of memory (20000 steps that open an app, each a cold "
            + "launch at worst that fills the app's data and launch screens up to the budget; repeats multiplied), more than the "
            + "137438953472 bytes a run may fill (docs/limits.md); open apps less often, or give them less memory or the device a "
            + "smaller budget"])
    }

    @Test("an app or screen name of 248 characters is refused at validate (it names the run's files)")
    func longNames() throws {
        let long = String(repeating: "a", count: 248)
        let text = "scenario: 1\nname: long\ndevice:\n  memory: 64MiB\napps:\n  \(long):\n    screens: { main: {} }\n    root: main\n"
            + "script:\n  - launch: \(long)\n"
        #expect(ScenarioTexts.diagnostics(text).first == "h.yaml:6:3: apps: the name has 248 characters, more than the 128 a name may have (names "
            + "name the run's files, and a file name has at most 255 bytes)")
        let screen = text.replacingOccurrences(of: "{ main: {} }", with: "{ \(long): {} }").replacingOccurrences(of: "root: main", with: "root: \(long)")
            .replacingOccurrences(of: "  \(long):\n", with: "  a:\n").replacingOccurrences(of: "launch: \(long)", with: "launch: a")
        #expect(ScenarioTexts.diagnostics(screen).first?.hasPrefix("h.yaml:7:16: apps.a.screens: the name has 248 characters") == true)
    }

    @Test("a screen's backing over the host is said at its backing key, not counted under its tree")
    func backingAtItsKey() {
        let text = "scenario: 1\nname: b\ndevice:\n  memory: 64MiB\napps:\n  a:\n    screens:\n      s:\n        tree: { views: 10, bytes: 1KiB }\n"
            + "        backing: 900GiB\n    root: s\nscript:\n  - launch: a\n"
        let found = ScenarioTexts.diagnostics(text, loader: ScenarioLoader(hostLimitBytes: 1 << 30))
        #expect(found == ["h.yaml:10:18: apps.a.screens.s.backing: the backing store declares 966367641600 bytes, more than the 1073741824 "
            + "bytes this host allows a simulation"])
    }

    @Test("a scenario naming an unknown profile fails validation, located at the profile")
    func scenarioUnknownProfile() {
        let found = ScenarioTexts.diagnostics("scenario: 1\nname: h\ndevice:\n  memory: 64MiB\n  profile: nope\napps:\n  a: { screens: { s: {} }, root: s }\nscript: [ { launch: a } ]\n")
        #expect(found == ["h.yaml:5:12: device.profile: cannot use the profile 'nope': no bundled profile named 'nope'; "
            + "bundled profiles: iphone-xs-2018, pixel-3-2018, pixel-4-2019"])
    }

    @Test("one mistake in a screen is one message: no cascade of unknown-screen errors")
    func noCascade() {
        let found = ScenarioTexts.diagnostics(ScenarioTexts.scenario(screens: "      home: { tree: { depth: 99 } }", script: "  - launch: a0\n  - push: home"))
        #expect(found == ["h.yaml:8:30: apps.a0.screens.home.tree.depth: 99 is out of range; expected 0 to 20"])
    }
}
