import Foundation
import PressureLab
import PressureLabHarness
import Testing

/// Random valid scenarios, written as YAML and read by the real loader: apps, screens,
/// sizes and scripts drawn from a seed, within the host check.
enum RandomScenarios {
    static let stepKinds = ["push", "pop", "pop_to_root", "select_tab", "present", "dismiss", "type", "scroll", "warning",
                            "home", "switch", "idle", "interrupt", "launch_background"]

    static func yaml(seed: UInt64) -> String {
        var random = SplitMix64(seed: seed)
        func pick(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
        func size(_ maxKiB: Int) -> String { "\(pick(0...maxKiB))KiB" }
        let budgetMiB = pick(1...8)
        var text = "scenario: 1\nname: random-\(seed)\nseed: \(seed)\ndevice:\n  memory: \(budgetMiB)MiB\n"
        if pick(0...3) == 0 { text += "  app_limit: \(pick(256...4096))KiB\n" }
        if pick(0...3) == 0 { text += "  os: \"\(OSRelease.appleReleases.randomElement(using: &random)!.rawValue)\"\n" }
        let appCount = pick(1...4)
        text += "apps:\n"
        var screensOfApp: [[String]] = []
        for app in 0..<appCount {
            text += "  app\(app):\n"
            if pick(0...1) == 0 { text += "    data: \(size(256))\n" }
            switch pick(0...5) {
            case 0: text += "    background: audio\n"
            case 1: text += "    background: location:\(pick(1...120))s\n"
            case 2: text += "    background: task:\(pick(1...900))s\n"
            default: break
            }
            if pick(0...3) == 0 { text += "    on_background: [\(["caches", "models", "backing"].shuffled(using: &random).prefix(pick(1...3)).joined(separator: ", "))]\n" }
            text += "    screens:\n"
            var screens: [String] = []
            for screen in 0..<pick(1...4) {
                let name = "s\(screen)"
                screens.append(name)
                if pick(0...4) == 0 {
                    text += "      \(name): { kind: table, rows: \(pick(0...300)), visible_rows: \(pick(1...12)), "
                        + "cell: { views: \(pick(1...4)), bytes: \(size(8)) }, backing: \(size(256)) }\n"
                } else {
                    text += "      \(name): { tree: { depth: \(pick(0...3)), fanout: \(pick(0...4)), bytes: \(pick(0...2048))B }, "
                        + "backing: \(size(512)), cache: \(size(256)), model: \(size(128)) }\n"
                }
            }
            screensOfApp.append(screens)
            switch pick(0...2) {
            case 0: text += "    root: \(screens[0])\n"
            case 1: text += "    root: { nav: \(screens[0]) }\n"
            default: text += "    root: { tabs: [ " + screens.map { pick(0...1) == 0 ? "{ nav: \($0) }" : $0 }.joined(separator: ", ") + " ] }\n"
            }
        }
        let allScreens = Set(screensOfApp.flatMap { $0 }).sorted()
        func step() -> String {
            switch stepKinds.randomElement(using: &random)! {
            case "push": return "{ push: \(allScreens.randomElement(using: &random)!) }"
            case "present": return "{ present: \(allScreens.randomElement(using: &random)!) }"
            case "pop": return "{ pop: \(pick(1...3)) }"
            case "pop_to_root": return "pop_to_root"
            case "select_tab": return "{ select_tab: \(pick(0...4)) }"
            case "dismiss": return "dismiss"
            case "type": return "{ type: \(pick(1...64))KiB }"
            case "scroll": return "{ scroll: \(pick(-20...50)) }"
            case "warning": return pick(0...1) == 0 ? "warning" : "{ warning: critical }"
            case "home": return "home"
            case "switch": return "{ switch: app\(pick(0...(appCount - 1))) }"
            case "interrupt": return "{ interrupt: \(pick(1...60))s }"
            case "launch_background": return "{ launch_background: app\(pick(0...(appCount - 1))) }"
            default: return "{ idle: \(pick(1...60))s }"
            }
        }
        text += "script:\n  - launch: app0\n"
        for _ in 0..<pick(5...30) {
            switch pick(0...9) {
            case 0: text += "  - repeat: { times: \(pick(0...20)), steps: [ \((0..<pick(0...3)).map { _ in step() }.joined(separator: ", ")) ] }\n"
            case 1: text += "  - random: { steps: \(pick(0...40)), mix: { push: 4, pop: 3, switch: 1, type: 1, warning: 0.5, home: 0.5 } }\n"
            default: text += "  - \(step())\n"
            }
        }
        return text
    }
}

@Suite("Properties over seeded random scenarios")
struct RandomScenarioPropertyTests {
    static let cleanup = Cleanup.builtIns
    static let termination = Termination.builtIns

    /// 1,000 scenarios by default, 10,000 from scripts/test.sh (PRESSURELAB_PROPERTY_SCENARIOS), each under one
    /// pair of cleanup and termination policy, every pair in turn: no crash or error, peak
    /// retained bytes never above the budget plus the largest single allocation, and data
    /// lost only by apps that died before saving (a crash or a limit kill of a running app).
    @Test("random valid scenarios under every cleanup and termination policy keep the budget and lose nothing saved")
    func properties() throws {
        let count = Int(ProcessInfo.processInfo.environment["PRESSURELAB_PROPERTY_SCENARIOS"] ?? "") ?? 1_000
        let loader = ScenarioLoader(hostLimitBytes: 2 << 30)
        var pairsSeen = Set<String>()
        for index in 0..<count {
            let seed = UInt64(index) &* 0x9E37_79B9 &+ 17
            let text = RandomScenarios.yaml(seed: seed)
            let scenario: Scenario
            do {
                scenario = try loader.parse(text, path: "random-\(index).yaml")
            } catch {
                Issue.record("generated scenario \(index) is invalid: \(error)\n\(text)")
                continue
            }
            let policy = Self.cleanup[index % Self.cleanup.count]
            let terminationName = Self.termination[(index / Self.cleanup.count) % Self.termination.count]
            pairsSeen.insert("\(policy.name)/\(terminationName.name)")
            let run: RunResult
            do {
                run = try Simulation(scenario, cleanup: policy, termination: terminationName).run()
            } catch {
                Issue.record("scenario \(index) under \(policy)/\(terminationName) failed: \(error)\n\(text)")
                continue
            }
            let bound = scenario.device.memoryBytes + scenario.declaredMemory.largestAllocationBytes
            #expect(run.metrics.peakRetainedBytes <= bound,
                    "scenario \(index) under \(policy)/\(terminationName): peak \(run.metrics.peakRetainedBytes) > \(bound)\n\(text)")
            if run.metrics.dataLossBytes > 0 {
                #expect(run.metrics.outOfMemoryCrashes > 0,
                        "scenario \(index) under \(policy)/\(terminationName) lost \(run.metrics.dataLossBytes) B with no crash\n\(text)")
            }
        }
        if count >= Self.cleanup.count * Self.termination.count {
            #expect(pairsSeen.count == Self.cleanup.count * Self.termination.count)
        }
    }
}
