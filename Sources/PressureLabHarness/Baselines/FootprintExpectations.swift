import PressureLab

/// Footprint and latency assertions for your own tests (Swift Testing or XCTest): run a
/// scenario (a file, or one built in Swift) and check its figures; a violation throws an
/// error whose message says what, measured, allowed and by how much.
///
/// ```swift
/// @Test func feedStaysSmall() throws {
///     let run = try Footprint.run(scenarioAt: "scenarios/social-feed.yaml", policy: "ios6")
///     try Footprint.expect(run, .peakRetainedBytes, atMost: 40 << 20)
///     try Footprint.expect(run, .viewReloadP99, atMost: 5_000_000)   // 5 ms
/// }
/// ```
public enum Footprint {
    /// A metric to assert on: the same type that baselines and gates use.
    public typealias Metric = GatedMetric

    /// A figure over its limit.
    public struct Violation: Error, CustomStringConvertible, Sendable {
        public var scenario: String
        public var policy: String
        public var metric: Metric
        public var measured: Double
        public var allowed: Double

        public var description: String {
            let over = measured - allowed
            let percent = allowed == 0 ? 100 : over / allowed * 100
            return "\(scenario) under \(policy): \(metric.rawValue) measured \(format(measured)), allowed at most "
                + "\(format(allowed)), over by \(format(over)) (\(String(format: "%.1f", percent))%)"
        }

        private func format(_ value: Double) -> String { metric.unit.format(value, mebibytes: true) }
    }

    /// Runs a scenario file under a cleanup and a termination policy.
    ///
    /// Device time is modelled with `profile` (a bundled name or a file), else the scenario's,
    /// else the default profile.
    public static func run(scenarioAt path: String, policy: CleanupKind = .ios6, termination: TerminationKind = .jetsam,
                           seed: UInt64? = nil, profile: ProfileReference? = nil) throws -> RunResult {
        try run(ScenarioLoader().load(path: path), policy: policy, termination: termination, seed: seed, profile: profile)
    }

    /// Runs a scenario (loaded, or built in Swift).
    public static func run(_ scenario: Scenario, policy: CleanupKind = .ios6, termination: TerminationKind = .jetsam,
                           seed: UInt64? = nil, profile: ProfileReference? = nil) throws -> RunResult {
        // The same entry point as the command line's `run`.
        let plan = RunPlan(scenarios: [scenario], policies: [policy], termination: termination, seed: seed, profile: profile)
        return try plan.execute().runs[0]
    }

    /// Throws a ``Violation`` when `metric` exceeds `limit`.
    public static func expect(_ run: RunResult, _ metric: Metric, atMost limit: Double) throws(Violation) {
        let measured = metric.value(in: run)
        guard measured <= limit else {
            throw Violation(scenario: run.scenario, policy: run.policy.description, metric: metric, measured: measured, allowed: limit)
        }
    }

    /// Throws a ``Violation`` when `metric` exceeds `limit` (an integer limit, e.g. bytes).
    public static func expect(_ run: RunResult, _ metric: Metric, atMost limit: Int) throws(Violation) {
        try expect(run, metric, atMost: Double(limit))
    }

    /// Checks runs against a saved baseline; throws the report's text when it fails.
    public static func expect(_ runs: [RunResult], matchBaselineAt path: String, thresholds: Thresholds = .default) throws {
        let report = GateReport.check(runs, against: try Baseline.read(from: path), thresholds: thresholds)
        guard report.passed else { throw BaselineViolation(report: report) }
    }

    /// A failed baseline check, with its report as the message.
    public struct BaselineViolation: Error, CustomStringConvertible {
        public var report: GateReport
        public var description: String { report.text }
    }
}
