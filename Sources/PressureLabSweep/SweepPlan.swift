import PressureLab
import PressureLabHarness

/// A sweep file expanded into its cells, in their fixed order, with the hash that names the
/// sweep: shards, resumed runs and merges check it, so results of different sweeps never mix.
public struct SweepPlan: Sendable {
    /// Where the cells came from: the sweep file's path (or what built them).
    public var source: String
    /// The results directory the sweep file names.
    public var output: String
    public var cells: [SweepCell]
    /// A hash of every cell's key and the repeat count (not of paths, which differ between
    /// machines).
    public var hash: String

    /// Expands `file`: loads its scenarios (every problem of every invalid one is reported
    /// together) and, for `user: all`, reads the users of each scenario's replay trace.
    public init(_ file: SweepFile, library: ScenarioLibrary? = ScenarioLibrary.locate()) throws(SweepError) {
        // A bundled name stays a name; a file is read against the sweep file's folder.
        let arguments = file.scenarios.map { argument in
            let isFile = argument.contains("/") || argument.hasSuffix(".yaml") || argument.hasSuffix(".yml")
            return !isFile || argument.hasPrefix("/") ? argument : "\(file.directory)/\(argument)"
        }
        let scenarios: [Scenario]
        do {
            scenarios = try ScenarioLibrary.loadScenarios(arguments, library: library)
        } catch {
            switch error {
            case .noneGiven: throw .invalidScenario("\(file.path): no scenarios listed and no bundled scenarios found")
            case .invalid(let errors): throw .invalidScenario(errors.map(\.description).joined(separator: "\n"))
            }
        }
        var cells: [SweepCell] = []
        for scenario in scenarios {
            let users: [String?]
            switch file.users {
            case .scenarios: users = [nil]
            case .all: users = scenario.replay.map { $0.users.map(Optional.some) } ?? [nil]
            case .listed(let listed): users = scenario.replay == nil ? [nil] : listed.map(Optional.some)
            }
            for policy in file.policies {
                for termination in file.terminations {
                    for profile in file.profiles {
                        for compressor in file.compressors {
                            for seed in file.seeds {
                                for user in users {
                                    cells.append(SweepCell(index: cells.count, scenario: scenario.name, scenarioPath: scenario.path,
                                                           policy: policy, termination: termination, profile: profile,
                                                           compressor: compressor, seed: seed, user: user, repeats: file.repeats))
                                }
                            }
                        }
                    }
                }
            }
        }
        self.init(cells: cells, source: file.path, output: file.output)
    }

    /// A plan of cells built in code (`run --jobs N` builds one from its options).
    public init(cells: [SweepCell], source: String, output: String) {
        self.source = source
        self.output = output
        self.cells = cells
        var text = "pressurelab.sweep/1\n"
        for cell in cells { text += "\(cell.key) x\(cell.repeats)\n" }
        hash = String(text.hashValueStable, radix: 16)
    }

    /// The cells of one shard.
    public func cells(in shard: Shard) -> [SweepCell] {
        cells.filter { shard.contains($0.index) }
    }
}
