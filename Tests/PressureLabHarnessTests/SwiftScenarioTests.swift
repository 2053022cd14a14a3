import Foundation
import PressureLab
import PressureLabHarness
import Testing

/// Scenarios written in Swift: the same parts as a file, checked the same way, and the same
/// results as their YAML twin.
@Suite("Scenarios in Swift")
struct SwiftScenarioTests {
    static let yaml = """
        scenario: 1
        name: twin
        description: A photo browser and a mail app, in YAML and in Swift.
        seed: 7
        device:
          memory: 96MiB
          app_limit: 64MiB
        apps:
          photos:
            data: 2MiB
            clean: 4MiB
            screens:
              grid: { kind: table, rows: 5000, visible_rows: 14, cell: { views: 5, bytes: 6KiB }, backing: 3MiB, cache: 8MiB }
              detail: { tree: { depth: 3, fanout: 4, bytes: 2KiB }, outlets: 6, backing: 9MiB, cache: 4MiB, model: 1MiB }
              wide: { tree: { views: 300, fanout: 8, bytes: 512B }, releases_outlets: false, outlets: 2, backing: 1MiB }
              compose: {}
            root: { tabs: [ { nav: grid }, { nav: detail }, wide ] }
            on_background: [caches]
          mail:
            screens:
              inbox: { kind: table, rows: 800, visible_rows: 12, cell: { views: 4, bytes: 3KiB }, backing: 3MiB, cache: 6MiB }
            root: { nav: inbox }
            background: audio
        script:
          - launch: photos
          - scroll: 120
          - push: detail
          - repeat: { times: 4, steps: [ { pop: 1 }, { push: detail } ] }
          - present: compose
          - type: 2KiB
          - dismiss
          - switch: mail
          - warning
          - switch: photos
          - select_tab: 2
          - random: { steps: 40, mix: { push: 3, pop: 2, select_tab: 1, warning: 0.5, switch: 1 } }
          - warning: critical
          - idle: 30s
          - home
        """

    static func swift() throws -> Scenario {
        var device = Scenario.DeviceSpec(memoryBytes: 96 << 20)
        device.appLimitBytes = 64 << 20
        let photos = Scenario.AppSpec(
            name: "photos", dataBytes: 2 << 20, cleanBytes: 4 << 20,
            screens: [
                try .table("grid", rows: 5000, visibleRows: 14, cellViews: 5, cellBytes: 6 << 10, backing: 3 << 20, cache: 8 << 20),
                try .plain("detail", tree: .levels(depth: 3, fanout: 4, bytes: 2 << 10), outlets: 6, backing: 9 << 20,
                           cache: 4 << 20, model: 1 << 20),
                try .plain("wide", tree: .balanced(views: 300, fanout: 8, bytes: 512), outlets: 2, releasesOutlets: false,
                           backing: 1 << 20),
                try .plain("compose"),
            ],
            root: .tabs([.nav("grid"), .nav("detail"), .screen("wide")], selected: 0), onBackground: [.cache])
        let mail = Scenario.AppSpec(
            name: "mail", screens: [try .table("inbox", rows: 800, visibleRows: 12, cellViews: 4, cellBytes: 3 << 10,
                                               backing: 3 << 20, cache: 6 << 20)],
            root: .nav("inbox"), background: .audio(seconds: nil))
        return try Scenario(
            name: "twin", description: "A photo browser and a mail app, in YAML and in Swift.", seed: 7, device: device,
            apps: [photos, mail],
            script: [.launch("photos"), .scroll(120), .push("detail"), .repeat(4, [.pop(), .push("detail")]),
                     .present("compose"), .type(2 << 10), .dismiss, .switchTo("mail"), .warning(), .switchTo("photos"),
                     .selectTab(2), .random(steps: 40, mix: [.push: 3, .pop: 2, .selectTab: 1, .warning: 0.5, .switchTo: 1]),
                     .warning(.critical), .idle(30), .home])
    }

    /// A run's results as JSON, host times aside (they are this machine's, different on every run).
    static func deterministic(_ run: RunResult) throws -> [String: Any] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var object = try JSONSerialization.jsonObject(with: try encoder.encode(run)) as! [String: Any]
        var metrics = object["metrics"] as! [String: Any]
        for key in metrics.keys where key.hasSuffix("LatencyNs") || key == "reloadTimeNs" { metrics[key] = nil }
        object["metrics"] = metrics
        return object
    }

    /// The key paths where two decoded JSON values differ.
    static func differences(_ a: Any, _ b: Any, at path: String = "") -> [String] {
        switch (a, b) {
        case (let a as [String: Any], let b as [String: Any]):
            return Set(a.keys).union(b.keys).sorted().flatMap { key -> [String] in
                guard let x = a[key], let y = b[key] else { return ["\(path).\(key): only one has it"] }
                return differences(x, y, at: "\(path).\(key)")
            }
        case (let a as [Any], let b as [Any]):
            guard a.count == b.count else { return ["\(path): \(a.count) vs \(b.count) items"] }
            return zip(a, b).enumerated().flatMap { differences($1.0, $1.1, at: "\(path)[\($0)]") }
        default:
            return "\(a)" == "\(b)" ? [] : ["\(path): \(a) vs \(b)"]
        }
    }

    @Test("a scenario written in Swift and its YAML twin give identical results, field by field (host times aside)")
    func twins() throws {
        let file = try ScenarioLoader().parse(Self.yaml, path: "twin.yaml")
        let swift = try Self.swift()
        #expect(swift.apps.map(\.screens) == file.apps.map(\.screens))
        #expect(swift.script == file.script)
        let profile = try ProfileLibrary.load(nil)
        for (cleanup, termination) in [(Cleanup.ios6, Termination.jetsam), (.lru, .lmk), (.ios3, .freeze)] {
            let fromFile = try Simulation(file, cleanup: cleanup, termination: termination, profile: profile).run()
            let fromSwift = try Simulation(swift, cleanup: cleanup, termination: termination, profile: profile).run()
            let a = try Self.deterministic(fromFile), b = try Self.deterministic(fromSwift)
            #expect(Self.differences(a, b) == [], "\(cleanup) / \(termination): the twins differ")
            #expect(fromFile.timeline.count == 61 && fromFile.metrics.peakRetainedBytes > 20 << 20)
        }
    }

    @Test("a scenario written in Swift is checked as a file is: every problem, each with its key")
    func checks() throws {
        do {
            _ = try Scenario(name: "Bad Name", device: .init(memoryBytes: 64 << 20),
                             apps: [.init(name: "a", screens: [try .plain("s")], root: .nav("missing"))],
                             script: [.launch("b"), .push("nowhere"), .pop(0), .random(steps: 5, mix: [.launch: 1])])
            Issue.record("an invalid scenario was accepted")
        } catch let error as ScenarioError {
            let lines = error.diagnostics.map { "\($0.key): \($0.message)" }
            #expect(lines == [
                "name: 'Bad Name' is not a valid name; names match [a-z0-9-]+",
                "apps.a.root: unknown screen 'missing'; screens of this app: s",
                "script[0]: unknown app 'b'; apps: a",
                "script[1]: unknown screen 'nowhere'; screens: s",
                "script[2]: pop 0 is out of range; expected 1 to 1000000",
                "script[3]: 'launch' cannot be drawn at random; kinds: \(Scenario.randomStepKinds.joined(separator: ", "))",
            ])
            #expect(error.diagnostics.allSatisfy { $0.path == "Bad Name (Swift)" })
        }
        #expect(throws: ScenarioError.self) {
            try Scenario(name: "huge", device: .init(memoryBytes: Int.max / 2),
                         apps: [.init(name: "a", screens: [try .plain("s")], root: .screen("s"))], script: [.launch("a")])
        }
    }
}
