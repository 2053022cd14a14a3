// The simulator's own costs: warning broadcast, runner steps, attribution on and off.

import Benchmark
import Foundation
import PressureLab
import PressureLabHeap

let perControllerNs = BenchmarkMetric.custom("ns per controller", polarity: .prefersSmaller, useScalingFactor: false)
let attributionPercent = BenchmarkMetric.custom("attribution on/off time (%)", polarity: .prefersSmaller, useScalingFactor: false)

/// 10,000 off-screen controllers with nothing loaded: a warning releases nothing.
func makeIdleControllers(_ count: Int) -> (RuntimeContext, [ViewController]) {
    let runtime = try! RuntimeContext(app: "bench", generation: .iOS6, trace: TraceRecorder(isEnabled: false))
    try! runtime.register(ScreenSpec(name: "idle", view: try! .single(bytes: 64)))
    let controllers = (0..<count).map { _ in try! runtime.makeController(screen: "idle") }
    return (runtime, controllers)
}

/// A single-app workload with no device: push, show, warn, pop. The same memory work with
/// attribution on or off.
func navigationWorkload(attribution: Bool, rounds: Int) -> UInt64 {
    let runtime = try! RuntimeContext(app: "work", generation: .iOS5, trace: TraceRecorder(isEnabled: false))
    runtime.ledger.isEnabled = attribution
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

let runtimeBenchmarks: @Sendable () -> Void = {
    let (_, controllers) = makeIdleControllers(10_000)

    Benchmark("warning broadcast to 10,000 controllers that release nothing",
              configuration: .init(metrics: [.wallClock, perControllerNs], maxDuration: .seconds(2), maxIterations: 500)) { benchmark in
        for _ in benchmark.scaledIterations {
            let start = MonotonicClock.now()
            for controller in controllers { controller.receiveMemoryWarning() }
            benchmark.measurement(perControllerNs, Int((MonotonicClock.now() - start) / 10_000))
        }
    }

    Benchmark("attribution overhead: navigation workload, ledger on vs off",
              configuration: .init(metrics: [attributionPercent], maxDuration: .seconds(6), maxIterations: 40)) { benchmark in
        for _ in benchmark.scaledIterations {
            // Best of 6 each, alternating which goes first so that neither gains from order.
            var on = UInt64.max, off = UInt64.max
            for pair in 0..<6 {
                if pair % 2 == 0 {
                    off = min(off, navigationWorkload(attribution: false, rounds: 200))
                    on = min(on, navigationWorkload(attribution: true, rounds: 200))
                } else {
                    on = min(on, navigationWorkload(attribution: true, rounds: 200))
                    off = min(off, navigationWorkload(attribution: false, rounds: 200))
                }
            }
            benchmark.measurement(attributionPercent, Int(on * 100 / max(off, 1)))
        }
    }
}
