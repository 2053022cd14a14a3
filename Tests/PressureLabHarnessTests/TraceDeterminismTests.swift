import Foundation
import PressureLab
import PressureLabHarness
import Testing

/// The same scenario and seed give the same trace, the last step's
/// `processKilled` events (apps alive at the end, ended in installation order) included.
@Suite("The trace is the same twice")
struct TraceDeterminismTests {
    static let scenario = """
        scenario: 1
        name: many-alive
        seed: 3
        device:
          memory: 256MiB
        apps:
          mail: { screens: { inbox: { backing: 64KiB } }, root: inbox }
          maps: { screens: { map: { backing: 64KiB } }, root: map }
          chat: { screens: { list: { backing: 64KiB } }, root: list }
          news: { screens: { feed: { backing: 64KiB } }, root: feed }
          music: { screens: { player: { backing: 64KiB } }, root: player }
          photos: { screens: { grid: { backing: 64KiB } }, root: grid }
        script:
          - launch: music
          - switch: chat
          - switch: photos
          - switch: mail
          - switch: news
          - switch: maps
          - home

        """

    final class Events {
        var lines: [String] = []
    }

    @Test("five runs: the same events in the same order; the apps alive at the end are killed in the scenario's order")
    func fiveRuns() throws {
        let scenario = try ScenarioLoader().parse(Self.scenario, path: "many-alive.yaml")
        var traces: [[String]] = []
        for _ in 0..<5 {
            let events = Events()
            let simulation = try Simulation(scenario, cleanup: .keepAll, termination: .noTermination,
                                            events: { events.lines.append("\($0.step) \($0.app) \($0.kind.rawValue)") })
            _ = try simulation.run()
            traces.append(events.lines)
        }
        #expect(traces.allSatisfy { $0 == traces[0] })
        let killed = traces[0].filter { $0.hasSuffix(" processKilled") }.map { $0.split(separator: " ")[1] }
        #expect(killed == ["mail", "maps", "chat", "news", "music", "photos"])
    }
}
