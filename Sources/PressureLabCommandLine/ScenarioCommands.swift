import ArgumentParser
import PressureLab
import PressureLabHarness
import PressureLabHeap

/// `pressurelab run SCENARIO... [--policy P]...`
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run scenarios under cleanup policies.")

    @Argument(help: "Scenario files, or names of bundled scenarios (default: all bundled).")
    var scenarioFiles: [String] = []

    @Option(name: .long, help: "Cleanup policy (repeatable; default: ios6).")
    var policy: [Cleanup] = []

    @OptionGroup var options: RunOptions

    func run() throws {
        try requireJemalloc()
        let scenarios = try loadScenarios(scenarioFiles, library: options.library)
        let runs = try runAll(scenarios, policies: policy.isEmpty ? [.ios6] : policy, options: options)
        try report(runs, options: options)
    }
}

/// `pressurelab compare [SCENARIO...] --policy A --policy B`
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Run the same scenarios under several policies; show them side by side, with deltas and dominated policies.")

    @Argument(help: "Scenario files, or names of bundled scenarios (default: all bundled).")
    var scenarioFiles: [String] = []

    @Option(name: .long, help: "Cleanup policy (repeatable; default: every built-in).")
    var policy: [Cleanup] = []

    @OptionGroup var options: RunOptions

    mutating func validate() throws {
        if policy.count == 1 { throw ValidationError("compare needs two policies or more (or none, for all)") }
    }

    func run() throws {
        try requireJemalloc()
        let scenarios = try loadScenarios(scenarioFiles, library: options.library)
        let runs = try runAll(scenarios, policies: policy.isEmpty ? PolicyRegistry.cleanupPolicies : policy, options: options)
        try report(runs, options: options)
    }
}

/// `pressurelab validate SCENARIO...`
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "validate",
                                                    abstract: "Check scenario files and print every error; run nothing.")

    @Argument(help: "Scenario files, or names of bundled scenarios (default: all bundled).")
    var scenarioFiles: [String] = []

    @Option(name: .long, help: "The directory of bundled scenarios (default: ./scenarios).")
    var scenarios: String?

    func run() throws {
        let library = scenarios.map { ScenarioLibrary(directory: $0) } ?? ScenarioLibrary.locate()
        let loaded = try loadScenarios(scenarioFiles, library: library)
        try StandardOutput.print(loaded.map { scenario in
            "\(scenario.path): ok (\(scenario.apps.count) apps, \(scenario.expandedStepCount) steps)\n"
        }.joined(), terminator: "")
    }
}

/// `pressurelab list scenarios|policies|profiles`
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List bundled scenarios, policies or device profiles.")

    enum What: String, ExpressibleByArgument, CaseIterable { case scenarios, policies, profiles }

    @Argument(help: "scenarios, policies or profiles")
    var what: What

    @Option(name: .long, help: "The directory of bundled scenarios (default: ./scenarios).")
    var scenarios: String?

    func run() throws {
        switch what {
        case .policies:
            try StandardOutput.print("cleanup: \(PolicyRegistry.cleanupPolicies.map(\.name).joined(separator: ", "))\n"
                + "termination: \(PolicyRegistry.terminationNames.map(\.name).joined(separator: ", "))")
        case .profiles:
            let profiles: [DeviceProfile]
            do {
                profiles = try ProfileLibrary.all()
            } catch {
                StandardError.write(error.description + "\n")
                throw ExitCodes.invalidScenario
            }
            try StandardOutput.print(profiles.map { profile in
                "\(profile.name)\(profile.name == ProfileLibrary.defaultName ? " (default)" : ""): \(profile.description)\n"
            }.joined(), terminator: "")
        case .scenarios:
            let library = scenarios.map { ScenarioLibrary(directory: $0) } ?? ScenarioLibrary.locate()
            try StandardOutput.print(try loadScenarios([], library: library).map { scenario in
                "\(scenario.name): \(scenario.description)\n"
            }.joined(), terminator: "")
        }
    }
}

/// The bare `pressurelab`: the bundled suite under every built-in cleanup policy.
struct SuiteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suite", abstract: "Run the bundled suite under every built-in cleanup policy and print the comparison.")

    @OptionGroup var options: RunOptions

    func run() throws {
        try requireJemalloc()
        let start = MonotonicClock.now()
        let scenarios = try loadScenarios([], library: options.library)
        let completed = try runAll(scenarios, policies: PolicyRegistry.cleanupPolicies, options: options)
        var trailer = ""
        if options.format == .table {
            let seconds = Double(MonotonicClock.now() - start) / 1e9
            trailer = "\n\(scenarios.count) scenarios x \(PolicyRegistry.cleanupPolicies.count) policies, termination "
                + "\(options.termination.name): \(completed.runs.count) runs in \(String(format: "%.1f", seconds)) s.\n"
                + "Dominated: another policy has less or equal mean footprint and reload time. --wide: every column.\n"
        }
        try report(completed, options: options, trailer: trailer)
    }
}
