import ArgumentParser
import PressureLabHarness
import PressureLabHeap

/// Seconds on the command line: `5` or `5s` (``TimeLimits/seconds(_:)``).
struct Seconds: ExpressibleByArgument, Sendable {
    var value: Double

    init?(argument: String) {
        guard let value = TimeLimits.seconds(argument) else { return nil }
        self.value = value
    }
}

/// `--step-timeout` and `--cell-timeout`, shared by the commands that run policies.
struct TimeLimitOptions: ParsableArguments {
    @Option(name: .long, help: "The most seconds one step may take, '5' or '5s' (default: derived from the scenario, docs/limits.md, \"Time\"); a step over it ends the run, exit 1, naming the step, the policy and its call.")
    var stepTimeout: Seconds?

    @Option(name: .long, help: "The most seconds one run (a cell) may take, '5' or '5s' (default: derived from the scenario).")
    var cellTimeout: Seconds?

    var limits: TimeLimits { TimeLimits(stepSeconds: stepTimeout?.value, cellSeconds: cellTimeout?.value) }

    /// The worker's arguments that carry these limits.
    var workerArguments: [String] { Self.workerArguments(limits) }

    static func workerArguments(_ limits: TimeLimits) -> [String] {
        (limits.stepSeconds.map { ["--step-timeout", "\($0)"] } ?? []) + (limits.cellSeconds.map { ["--cell-timeout", "\($0)"] } ?? [])
    }

    /// What a run does when a limit expires: says where it was and ends the process (exit 1;
    /// its temporary files removed). `prefix` names the cell in a worker.
    static func endProcess(prefix: String = "") -> @Sendable (RunWatchdog.Expiry) -> Void {
        { expiry in
            StandardError.write("pressurelab: \(prefix)\(expiry); the run is ended (a policy's code cannot be interrupted)\n")
            TemporaryFiles.finishProcess(status: 1)
        }
    }
}
