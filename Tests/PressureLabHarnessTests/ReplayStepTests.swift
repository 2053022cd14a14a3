import Foundation
import PressureLab
import PressureLabHarness
import Testing

/// The `replay` step: a user's app uses from a trace as `switch` and `idle` steps.
@Suite("Scenarios: replay of app-usage traces")
struct ReplayStepTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path
    static let scenarioPath = "\(fixtures)/replay.yaml"
    /// User 1 of `traces/lsapp-small.tsv` with Chrome as browser, WhatsApp as chat, the rest other.
    static let userOneSteps: [Scenario.Step] = [
        .action(.switchTo("browser")), .action(.idle(85)), .action(.switchTo("chat")), .action(.idle(450)), .action(.switchTo("other")), .action(.idle(3600)),
        .action(.switchTo("browser")), .action(.switchTo("chat")), .action(.idle(70)), .action(.switchTo("browser")),
    ]

    static func scenario(_ script: String) -> String {
        """
        scenario: 1
        name: replay
        device: { memory: 64MiB }
        apps:
          browser: { screens: { page: { backing: 1MiB } }, root: page }
          chat: { screens: { list: { backing: 1MiB } }, root: list }
          other: { screens: { main: { backing: 1MiB } }, root: main }
        script:
        \(script)

        """
    }

    static func diagnostics(_ read: () throws(ScenarioError) -> Scenario) -> [ScenarioDiagnostic] {
        do {
            _ = try read()
            return []
        } catch {
            return error.diagnostics
        }
    }

    /// Diagnostics of a scenario text read as if it were a file beside the fixtures.
    static func diagnostics(script: String) -> [ScenarioDiagnostic] {
        diagnostics { () throws(ScenarioError) in
            try ScenarioLoader().parse(scenario(script), path: "\(fixtures)/inline.yaml")
        }
    }

    @Test("uses become switches with the exact gaps between starts: merged, capped, zero and negative gaps skipped")
    func stepsFromUses() {
        let replay = TraceReplay(tracePath: "t.tsv", user: "1", users: ["1"], apps: ["Chrome": "browser", "Docs": "browser"],
                                 defaultApp: "other")
        let uses: [LSAppTrace.AppUse] = [
            .init(app: "Chrome", start: 100, end: 130), .init(app: "Docs", start: 160, end: 170),  // both browser: one switch
            .init(app: "Maps", start: 161, end: 200),  // 61 s after the browser's first use
            .init(app: "Notes", start: 300, end: 300),  // other again: merged
            .init(app: "Chrome", start: 161, end: 400),  // 0 s after Maps: no idle
            .init(app: "Maps", start: 100_000, end: 100_010),  // a night: capped
            .init(app: "Chrome", start: 99_000, end: 99_000),  // backwards: no idle
        ]
        #expect(replay.steps(for: uses) == [.action(.switchTo("browser")), .action(.idle(61)), .action(.switchTo("other")), .action(.switchTo("browser")),
                                            .action(.idle(Double(TraceReplay.maximumIdleSeconds))), .action(.switchTo("other")),
                                            .action(.switchTo("browser"))])
        #expect(TraceReplay.maximumIdleSeconds == 3600)
        #expect(replay.steps(for: []).isEmpty)
        var strict = replay
        strict.defaultApp = nil
        #expect(strict.steps(for: uses) == [.action(.switchTo("browser"))])  // unmapped uses left out, the browser's merged
    }

    @Test("the scenario expands the replay at read time, and the runner plays it as ordinary steps")
    func loadsAndRuns() throws {
        let scenario = try ScenarioLoader().load(path: Self.scenarioPath)
        #expect(scenario.script == Self.userOneSteps + [.action(.home)])
        #expect(scenario.replay == TraceReplay(tracePath: "\(Self.fixtures)/traces/lsapp-small.tsv", format: .lsapp, user: "1",
                                               users: ["1", "2", "3"], apps: ["Chrome": "browser", "WhatsApp": "chat"],
                                               defaultApp: "other"))
        let run = try Simulation(scenario, cleanup: .ios6, termination: .jetsam).run()
        #expect(run.timeline.map(\.event) == scenario.script.map(\.label))
        #expect(run.timeline.map(\.event).prefix(3) == ["switch browser", "idle 85.0s", "switch chat"])
        let launches = run.timeline.flatMap { $0.marks ?? [] }.filter { $0.category == .launch }
        #expect(launches == ["cold launch browser", "cold launch chat", "cold launch other", "resume browser", "resume chat",
                             "resume browser"])
        #expect(run.metrics.kills == 0)
    }

    @Test("a sweep over users: the trace's users, and the scenario read with another user")
    func sweepOverUsers() throws {
        let loader = ScenarioLoader()
        #expect(try loader.replayUsers(inScenarioAt: Self.scenarioPath) == ["1", "2", "3"])
        #expect(try loader.replayUsers(inScenarioAt: "\(Self.fixtures)/small.yaml") == nil)
        #expect(try loader.load(path: Self.scenarioPath, replayUser: "3").script == [.action(.switchTo("other")), .action(.home)])
        let second = try loader.load(path: Self.scenarioPath, replayUser: "02")
        #expect(second.script == [.action(.switchTo("browser")), .action(.home)])
        #expect(second.replay?.user == "2")
        #expect(try loader.load(path: Self.scenarioPath, replayUser: nil).script == Self.userOneSteps + [.action(.home)])
        // An override leaves a scenario without a replay as it is.
        #expect(try loader.load(path: "\(Self.fixtures)/small.yaml", replayUser: "3").script
            == (try loader.load(path: "\(Self.fixtures)/small.yaml")).script)
        let unknown = Self.diagnostics { () throws(ScenarioError) in try loader.load(path: Self.scenarioPath, replayUser: "42") }
        #expect(unknown.map(\.message) == ["no user '42' in the trace (the user given instead of '1'); it has 3 users: 1, 2, 3"])
        #expect(unknown.first?.key == "script[0].replay.user")
        #expect(unknown.first?.line == 15)
    }

    static let tail = "format: lsapp, default: other }"

    @Test("bad replays are located errors", arguments: [
        ("  - replay: { trace: traces/lsapp-small.tsv, user: 9, \(tail)", "script[0].replay.user",
         "no user '9' in the trace; it has 3 users: 1, 2, 3"),
        ("  - replay: { trace: traces/lsapp-small.tsv, user: 1, format: csv, default: other }", "script[0].replay.format",
         "unknown trace format 'csv'; valid formats are lsapp"),
        ("  - replay: { trace: traces/lsapp-small.tsv, user: 1, apps: { Chrome: web }, \(tail)", "script[0].replay.apps.Chrome",
         "unknown app 'web'; apps: browser, chat, other"),
        ("  - replay: { trace: traces/lsapp-small.tsv, user: 1, format: lsapp, default: misc }", "script[0].replay.default",
         "unknown app 'misc'; apps: browser, chat, other"),
        ("  - replay: { trace: traces/lsapp-small.tsv, user: 1, format: lsapp, apps: { Chrome: browser, WhatsApp: chat } }",
         "script[0].replay", "2 apps of user 1 have no scenario app ('Facebook', 'Instagram'); map them in 'apps' or give a 'default' app"),
        ("  - replay: { user: 1, \(tail)", "script[0].replay.trace", "missing required key 'trace'"),
        ("  - replay: { trace: traces/lsapp-small.tsv, user: 1, speed: 2, \(tail)", "script[0].replay.speed",
         "unknown key 'speed'; valid keys are trace, user, format, apps, default"),
        ("  - replay", "script[0].replay", "'replay' needs { trace: FILE, user: ID, format: lsapp }"),
        ("  - replay: { trace: traces/lsapp-small.tsv, user: 1, \(tail)\n  - replay: { trace: traces/lsapp-small.tsv, user: 3, \(tail)",
         "script[1].replay", "a scenario has one replay step at most (a sweep over users replaces its user)"),
        ("  - repeat: { times: 1000000, steps: [ { replay: { trace: traces/lsapp-small.tsv, user: 1, apps: { Chrome: browser, "
            + "WhatsApp: chat }, \(tail) } ] }", "script",
         "the script expands to 10000000 steps, more than 5000000"),
    ])
    func errors(script: String, key: String, message: String) {
        let found = Self.diagnostics(script: script)
        #expect(found.map(\.message) == [message])
        #expect(found.first?.key == key)
        #expect((found.first?.line ?? 0) > 0)
    }

    @Test("a malformed trace is reported at the step's trace, as FILE:LINE: reason", arguments: [
        ("lsapp-bad-event.tsv", "3: unknown event type 'Minimised'; valid types are Opened, Closed, User Interaction, Broken"),
        ("lsapp-bad-columns.tsv",
         "3: expected 5 tab-separated columns (user_id, session_id, timestamp, app_name, event_type), found 4"),
        ("no-such.tsv", " cannot read the trace: No such file or directory"),
    ])
    func malformedTrace(file: String, located: String) {
        let found = Self.diagnostics(script: "  - launch: chat\n  - replay: { trace: traces/\(file), user: 1, \(Self.tail)")
        let tracePath = "\(Self.fixtures)/traces/\(file)"
        #expect(found.map(\.message) == ["\(tracePath):\(located)"])
        #expect(found.first?.key == "script[1].replay.trace")
        #expect(found.first.map { "\($0.line):\($0.column)" } == "10:22")
        #expect(found.first?.description == "\(Self.fixtures)/inline.yaml:10:22: script[1].replay.trace: \(tracePath):\(located)")
    }
}
