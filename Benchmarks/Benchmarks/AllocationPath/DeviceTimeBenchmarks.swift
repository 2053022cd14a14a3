// What counting the work for device time costs, and the runner on a deep stack.

import Benchmark
import Foundation
import PressureLab
import PressureLabHeap
import PressureLabHarness

let countingPercent = BenchmarkMetric.custom("work counting on/off time (%)", polarity: .prefersSmaller, useScalingFactor: false)

/// The navigation workload (push, show, warn, pop) with work counted and device time
/// computed for every reload, or with neither.
func countingWorkload(counting: Bool, rounds: Int) -> UInt64 {
    let runtime = try! RuntimeContext(app: "work", generation: .iOS5, trace: TraceRecorder(isEnabled: false))
    runtime.isCountingWork = counting
    if counting { runtime.costModel = benchmarkCostModel }
    try! runtime.register(ScreenSpec(name: "list", view: try! .wide(count: 40, bytes: 1024, rootBacking: 256 << 10), cacheBytes: 64 << 10))
    try! runtime.register(ScreenSpec(name: "detail", view: try! .tree(depth: 2, fanout: 5, bytes: 2048, rootBacking: 512 << 10),
                                     outlets: 3, cacheBytes: 128 << 10, modelBytes: 32 << 10))
    let window = Window()
    let navigation = try! NavigationController(rootViewController: try! runtime.makeController(screen: "list"))
    try! window.show(navigation)
    let start = MonotonicClock.now()
    for round in 0..<rounds {
        try! navigation.push(try! runtime.makeController(screen: "detail"))
        try! navigation.push(try! runtime.makeController(screen: "detail"))
        navigation.receiveMemoryWarning()
        try! navigation.pop(count: round % 2 == 0 ? 2 : 1)
        if navigation.viewControllers.count > 1 { try! navigation.popToRoot() }
    }
    return MonotonicClock.now() &- start
}

/// The default bundled profile's costs (the benchmark times the counting and the arithmetic,
/// not the figures; no copy of a profile to keep in step).
let benchmarkCostModel = try! ProfileLibrary.load(nil).costs

/// A scenario that pushes `count` screens onto one navigation stack.
func deepStackScenario(pushes count: Int) -> Scenario {
    try! ScenarioLoader().parse("""
        scenario: 1
        name: deep
        device: { memory: 4GiB }
        apps:
          a:
            screens: { s: { tree: { depth: 0, bytes: 64B } } }
            root: { nav: s }
        script:
          - launch: a
          - repeat: { times: \(count), steps: [ { push: s } ] }
        """, path: "deep.yaml")
}

let deviceTimeBenchmarks: @Sendable () -> Void = {
    Benchmark("device time: work counting overhead, navigation workload, on vs off",
              configuration: .init(metrics: [countingPercent], maxDuration: .seconds(6), maxIterations: 40)) { benchmark in
        for _ in benchmark.scaledIterations {
            // Best of 6 each, alternating which goes first so that neither gains from order.
            var on = UInt64.max, off = UInt64.max
            for pair in 0..<6 {
                if pair % 2 == 0 {
                    off = min(off, countingWorkload(counting: false, rounds: 200))
                    on = min(on, countingWorkload(counting: true, rounds: 200))
                } else {
                    on = min(on, countingWorkload(counting: true, rounds: 200))
                    off = min(off, countingWorkload(counting: false, rounds: 200))
                }
            }
            benchmark.measurement(countingPercent, Int(on * 100 / max(off, 1)))
        }
    }

    let deep = deepStackScenario(pushes: 100_000)
    Benchmark("runner: 100,000 pushes onto one stack",
              configuration: .init(metrics: [.wallClock, stepsPerSecond], maxDuration: .seconds(20), maxIterations: 3)) { benchmark in
        for _ in benchmark.scaledIterations {
            let start = MonotonicClock.now()
            let run = try! Simulation(deep, cleanup: .ios6, termination: .jetsam).run()
            let seconds = Double(MonotonicClock.now() - start) / 1e9
            benchmark.measurement(stepsPerSecond, Int(Double(run.metrics.steps) / seconds))
        }
    }
}
