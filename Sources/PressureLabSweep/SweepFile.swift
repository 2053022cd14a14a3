import Foundation
import PressureLab
import PressureLabHarness
import PressureLabHeap
import SystemPackage
import Yams

/// A sweep file (`sweep: 1`, YAML): the axes of a grid of runs and where its results go.
///
/// ```yaml
/// sweep: 1
/// output: results/grid           # relative to this file (default: <file name>-results)
/// scenarios: all                 # or a list of bundled names and files
/// policy: [ios6, lru]            # or one name, or all
/// termination: [jetsam, lmk]     # or one name, or all
/// profile: [iphone-xs-2018]      # optional: bundled names or files
/// compressor: [none, lz4]        # optional
/// seeds: { from: 1, to: 10 }     # optional: a seed, a list, or an inclusive range
/// repeat: 1                      # runs of each cell
/// user: all                      # optional: one cell per user of a scenario's replay trace
/// cell_timeout: 600s             # optional: seconds (5 or 5s) a cell may run; step_timeout a step
/// ```
package struct SweepFile: Sendable {
    /// The file, as given.
    package var path: String
    /// The results directory (resolved against the file's directory).
    package var output: String
    /// Scenario arguments (bundled names or files); empty: every bundled scenario.
    package var scenarios: [String]
    package var policies: [Cleanup]
    package var terminations: [Termination]
    /// Profiles (nil: each scenario's own).
    package var profiles: [String?]
    /// Compressors (nil: the profile's).
    package var compressors: [Compressor?]
    /// Seeds (nil: each scenario's own).
    package var seeds: [UInt64?]
    package var repeats: Int
    /// Users of replay traces: nil (the scenario's own), all of them, or these.
    package var users: UserAxis
    /// Where each of ``scenarios`` and ``profiles`` is written (`FILE:LINE:COLUMN`), for
    /// errors about what they name (a scenario or profile that cannot be read).
    package var scenarioSites: [String] = []
    package var profileSites: [String] = []
    /// Where `scenarios` and `user` are written (`FILE:LINE:COLUMN`; the file's top when
    /// absent), for errors found when the plan is expanded (the cell count of `scenarios: all`,
    /// `user` without a replaying scenario).
    package var scenariosSite = ""
    package var userSite = ""
    /// `step_timeout` and `cell_timeout` (`5` or `5s`): each cell's time limits, each not
    /// given derived from its scenario (docs/limits.md, "Time"). Not part of the sweep's hash.
    package var timeLimits = TimeLimits()

    /// The `user` axis.
    package enum UserAxis: Sendable, Equatable {
        case scenarios
        case all
        case listed([String])
    }

    /// The most cells a sweep may have.
    package static let maximumCells = 1_000_000

    /// Reads and checks a sweep file; every problem is located (line and key).
    package static func load(path: String) throws(SweepError) -> SweepFile {
        let text: String
        do {
            text = try InputKind.sweep.text(of: path).text
        } catch {
            let (line, column) = error.location
            throw SweepError.invalidFile(path: path, problems: [line == 0 ? "\(path): cannot read the file: \(error)"
                : "\(path):\(line):\(column): not a YAML text file: \(error)"])
        }
        return try parse(text, path: path)
    }

    /// Parses sweep text; `path` names the file and anchors relative paths.
    package static func parse(_ text: String, path: String) throws(SweepError) -> SweepFile {
        var reader = SweepReader(path: path)
        // The scenario reader's defences: the prescan (aliases, nesting, size), located YAML
        // errors, the file named in every message.
        let root: Node
        do {
            root = try ScenarioLoader.compose(text, path: path, whenEmpty: "the file is empty; a sweep file starts with 'sweep: 1'")
        } catch {
            throw SweepError.invalidFile(path: path, problems: error.diagnostics.map(\.description))
        }
        guard let file = reader.read(root) else {
            throw SweepError.invalidFile(path: path, problems: reader.problems)
        }
        return file
    }

    /// The directory relative paths in the file are read against.
    var directory: String {
        let parent = FilePath(path).removingLastComponent()
        return parent.isEmpty ? "." : parent.string
    }
}

/// Reads a sweep file's YAML, collecting located problems.
struct SweepReader {
    let path: String
    var problems: [String] = []

    static let keys = ["sweep", "output", "scenarios", "policy", "termination", "profile", "compressor", "seeds", "repeat", "user",
                       "step_timeout", "cell_timeout"]

    mutating func problem(_ node: Node?, _ key: String, _ message: String) {
        problems.append("\(site(node)): \(key): \(message)")
    }

    /// `FILE:LINE:COLUMN` of a node (line 1, column 1 without one).
    func site(_ node: Node?) -> String {
        "\(path):\(node?.mark?.line ?? 1):\(node?.mark?.column ?? 1)"
    }

    /// The sites of a scalar-or-list value's entries, one an entry (the value's own for a scalar).
    func sites(_ node: Node?, count: Int) -> [String] {
        guard let node else { return Array(repeating: site(nil), count: count) }
        if let items = node.sequence { return items.map { site($0) } }
        return Array(repeating: site(node), count: count)
    }

    mutating func read(_ root: Node) -> SweepFile? {
        guard let map = root.mapping else {
            problem(root, "(top)", "a sweep file is a mapping that starts with 'sweep: 1'")
            return nil
        }
        var values: [String: Node] = [:]
        for (keyNode, value) in map {
            guard let key = keyNode.string, Self.keys.contains(key) else {
                problem(keyNode, keyNode.string ?? "?", "unknown key; valid keys are \(Self.keys.joined(separator: ", "))")
                continue
            }
            values[key] = value
        }
        if values["sweep"]?.wholeNumber != 1 { problem(values["sweep"] ?? root, "sweep", "expected 'sweep: 1' (the format's version)") }
        let base = FilePath(path).removingLastComponent()
        let name = FilePath(path).stem ?? "sweep"
        var output = "\(base.isEmpty ? "." : base.string)/\(name)-results"
        if let node = values["output"] {
            if let text = node.string, !text.isEmpty {
                output = text.hasPrefix("/") ? text : "\(base.isEmpty ? "." : base.string)/\(text)"
            } else {
                problem(node, "output", "expected a directory")
            }
        }
        let scenarios = list(values["scenarios"], "scenarios", all: []) ?? []
        let policies = named(values["policy"], "policy", default: [Cleanup.ios6], known: PolicyRegistry.cleanupPolicies,
                             name: \.name)
        // `all`: the policies `list policies` gives first; the experiments' configurations of
        // them (`fleet`, `lmk-without-lmkd`) are picked by name, as on a command line.
        let terminations = named(values["termination"], "termination", default: [Termination.jetsam],
                                 known: PolicyRegistry.terminationPolicies, name: \.name,
                                 alsoByName: PolicyRegistry.terminationNames)
        let profiles: [String?] = list(values["profile"], "profile", all: nil).map { $0.map(Optional.some) } ?? [nil]
        let compressors: [Compressor?] = values["compressor"] == nil ? [nil]
            : kinds(values["compressor"], "compressor", default: [Compressor]()).map(Optional.some)
        let seeds = self.seeds(values["seeds"])
        var repeats = 1
        if let node = values["repeat"] {
            if let count = node.wholeNumber, (1...ScenarioLimits.repeats).contains(count) { repeats = count } else {
                problem(node, "repeat", "expected a whole number from 1 to \(ScenarioLimits.repeats)")
            }
        }
        var users = SweepFile.UserAxis.scenarios
        if let node = values["user"] {
            if node.string == "all" {
                users = .all
            } else if let listed = list(node, "user", all: nil), !listed.isEmpty {
                users = .listed(listed)
            } else {
                problem(node, "user", "expected 'all' or a list of user ids")
            }
        }
        let count = [max(1, scenarios.count), policies.count, terminations.count, profiles.count, compressors.count, seeds.count]
            .reduce(1) { $0.multipliedSaturating(by: $1) }
        if count > SweepFile.maximumCells { problem(root, "(top)", "the sweep has \(count) cells, more than \(SweepFile.maximumCells)") }
        var timeLimits = TimeLimits()
        for (key, limit) in [("step_timeout", \TimeLimits.stepSeconds), ("cell_timeout", \TimeLimits.cellSeconds)] {
            guard let node = values[key] else { continue }
            if let seconds = node.scalar.flatMap({ TimeLimits.seconds($0.string) }) { timeLimits[keyPath: limit] = seconds } else {
                problem(node, key, "expected seconds above zero, '5' or '5s'")
            }
        }
        guard problems.isEmpty else { return nil }
        var file = SweepFile(path: path, output: output, scenarios: scenarios, policies: policies, terminations: terminations,
                         profiles: profiles, compressors: compressors, seeds: seeds, repeats: repeats, users: users,
                         scenarioSites: sites(values["scenarios"], count: scenarios.count),
                         profileSites: sites(values["profile"], count: profiles.count),
                         scenariosSite: site(values["scenarios"] ?? root), userSite: site(values["user"] ?? root))
        file.timeLimits = timeLimits
        return file
    }

    /// A scalar or a list of scalars; `all` gives `all` (when allowed).
    mutating func list(_ node: Node?, _ key: String, all: [String]?) -> [String]? {
        guard let node else { return nil }
        if let text = node.string {
            if text == "all", let all { return all }
            return [text]
        }
        guard let items = node.sequence else {
            problem(node, key, "expected a value or a list")
            return nil
        }
        var values: [String] = []
        for item in items {
            guard let text = item.string, !text.isEmpty else {
                problem(item, key, "expected a name, got a \(item.mapping != nil ? "mapping" : "list")")
                continue
            }
            values.append(text)
        }
        if values.isEmpty { problem(node, key, "the list is empty") }
        if Set(values).count != values.count { problem(node, key, "a value is listed twice") }
        return values
    }

    /// Names of a typed axis (`all`: every case).
    mutating func kinds<Kind: RawRepresentable & CaseIterable>(_ node: Node?, _ key: String, default fallback: [Kind]) -> [Kind]
    where Kind.RawValue == String {
        named(node, key, default: fallback, known: Array(Kind.allCases), name: \.rawValue)
    }

    /// Names of an axis whose values `known` lists (`all`: every one): the policies this
    /// program knows, built in or registered.
    mutating func named<Value>(_ node: Node?, _ key: String, default fallback: [Value], known: [Value],
                               name: (Value) -> String, alsoByName: [Value] = []) -> [Value] {
        guard let node else { return fallback }
        guard let names = list(node, key, all: known.map(name)) else { return fallback }
        let accepted = alsoByName.isEmpty ? known : alsoByName
        var values: [Value] = []
        for text in names {
            guard let value = accepted.first(where: { name($0) == text }) else {
                let valid = accepted.map(name)
                problem(node, key, "unknown value '\(text)'\(ClosestNames.suggestion(for: text, in: valid)); "
                    + "valid values are \(valid.joined(separator: ", "))")
                continue
            }
            values.append(value)
        }
        return values
    }

    /// A seed, a list of seeds, or `{ from: A, to: B }` (inclusive).
    mutating func seeds(_ node: Node?) -> [UInt64?] {
        guard let node else { return [nil] }
        if let map = node.mapping {
            guard let from = map["from"].flatMap(Self.seed), let to = map["to"].flatMap(Self.seed), from <= to, map.count == 2 else {
                problem(node, "seeds", "expected { from: A, to: B } with whole numbers A <= B")
                return [nil]
            }
            guard to - from < UInt64(SweepFile.maximumCells) else {
                problem(node, "seeds", "the range has more than \(SweepFile.maximumCells) seeds")
                return [nil]
            }
            return (from...to).map(Optional.some)
        }
        if let seed = Self.seed(node) { return [seed] }
        guard let items = node.sequence, !items.isEmpty else {
            problem(node, "seeds", "expected a seed, a list of seeds, or { from: A, to: B }")
            return [nil]
        }
        var seeds: [UInt64?] = []
        for item in items {
            guard let seed = Self.seed(item) else {
                problem(item, "seeds", "expected a whole number of 0 or more")
                continue
            }
            seeds.append(seed)
        }
        if Set(seeds).count != seeds.count { problem(node, "seeds", "a seed is listed twice") }
        return seeds
    }

    static func seed(_ node: Node) -> UInt64? {
        guard node.scalar != nil, let text = node.string else { return nil }
        return UInt64(text)
    }
}
