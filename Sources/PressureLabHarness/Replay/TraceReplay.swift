/// The formats of app-usage traces a `replay` step reads (`format:`); not to be confused with
/// ``TraceFormat``, the formats of the event trace a run writes.
public enum UsageTraceFormat: String, CaseIterable, Sendable {
    /// The LSApp dataset's TSV (`LSAppTrace`).
    case lsapp
}

/// A `replay` step as read: one user's app uses from a trace, replayed as `switch` and `idle`
/// steps. The reader expands it into those steps, so the runner sees ordinary steps; the
/// scenario keeps this description (``Scenario/replay``) for sweeps over the trace's users.
///
/// ```yaml
/// - replay: { trace: traces/lsapp.tsv, user: "3", format: lsapp,
///             apps: { Chrome: browser, WhatsApp: chat }, default: other }
/// ```
///
/// - `trace`: the file, relative to the scenario file's folder (or absolute).
/// - `user`: whose uses to replay (a whole number, as the trace writes it).
/// - `format`: `lsapp`, the only ``UsageTraceFormat`` today.
/// - `apps`: trace app name to scenario app; `default`: the scenario app for every other
///   trace app. Without `default`, every app the user uses must be in `apps`.
///
/// Each use (consecutive events of one app) becomes `switch APP`; uses that map to the same
/// scenario app in a row are one switch. Between one switch and the next comes `idle` for the
/// time from the first use's start to the next use's start, at most ``maximumIdleSeconds``; a
/// gap of 0 (or a negative one, from a timestamp going backwards) gives no idle step.
public struct TraceReplay: Sendable, Equatable {
    /// The longest idle one gap becomes: a night without use is an hour of simulated time.
    public static let maximumIdleSeconds = 3_600

    /// The trace file, resolved against the scenario's folder.
    public var tracePath: String
    /// The trace's format (`lsapp`).
    public var format: UsageTraceFormat
    /// The replayed user (canonical: no leading zeros).
    public var user: String
    /// Every user of the trace, in numeric order: the values a sweep over users takes.
    public var users: [String]
    /// Trace app name to scenario app.
    public var apps: [String: String]
    /// The scenario app of trace apps not in `apps`.
    public var defaultApp: String?

    /// A replay of `user`'s uses in a trace: its apps mapped by `apps`, the rest to `defaultApp`
    /// (nil: every app used must be mapped).
    public init(tracePath: String, format: UsageTraceFormat = .lsapp, user: String, users: [String],
                apps: [String: String], defaultApp: String?) {
        self.tracePath = tracePath
        self.format = format
        self.user = user
        self.users = users
        self.apps = apps
        self.defaultApp = defaultApp
    }

    /// The scenario app a trace app maps to: its entry in `apps`, else `defaultApp`.
    public func scenarioApp(for traceApp: String) -> String? {
        apps[traceApp] ?? defaultApp
    }

    /// The steps that replay `uses` (in order): `switch` and `idle` as described above. A use
    /// whose app maps to no scenario app (no entry and no default) is left out.
    package func steps(for uses: [LSAppTrace.AppUse]) -> [Scenario.Step] {
        var switches: [(app: String, start: Int)] = []
        for use in uses {
            guard let app = scenarioApp(for: use.app) else { continue }
            if switches.last?.app != app { switches.append((app, use.start)) }
        }
        var steps: [Scenario.Step] = []
        steps.reserveCapacity(switches.count * 2)
        for (index, current) in switches.enumerated() {
            steps.append(.action(.switchTo(current.app)))
            guard index + 1 < switches.count else { break }
            let gap = min(max(0, switches[index + 1].start - current.start), Self.maximumIdleSeconds)
            if gap > 0 { steps.append(.action(.idle(Double(gap)))) }
        }
        return steps
    }
}

extension ScenarioLoader {
    /// Loads the scenario at `path` with its `replay` step's user replaced by `replayUser`
    /// (nil: the user the file names). For sweeps: one cell per user of the trace, as listed by
    /// ``replayUsers(inScenarioAt:)``. A scenario without a replay step ignores the override;
    /// a user the trace does not have is a located error at the step's `user`.
    public func load(path: String, replayUser: String?) throws(ScenarioError) -> Scenario {
        var loader = self
        loader.replayUser = replayUser
        return try loader.load(path: path)
    }

    /// The users of the trace the scenario at `path` replays, in numeric order; nil if the
    /// scenario has no replay step. The scenario is read and checked whole.
    public func replayUsers(inScenarioAt path: String) throws(ScenarioError) -> [String]? {
        try load(path: path).replay?.users
    }
}
