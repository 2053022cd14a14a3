import PressureLab

/// What to run, how, and where its trace goes: the grid of runs that the command line's
/// `run`, `compare`, `baseline` and bare suite, a sweep's worker and the test API execute.
/// The caller parses and prints; the plan loads profiles and runs every cell in order on
/// the engine (``Simulation``), streaming the trace.
///
/// ```swift
/// let plan = RunPlan(scenarios: [try ScenarioLoader().load(path: "scenarios/photo-browser.yaml")],
///                    policies: [.ios3, .ios6, Cleanup(DropModelsFirst())])
/// let runs = try plan.execute().runs
/// ```
public struct RunPlan: Sendable {
    /// One run of the plan: a scenario under a policy, one repeat.
    public struct Cell: Sendable {
        /// The scenario.
        public var scenario: Scenario
        /// The cleanup policy.
        public var policy: Cleanup
        /// Which repeat, from 1.
        public var repeatIndex: Int
        /// `scenario / policy / termination`.
        public var label: String
    }

    /// Why a plan could not run to the end.
    public enum Failure: Error, CustomStringConvertible {
        /// A device profile could not be loaded, or a scenario names a release of another platform
        /// than the profile's (with its located problems).
        case invalidProfile(ScenarioError)
        /// A policy is not known to this program, or takes a built-in one's name.
        case invalidPolicy(PolicyError)
        /// A run failed (the cell's label and the reason).
        case runFailed(label: String, reason: String)
        /// The trace could not be written.
        case traceFailed(HarnessError)

        public var description: String {
            switch self {
            case .invalidProfile(let error): return error.description
            case .invalidPolicy(let error): return error.description
            case .runFailed(let label, let reason): return "\(label): the run failed: \(reason)"
            case .traceFailed(let error): return "\(error)"
            }
        }
    }

    /// What a plan produced: the runs, and the profile they all used when they share one.
    public struct Outcome {
        /// Every run, in order.
        public var runs: [RunResult]
        /// The profile they all used (nil when they differ or none was in force).
        public var profile: DeviceProfile?
    }

    /// The scenarios, in order.
    public var scenarios: [Scenario]
    /// The cleanup policies each scenario runs under, in order.
    public var policies: [Cleanup]
    /// The termination policy of every run.
    public var termination: Termination
    /// How many times each cell runs.
    public var repeats: Int
    /// The seed of every run (nil: each scenario's own).
    public var seed: UInt64?
    /// The device profile of every run (a bundled name or a file; nil: each scenario's own,
    /// else ``ProfileLibrary/defaultName``).
    public var profile: ProfileReference?
    /// Overrides the profile's compressor.
    public var compressor: Compressor?
    /// Count the policies' mistakes (``RunMetrics/policyMistakes``) instead of failing the
    /// run at the first (`PolicyError/mistake(_:)`; `--lenient-policies`).
    public var lenientPolicies = false
    /// Time limits of every step and run (`--step-timeout`, `--cell-timeout`), each not
    /// given derived from the scenario (``TimeLimits/derived(for:)``), and what to do when
    /// one expires (called on the watchdog's thread; the run cannot be interrupted: the
    /// command line ends the process). Nil: no watchdog, as in the in-process API.
    public var timeLimits: (limits: TimeLimits, onExpiry: @Sendable (RunWatchdog.Expiry) -> Void)?

    /// A plan of every scenario under every policy, `repeats` times; `seed`, `profile` and
    /// `compressor` in place of the scenarios' own when given.
    public init(scenarios: [Scenario], policies: [Cleanup], termination: Termination = .jetsam, repeats: Int = 1,
                seed: UInt64? = nil, profile: ProfileReference? = nil, compressor: Compressor? = nil) {
        self.scenarios = scenarios
        self.policies = policies
        self.termination = termination
        self.repeats = repeats
        self.seed = seed
        self.profile = profile
        self.compressor = compressor
    }

    /// Every cell, in the order they run: scenarios, then policies, then repeats.
    public var cells: [Cell] {
        scenarios.flatMap { scenario in
            policies.flatMap { policy in
                (0..<max(1, repeats)).map { index in
                    Cell(scenario: scenario, policy: policy, repeatIndex: index,
                         label: "\(scenario.name) / \(policy.name) / \(termination.name)")
                }
            }
        }
    }

    /// The device profile of each scenario (by name): ``profile``, else the scenario's own,
    /// else the default; each loaded once.
    public func profiles() throws(Failure) -> [String: DeviceProfile] {
        var loaded: [ProfileReference: DeviceProfile] = [:]
        var byScenario: [String: DeviceProfile] = [:]
        for scenario in scenarios {
            let name = profile ?? scenario.device.profile.map(ProfileReference.init) ?? .default
            if loaded[name] == nil {
                do {
                    loaded[name] = try ProfileLibrary.load(name)
                } catch {
                    throw .invalidProfile(error)
                }
            }
            // The profile's release decides the platform: a scenario naming another platform's
            // release is refused at its `device.os` (a profile from the command line is checked
            // here; the scenario's own, where it is read).
            if let os = scenario.device.os, let profile = loaded[name],
               let problem = Scenario.DeviceSpec.platformProblem(os: os, profileRelease: profile.release, profile: profile.name) {
                let location = scenario.device.osLocation ?? (1, 1)
                throw .invalidProfile(ScenarioError(diagnostics: [
                    ScenarioDiagnostic(path: scenario.path, line: location.line, column: location.column, key: "device.os",
                                       message: problem)]))
            }
            byScenario[scenario.name] = loaded[name]
        }
        return byScenario
    }

    /// Checks the policies before anything runs: each is known to this program (one read
    /// from a file may be only a name), and none written in Swift takes a built-in one's name.
    public func checkPolicies() throws(Failure) {
        do {
            for policy in policies {
                try PolicyRegistry.check(policy)
                _ = try policy.makePolicy()
            }
            try PolicyRegistry.check(termination)
            _ = try termination.makePolicy()
        } catch {
            throw .invalidPolicy(error)
        }
    }

    /// Runs every cell in order on the engine (``Simulation``), streaming events into
    /// `trace` (and memory samples, for a format that has them).
    ///
    /// - Parameters:
    ///   - trace: receives every cell's events as they happen; nil: no trace.
    ///   - cellStarted: called before each cell.
    ///   - stepProgress: called every 256 steps of a cell with (steps done, steps in all).
    /// - Throws: ``Failure``: a policy or profile that cannot be used, the first run that
    ///   fails, or a trace that cannot be written (the trace is left for the caller to discard).
    public func execute(trace: (any TraceOutput)? = nil, cellStarted: ((Cell) -> Void)? = nil,
                        stepProgress: ((Cell, Int, Int) -> Void)? = nil) throws(Failure) -> Outcome {
        try checkPolicies()
        let profiles = try profiles()
        var runs: [RunResult] = []
        for cell in cells {
            cellStarted?(cell)
            trace?.beginRun("\(cell.label) #\(cell.repeatIndex + 1)")
            do {
                let simulation = try Simulation(cell.scenario, cleanup: cell.policy, termination: termination, seed: seed,
                                                profile: profiles[cell.scenario.name], compressor: compressor, trace: trace,
                                                progress: stepProgress.map { report in { report(cell, $0, $1) } })
                simulation.device.lenientPolicies = lenientPolicies
                if let (limits, onExpiry) = timeLimits {
                    simulation.watchdog = RunWatchdog(
                        limits: limits.filled(from: .derived(for: cell.scenario)), scenario: cell.label, cleanup: cell.policy.name,
                        termination: termination.name, calls: simulation.device.policyCalls, onExpiry: onExpiry)
                }
                defer { simulation.watchdog?.stop() }
                runs.append(try simulation.run(repeatIndex: cell.repeatIndex))
            } catch {
                throw .runFailed(label: cell.label, reason: "\(error)")
            }
            if let failure = trace?.failure { throw .traceFailed(failure) }
        }
        let shared = Set(profiles.values.map(\.hash)).count == 1 ? profiles.values.first : nil
        return Outcome(runs: runs, profile: shared)
    }
}
