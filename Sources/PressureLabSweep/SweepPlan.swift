import PressureLab
import PressureLabHarness
import PressureLabHeap
import SystemPackage

/// A sweep file expanded into its cells, in their fixed order, with the hash that names the
/// sweep: shards, resumed runs and merges check it, so results of different sweeps never mix.
package struct SweepPlan: Sendable {
    /// Where the cells came from: the sweep file's path (or what built them).
    package var source: String
    /// The results directory the sweep file names.
    package var output: String
    package var cells: [SweepCell]
    /// A hash of every cell's key and the repeat count (not of paths, which differ between
    /// machines).
    package var hash: String
    /// The sweep file's time limits (``SweepFile/timeLimits``; not part of ``hash``).
    package var timeLimits = TimeLimits()

    /// Expands `file`: loads its scenarios (every problem of every invalid one is reported
    /// together) and, for `user: all`, reads the users of each scenario's replay trace.
    package init(_ file: SweepFile, library: ScenarioLibrary? = ScenarioLibrary.locate()) throws(SweepError) {
        // A bundled name stays a name; a file is read against the sweep file's folder.
        let arguments = file.scenarios.map { argument in
            let isFile = argument.contains("/") || argument.hasSuffix(".yaml") || argument.hasSuffix(".yml")
            return isFile ? ProfileReference.file(argument).resolved(against: file.directory).description : argument
        }
        var scenarios: [Scenario] = []
        do {
            if arguments.isEmpty { scenarios = try ScenarioLibrary.loadScenarios([], library: library) }
        } catch {
            switch error {
            case .noneGiven: throw .invalidScenario("\(file.path): no scenarios listed and no bundled scenarios found")
            case .invalid(let errors): throw .invalidScenario(errors.map(\.description).joined(separator: "\n"))
            }
        }
        // One at a time, so that a name that reaches no file is located in the sweep file.
        var problems: [String] = []
        for (index, argument) in arguments.enumerated() {
            do {
                scenarios += try ScenarioLibrary.loadScenarios([argument], library: library)
            } catch {
                guard case .invalid(let errors) = error else { continue }
                let site = index < file.scenarioSites.count ? file.scenarioSites[index] : file.path
                problems += errors.flatMap(\.diagnostics).map { Self.located($0, at: site, key: "scenarios", argument: file.scenarios[index]) }
            }
        }
        if !problems.isEmpty { throw .invalidScenario(problems.joined(separator: "\n")) }
        if file.users != .scenarios, !scenarios.contains(where: { $0.replay != nil }) {
            throw .invalidScenario("\(file.userSite): user: none of the sweep's scenarios replays a trace; remove 'user' or "
                + "add a scenario with a 'replay' step")
        }
        // The cell count, now that `scenarios: all` is a number (the reader counted it as one).
        let perScenario = [file.policies.count, file.terminations.count, file.profiles.count, file.compressors.count, file.seeds.count]
            .reduce(1) { $0.multipliedSaturating(by: $1) }
        if scenarios.count.multipliedSaturating(by: perScenario) > SweepFile.maximumCells {
            throw .invalidFile(path: file.path, problems: [
                "\(file.scenariosSite): scenarios: \(scenarios.count) scenarios x \(file.policies.count) policies x "
                + "\(file.terminations.count) terminations x \(file.profiles.count) profiles x \(file.compressors.count) compressors x "
                + "\(file.seeds.count) seeds make \(scenarios.count.multipliedSaturating(by: perScenario)) cells, more than the "
                + "\(SweepFile.maximumCells) a sweep may have; list fewer scenarios or seeds, or cut the sweep in several files"])
        }
        // Profiles: a file is read against the sweep file's folder; each is loaded now, so
        // that a typo fails the sweep at once rather than every cell in its worker.
        var profiles: [(argument: String?, hash: String)] = []
        for (index, profile) in file.profiles.enumerated() {
            guard let profile else {
                profiles.append((nil, "-"))
                continue
            }
            let reference = ProfileReference(profile).resolved(against: file.directory)
            do {
                profiles.append((reference.description, try ProfileLibrary.load(reference).hash))
            } catch {
                let site = index < file.profileSites.count ? file.profileSites[index] : file.path
                throw .invalidScenario(error.diagnostics.map { Self.located($0, at: site, key: "profile", argument: profile) }
                    .joined(separator: "\n"))
            }
        }
        var cells: [SweepCell] = []
        for scenario in scenarios {
            let scenarioHash = (try? InputKind.scenario.contents(of: scenario.path)).map { String(decoding: $0, as: UTF8.self).hashValueStable } ?? 0
            let users: [String?]
            switch file.users {
            case .scenarios: users = [nil]
            case .all: users = scenario.replay.map { $0.users.map(Optional.some) } ?? [nil]
            case .listed(let listed):
                if let replay = scenario.replay, let absent = listed.first(where: { !replay.users.contains($0) }) {
                    throw .invalidScenario("\(file.userSite): user: \(absent) is not in the trace of \(scenario.name) "
                        + "(\(replay.tracePath), \(replay.users.count) users)")
                }
                users = scenario.replay == nil ? [nil] : listed.map(Optional.some)
            }
            for policy in file.policies {
                for termination in file.terminations {
                    for profile in profiles {
                        for compressor in file.compressors {
                            for seed in file.seeds {
                                for user in users {
                                    cells.append(SweepCell(index: cells.count, scenario: scenario.name, scenarioPath: scenario.path,
                                                           policy: policy, termination: termination, profile: profile.argument,
                                                           compressor: compressor, seed: seed, user: user, repeats: file.repeats,
                                                           fingerprint: "\(String(scenarioHash, radix: 16)) \(profile.hash)"))
                                    if cells.count > SweepFile.maximumCells {
                                        throw .invalidFile(path: file.path, problems: [
                                            "\(file.userSite): user: the sweep's users make more than \(SweepFile.maximumCells) cells, "
                                            + "more than a sweep may have; list fewer users or seeds"])
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        self.init(cells: cells, source: file.path, output: file.output)
        timeLimits = file.timeLimits
    }

    /// A plan of cells built in code (`run --jobs N` builds one from its options).
    package init(cells: [SweepCell], source: String, output: String) {
        self.source = source
        self.output = output
        self.cells = cells
        var text = "pressurelab.sweep/1\n"
        for cell in cells { text += "\(cell.key) x\(cell.repeats) \(cell.fingerprint ?? "-")\n" }
        hash = String(text.hashValueStable, radix: 16)
    }

    /// The cells of one shard.
    package func cells(in shard: Shard) -> [SweepCell] {
        cells.filter { shard.contains($0.index) }
    }

    /// A diagnostic about a file the sweep names: located in that file when it has a line,
    /// else (the file is missing, unreadable, or the name is unknown) at the sweep file's entry.
    static func located(_ diagnostic: ScenarioDiagnostic, at site: String, key: String, argument: String) -> String {
        guard diagnostic.line == 0 else { return diagnostic.description }
        return "\(site): \(key): \(argument): \(diagnostic.message)"
    }
}
