import Foundation
import PressureLab
import PressureLabHeap
import SystemPackage
import Yams

/// Reads scenario files (format version 1). Every problem of a file is reported, each with
/// its file, line, column and key and what would be valid; nothing runs on an invalid file.
public struct ScenarioLoader: Sendable {
    /// The most bytes a scenario's budget and declared sizes may take on this host.
    public var hostLimitBytes: Int
    /// Replaces the user a `replay` step names (sweeps over a trace's users); nil: as written.
    public var replayUser: String?

    /// A loader that refuses scenarios whose declared bytes are over `hostLimitBytes` (default:
    /// half of what the host allows this process).
    public init(hostLimitBytes: Int = HostMemory.current().safeLimit()) {
        self.hostLimitBytes = hostLimitBytes
    }

    /// Loads and checks the file at `path`.
    public func load(path: String) throws(ScenarioError) -> Scenario {
        try parse(try Self.text(of: path, kind: .scenario), path: path)
    }

    /// Parses and checks scenario text; `path` names it in errors.
    public func parse(_ text: String, path: String) throws(ScenarioError) -> Scenario {
        var reader = ScenarioReader(path: path, hostLimitBytes: hostLimitBytes)
        reader.replayUser = replayUser
        let root = try Self.compose(text, path: path,
                                    whenEmpty: "the file is empty; a scenario needs at least 'scenario', 'name', 'device', 'apps' and 'script'")
        let scenario = reader.scenario(root)
        guard reader.diagnostics.isEmpty, let scenario else {
            throw ScenarioError(diagnostics: reader.diagnostics.sorted { ($0.line, $0.column) < ($1.line, $1.column) })
        }
        return scenario
    }
}

/// Walks a YAML node tree into a ``Scenario``, collecting diagnostics instead of stopping.
struct ScenarioReader {
    let path: String
    let hostLimitBytes: Int
    var diagnostics: [ScenarioDiagnostic] = []
    /// YAML nodes the read may still visit, aliases expanded (``YAMLPrescan/maximumExpandedNodes``).
    var nodeBudget = YAMLPrescan.maximumExpandedNodes
    /// Set once the budget ran out: every read stops, with one diagnostic.
    var budgetExhausted = false
    /// Declarations that allocate (screens, app data, `type` steps), with where they are:
    /// the host check points at the largest.
    var declarationSites: [(bytes: Int, node: Node?, key: String)] = []
    /// The apps' and screens' names, computed once for all steps.
    var knownNames: (apps: [String], screens: Set<String>) = ([], [])
    /// The loader's override of the replayed user, and the `replay` step read (one at most).
    var replayUser: String?, replay: TraceReplay?
    /// Views the screens read so far describe (``ScenarioLimits/describedViews``).
    var describedViews = 0
    /// Screens and apps declared with an error already reported: a later reference to one is
    /// not reported again as unknown (no cascade of messages after one mistake).
    var failedScreens: Set<String> = [], failedApps: Set<String> = []
    /// Keys (full paths) an unknown key was reported as a likely misspelling of: a missing
    /// required key among them is not reported again (one mistake, one message).
    var misspeltKeys: Set<String> = []

    init(path: String, hostLimitBytes: Int) {
        self.path = path
        self.hostLimitBytes = hostLimitBytes
    }

    static let topKeys = ["scenario", "name", "description", "seed", "device", "apps", "script"]
    static let deviceKeys = ["memory", "pressure", "app_limit", "app_limit_inactive", "profile", "content", "os", "memory_scale", "memory_model"]
    static let appKeys = ["data", "clean", "gpu", "background_gc", "screens", "root", "background", "on_background", "processes"]
    static let screenKeys = ["kind", "rows", "visible_rows", "cell", "reuse_pool", "tree", "outlets", "releases_outlets",
                             "backing", "cache", "model"]

    // MARK: - Diagnostics

    mutating func error(_ node: Node?, _ key: String, _ message: String) {
        let mark = node?.mark
        diagnostics.append(ScenarioDiagnostic(path: path, line: mark?.line ?? 1, column: mark?.column ?? 1,
                                              key: key, message: message))
    }

    static func diagnostic(for error: YamlError, path: String, text: String) -> ScenarioDiagnostic {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let detail = context.map { "\($0.text.trimmingCharacters(in: .whitespacesAndNewlines)): " } ?? ""
            return .init(path: path, line: mark.line, column: mark.column, key: "", message: "YAML syntax error: \(detail)\(problem)")
        case .reader(let problem, let offset, _, _):
            let (line, column) = position(of: offset ?? 0, in: text)
            return .init(path: path, line: line, column: column, key: "", message: "YAML reader error: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return .init(path: path, line: context.mark.line, column: context.mark.column, key: duplicates.joined(separator: ", "),
                         message: "duplicated key in a mapping; each key may appear once")
        default:
            return .init(path: path, line: 1, column: 1, key: "", message: "YAML error: \(error)")
        }
    }

    static func position(of offset: Int, in text: String) -> (Int, Int) {
        var line = 1, column = 1
        for (index, character) in text.unicodeScalars.enumerated() {
            if index >= offset { break }
            if character == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return (line, column)
    }

    // MARK: - Expansion budget

    /// Charges `count` visited nodes to the budget; false (with one diagnostic) once it is spent.
    mutating func visit(_ node: Node?, _ key: String, count: Int = 1) -> Bool {
        guard !budgetExhausted else { return false }
        nodeBudget -= count
        guard nodeBudget < 0 else { return true }
        budgetExhausted = true
        error(node, key, "the file expands (through YAML aliases) to more than \(YAMLPrescan.maximumExpandedNodes) nodes, "
            + "more than a file of the largest allowed size could hold")
        return false
    }

    // MARK: - Typed reads

    mutating func mapping(_ node: Node, _ key: String, allowed: [String]) -> Node.Mapping? {
        guard visit(node, key) else { return nil }
        guard let mapping = node.mapping else {
            error(node, key, "expected a mapping with keys \(allowed.joined(separator: ", "))")
            return nil
        }
        guard visit(node, key, count: mapping.count) else { return nil }
        var seen: [String: Node] = [:]
        for (keyNode, _) in mapping {
            guard keyNode.scalar != nil, let name = keyNode.string else {
                error(keyNode, key, "keys must be plain text")
                continue
            }
            if !allowed.contains(name) {
                let meant = ClosestNames.closest(to: name, in: allowed.filter { value(mapping, $0) == nil })
                for candidate in meant.prefix(1) { misspeltKeys.insert(key.isEmpty ? candidate : "\(key).\(candidate)") }
                error(keyNode, key.isEmpty ? name : "\(key).\(name)",
                      "unknown key \(Self.quote(name))\(ClosestNames.suggestion(for: name, in: allowed)); "
                        + "valid keys are \(allowed.joined(separator: ", "))")
            } else if let first = seen[name] {
                error(keyNode, key.isEmpty ? name : "\(key).\(name)",
                      "key '\(name)' appears twice (first at line \(first.mark?.line ?? 0)); each key may appear once")
            }
            if seen[name] == nil { seen[name] = keyNode }
        }
        return mapping
    }

    /// Names of a mapping's keys after conversion to text, refusing keys that differ only by
    /// YAML tag or quoting (`1` and `"1"` are the same name) and keys that are not plain text.
    mutating func distinctNames(_ mapping: Node.Mapping, _ key: String, what: String) -> [(name: String, keyNode: Node, value: Node)] {
        var result: [(name: String, keyNode: Node, value: Node)] = []
        var seen: [String: Node] = [:]
        guard visit(nil, key, count: mapping.count) else { return [] }
        for (keyNode, value) in mapping {
            guard keyNode.scalar != nil, let text = keyNode.string else {
                error(keyNode, key, "\(what) names must be plain text")
                continue
            }
            if let first = seen[text] {
                error(keyNode, "\(key).\(text)", "\(what) '\(text)' is declared twice (first at line \(first.mark?.line ?? 0)); "
                    + "names are compared as text, so 1 and \"1\" are the same name")
                continue
            }
            seen[text] = keyNode
            result.append((text, keyNode, value))
        }
        return result
    }

    /// A value quoted for a message: control characters escaped (so a diagnostic stays on
    /// one line), long values shortened.
    static func quote(_ value: String) -> String {
        let shortened = value.count > 80 ? String(value.prefix(77)) + "..." : value
        return "'" + ScenarioDiagnostic.escaped(shortened) + "'"
    }

    mutating func int(_ node: Node, _ key: String, min: Int, max: Int = Int.max) -> Int? {
        guard node.scalar != nil, let value = node.wholeNumber else {
            error(node, key, "expected a whole number (\(min) or more), got \(describe(node))")
            return nil
        }
        guard value >= min, value <= max else {
            error(node, key, "\(value) is out of range; expected \(min) to \(max == Int.max ? "any larger number" : String(max))")
            return nil
        }
        return value
    }

    mutating func fraction(_ node: Node, _ key: String) -> Double? {
        guard node.scalar != nil, let value = node.float, value > 0, value <= 1 else {
            error(node, key, "expected a fraction of memory in use, greater than 0 and at most 1 (e.g. 0.8), got \(describe(node))")
            return nil
        }
        return value
    }

    mutating func bytes(_ node: Node, _ key: String) -> Int? {
        guard let scalar = node.scalar else {
            error(node, key, "expected a size such as 2MiB, got \(describe(node))")
            return nil
        }
        switch Quantities.bytes(scalar.string) {
        case .success(let value): return value
        case .failure(let failure):
            error(node, key, failure.message)
            return nil
        }
    }

    mutating func seconds(_ node: Node, _ key: String) -> Double? {
        guard let scalar = node.scalar else {
            error(node, key, "expected a duration such as 30s, got \(describe(node))")
            return nil
        }
        switch Quantities.seconds(scalar.string) {
        case .success(let value): return value
        case .failure(let failure):
            error(node, key, failure.message)
            return nil
        }
    }

    mutating func string(_ node: Node, _ key: String) -> String? {
        guard let scalar = node.scalar else {
            error(node, key, "expected a text value, got \(describe(node))")
            return nil
        }
        return scalar.string
    }

    mutating func name(_ node: Node, _ key: String) -> String? {
        guard let value = string(node, key) else { return nil }
        guard !value.isEmpty, value.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 }) else {
            error(node, key, "\(Self.quote(value)) is not a valid name; names match [a-z0-9-]+")
            return nil
        }
        guard value.utf8.count <= ScenarioLimits.nameLength else {
            error(node, key, "the name has \(value.utf8.count) characters, more than the \(ScenarioLimits.nameLength) a name may have "
                + "(names name the run's files, and a file name has at most 255 bytes)")
            return nil
        }
        return value
    }

    mutating func bool(_ node: Node, _ key: String) -> Bool? {
        guard node.scalar != nil, let value = node.bool else {
            error(node, key, "expected true or false, got \(describe(node))")
            return nil
        }
        return value
    }

    func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let scalar): return Self.quote(scalar.string)
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    func value(_ mapping: Node.Mapping, _ key: String) -> Node? {
        mapping.first { $0.key.string == key }?.value
    }

    mutating func required(_ mapping: Node.Mapping, _ key: String, in parent: Node, path: String) -> Node? {
        guard let node = value(mapping, key) else {
            // A misspelling of this key was reported already, with this key as its correction.
            if misspeltKeys.contains(path.isEmpty ? key : "\(path).\(key)") { return nil }
            error(parent, path.isEmpty ? key : "\(path).\(key)", "missing required key '\(key)'")
            return nil
        }
        return node
    }
}
