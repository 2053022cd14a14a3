import Foundation
import PressureLab
import PressureLabHarness
import Testing

/// The scenario keys of the whole app life cycle: `interrupt`, `launch_background`,
/// `background`, `on_background` and `device.os`.
@Suite("Scenarios: interruptions, background execution, OS releases")
struct LifeCycleScenarioTests {
    static func scenario(app: String = "", device: String = "", script: String) -> String {
        """
        scenario: 1
        name: life
        device: { memory: 64MiB\(device) }
        apps:
          a:
        \(app.isEmpty ? "" : "    \(app)\n")    screens: { s: { tree: { depth: 1, fanout: 2, bytes: 1KiB }, backing: 1MiB, cache: 1MiB } }
            root: { nav: s }
          b: { screens: { s: { backing: 1MiB } }, root: s }
        script:
        \(script)

        """
    }

    static func diagnostics(_ text: String) -> [ScenarioDiagnostic] {
        do {
            _ = try ScenarioLoader().parse(text, path: "life.yaml")
            return []
        } catch {
            return error.diagnostics
        }
    }

    @Test("the keys read into their types")
    func keys() throws {
        let text = Self.scenario(app: "background: task:45s\n    on_background: [caches, models, backing]", device: ", os: \"7\"",
                                 script: "  - launch_background: a\n  - launch: b\n  - interrupt: 5s\n  - switch: a")
        let scenario = try ScenarioLoader().parse(text, path: "life.yaml")
        #expect(scenario.device.os == .iOS7)
        #expect(scenario.apps[0].background == .task(seconds: 45))
        #expect(scenario.apps[0].onBackground == [.cache, .model, .backingStores])
        #expect(scenario.script == [.action(.launchBackground("a")), .action(.launch("b")), .action(.interrupt(5)), .action(.switchTo("a"))])
        for (mode, parsed) in [("audio", BackgroundMode.audio(seconds: nil)), ("audio:20m", .audio(seconds: 1200)),
                               ("location", .location(seconds: nil)), ("location:90s", .location(seconds: 90))] {
            let modeText = Self.scenario(app: "background: \(mode)", script: "  - launch: a")
            #expect(try ScenarioLoader().parse(modeText, path: "life.yaml").apps[0].background == parsed)
        }
    }

    @Test("bad values are located errors", arguments: [
        ("background: music", "", "  - launch: a", "apps.a.background", "expected audio, location or task:DURATION"),
        ("background: task", "", "  - launch: a", "apps.a.background", "a task needs its duration"),
        ("background: task:soon", "", "  - launch: a", "apps.a.background", "is not a duration"),
        ("on_background: [views]", "", "  - launch: a", "apps.a.on_background", "unknown item"),
        ("on_background: caches", "", "  - launch: a", "apps.a.on_background", "expected a list"),
        ("", ", os: \"8\"", "  - launch: a", "device.os", "unknown OS release"),
        ("", "", "  - interrupt", "script[0].interrupt", "needs a duration"),
        ("", "", "  - launch_background: c", "script[0].launch_background", "unknown app 'c'"),
    ])
    func errors(app: String, device: String, script: String, key: String, message: String) {
        let found = Self.diagnostics(Self.scenario(app: app, device: device, script: script))
        #expect(found.count == 1)
        #expect(found.first?.key == key, "\(found)")
        #expect(found.first?.message.contains(message) == true, "\(found)")
        #expect((found.first?.line ?? 0) > 0)
    }

    @Test("under iPhone OS 3, Home terminates: every return is cold, one app cached at most")
    func iPhoneOS3() throws {
        let text = Self.scenario(device: ", os: \"3\"", script: "  - launch: a\n  - switch: b\n  - switch: a\n  - switch: b")
        let run = try Simulation(try ScenarioLoader().parse(text, path: "life.yaml"), cleanup: .ios6, termination: .jetsam).run()
        #expect(run.metrics.coldLaunches == 4 && run.metrics.resumes == 0)
        #expect(run.metrics.homeTerminations == 3 && run.metrics.kills == 0)
        #expect(run.metrics.cachedAppsMax == nil || run.metrics.cachedAppsMax == 1)
        #expect(run.timeline.map(\.marks) == [["cold launch a"], ["terminated on home", "cold launch b"],
                                               ["terminated on home", "cold launch a"], ["terminated on home", "cold launch b"]])
        #expect(run.metrics.dataLossBytes == 0)
    }

    @Test("the bundled music-switching scenario: audio in the background, a call, a location relaunch, a task")
    func musicSwitching() throws {
        let scenario = try ScenarioLoader().load(path: "\(CompressedPoolTests.packageRoot)/scenarios/music-switching.yaml")
        let run = try Simulation(scenario, cleanup: .ios6, termination: .jetsam).run()
        #expect(run.metrics.interruptions == 1)
        #expect(run.metrics.backgroundLaunches == 1)
        #expect((run.metrics.backgroundExpirations ?? 0) >= 1)
        #expect(run.timeline.contains { $0.marks?.contains("background launch maps") == true })
        #expect(run.metrics.dataLossBytes == 0)
        // The trace shows the new transitions.
        var kinds: Set<String> = []
        _ = try Simulation(scenario, cleanup: .ios6, termination: .jetsam, events: { kinds.insert($0.kind.rawValue) }).run()
        #expect(kinds.isSuperset(of: ["runningInBackground", "backgroundTimeExpired", "willResignActive", "didBecomeActive"]))
    }
}

@Suite("Reports show the app life cycle")
struct LifeCycleReportTests {
    @Test("the HTML timeline marks interruptions, background launches and background time running out")
    func htmlMarks() throws {
        let scenario = try ScenarioLoader().load(path: "\(CompressedPoolTests.packageRoot)/scenarios/music-switching.yaml")
        let run = try Simulation(scenario, cleanup: .ios6, termination: .jetsam).run()
        let marks = run.timeline.flatMap { $0.marks ?? [] }
        #expect(marks.contains("interrupted") && marks.contains("background launch maps") && marks.contains("background time over"))
        let html = HTMLReport.render(try ResultsFile(version: "t", runs: [run]))
        for mark in ["interrupted", "background launch maps", "background time over"] {
            #expect(html.contains("class=\"mark lifecycle\"") && html.contains(": \(mark)</title></rect>"), "\(mark)")
        }
    }
}

@Suite("The OS generation comes from types, not names")
struct GenerationSourceTests {
    @Test("a cleanup policy's type says which unload cycle it models; a device's OS release overrides it")
    func fromTypes() throws {
        #expect(IOS2Policy().generation == .iPhoneOS2 && IOS3Policy().generation == .iPhoneOS3)
        #expect(IOS6Policy().generation == nil && KeepAllPolicy().generation == nil && CostAwarePolicy().generation == nil)
        #expect(Cleanup.ios3.generation == .iPhoneOS3 && Cleanup.lru.generation == .iOS6)
        #expect(OSRelease.iOS4.unloadCycle == .iPhoneOS3 && OSRelease.iOS4.hasMultitasking)
        #expect(OSRelease.iPhoneOS3.unloadCycle == .iPhoneOS3 && !OSRelease.iPhoneOS3.hasMultitasking)
        // The ios3 policy unloads the screen below the top on a warning. By itself it runs
        // iOS 3's cycle (viewDidUnload only); on a device that names iOS 5, iOS 5's
        // (viewWillUnload first).
        func unloadCallbacks(os: String) throws -> [String] {
            let text = LifeCycleScenarioTests.scenario(device: os, script: "  - launch: a\n  - push: s\n  - warning")
            var kinds: [String] = []
            _ = try Simulation(try ScenarioLoader().parse(text, path: "life.yaml"), cleanup: .ios3, termination: .jetsam,
                                         events: { if $0.kind == .viewWillUnload || $0.kind == .viewDidUnload { kinds.append($0.description) } }).run()
            return kinds
        }
        #expect(try unloadCallbacks(os: "") == ["viewDidUnload(s#1)"])
        #expect(try unloadCallbacks(os: ", os: \"5\"") == ["viewWillUnload(s#1)", "viewDidUnload(s#1)"])
    }
}
