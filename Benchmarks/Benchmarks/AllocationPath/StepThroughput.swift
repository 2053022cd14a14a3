// The runner's step throughput on the bundled long random session.

import Benchmark
import Foundation
import PressureLab
import PressureLabHeap
import PressureLabHarness

let stepsPerSecond = BenchmarkMetric.custom("steps per second", polarity: .prefersLarger, useScalingFactor: false)

/// The bundled long-random scenario, found next to this package.
func longRandomScenario() -> Scenario {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    return try! ScenarioLoader().load(path: root.appendingPathComponent("scenarios/long-random.yaml").path)
}

let throughputBenchmarks: @Sendable () -> Void = {
    let scenario = longRandomScenario()
    Benchmark("runner: long-random (4,001 steps), ios6 / jetsam",
              configuration: .init(metrics: [.wallClock, stepsPerSecond], maxDuration: .seconds(10), maxIterations: 10)) { benchmark in
        for _ in benchmark.scaledIterations {
            let start = MonotonicClock.now()
            let run = try! Simulation(scenario, cleanup: .ios6, termination: .jetsam).run()
            let seconds = Double(MonotonicClock.now() - start) / 1e9
            benchmark.measurement(stepsPerSecond, Int(Double(run.metrics.steps) / seconds))
        }
    }
}
