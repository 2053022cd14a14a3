import Yams

/// The `replay` step: one user's app uses from a trace, expanded into `switch` and `idle`
/// steps at read time (``TraceReplay``).
extension ScenarioReader {
    static let replayKeys = ["trace", "user", "format", "apps", "default"]

    /// The argument of a step written `{ replay: ... }`; nil for every other step.
    static func replayArgument(_ node: Node) -> Node? {
        guard let map = node.mapping, map.count == 1, let only = map.first, only.key.string == "replay" else { return nil }
        return only.value
    }

    /// The steps a `replay` step expands to; nil (with diagnostics) if it cannot be read.
    mutating func replaySteps(_ node: Node, _ key: String, apps: [Scenario.AppSpec]) -> [Scenario.Step]? {
        guard let map = mapping(node, key, allowed: Self.replayKeys) else { return nil }
        guard replay == nil else {
            error(node, key, "a scenario has one replay step at most (a sweep over users replaces its user)")
            return nil
        }
        let appNames = apps.map(\.name)
        let format = required(map, "format", in: node, path: key).flatMap { traceFormat($0, "\(key).format") }
        var table: [String: String] = [:]
        var tableValid = true
        if let tableNode = value(map, "apps") {
            if let tableMap = tableNode.mapping {
                for (traceApp, _, appNode) in distinctNames(tableMap, "\(key).apps", what: "trace app") {
                    let app = scenarioApp(appNode, "\(key).apps.\(traceApp)", appNames)
                    table[traceApp] = app
                    tableValid = tableValid && app != nil
                }
            } else {
                error(tableNode, "\(key).apps", "expected a mapping of trace app names to scenario apps, e.g. { Chrome: browser }")
                tableValid = false
            }
        }
        let defaultNode = value(map, "default")
        let defaultApp = defaultNode.flatMap { scenarioApp($0, "\(key).default", appNames) }
        let traceNode = required(map, "trace", in: node, path: key)
        let tracePath = traceNode.flatMap { string($0, "\(key).trace") }.map(resolvedTracePath)
        let userNode = required(map, "user", in: node, path: key)
        let writtenUser = userNode.flatMap { string($0, "\(key).user") }
        guard let format, tableValid, defaultNode == nil || defaultApp != nil,
              let traceNode, let tracePath, let userNode, let writtenUser else { return nil }
        let trace: LSAppTrace
        do {
            trace = try LSAppTrace.parse(path: tracePath, hostLimitBytes: hostLimitBytes)
        } catch {
            self.error(traceNode, "\(key).trace", error.description)
            return nil
        }
        let user = replayUser ?? writtenUser
        guard let canonical = LSAppTrace.canonicalUser(user), trace.users.contains(canonical) else {
            let shown = trace.users.prefix(10).joined(separator: ", ") + (trace.users.count > 10 ? ", ..." : "")
            error(userNode, "\(key).user", "no user \(Self.quote(user)) in the trace"
                + (replayUser == nil ? "" : " (the user given instead of \(Self.quote(writtenUser)))")
                + "; it has \(trace.users.count) user\(trace.users.count == 1 ? "" : "s")" + (shown.isEmpty ? "" : ": \(shown)"))
            return nil
        }
        let replay = TraceReplay(tracePath: tracePath, format: format, user: canonical, users: trace.users, apps: table,
                                 defaultApp: defaultApp)
        let uses = trace.uses(of: canonical)
        let unmapped = Set(uses.map(\.app).filter { replay.scenarioApp(for: $0) == nil }).sorted()
        guard unmapped.isEmpty else {
            let shown = unmapped.prefix(5).map(Self.quote).joined(separator: ", ") + (unmapped.count > 5 ? ", ..." : "")
            let one = unmapped.count == 1
            error(node, key, "\(unmapped.count) app\(one ? "" : "s") of user \(canonical) \(one ? "has" : "have") no scenario app "
                + "(\(shown)); map \(one ? "it" : "them") in 'apps' or give a 'default' app")
            return nil
        }
        let steps = replay.steps(for: uses)
        guard steps.count <= Self.maximumExpandedSteps else {
            error(node, key, "the replay expands to \(steps.count) steps, more than \(Self.maximumExpandedSteps)")
            return nil
        }
        self.replay = replay
        return steps
    }

    private mutating func traceFormat(_ node: Node, _ key: String) -> UsageTraceFormat? {
        guard let text = string(node, key) else { return nil }
        guard let format = UsageTraceFormat(rawValue: text) else {
            error(node, key, "unknown trace format \(Self.quote(text)); valid formats are "
                + UsageTraceFormat.allCases.map(\.rawValue).joined(separator: ", "))
            return nil
        }
        return format
    }

    private mutating func scenarioApp(_ node: Node, _ key: String, _ appNames: [String]) -> String? {
        guard let app = string(node, key) else { return nil }
        guard appNames.contains(app) else {
            error(node, key, "unknown app \(Self.quote(app)); apps: \(appNames.joined(separator: ", "))")
            return nil
        }
        return app
    }

    /// `trace` as written, against the scenario file's folder unless absolute.
    private func resolvedTracePath(_ trace: String) -> String {
        guard !trace.hasPrefix("/"), let slash = path.lastIndex(of: "/") else { return trace }
        return path[...slash] + trace
    }
}
