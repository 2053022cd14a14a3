// A test needs one import: `import PressureLabTesting` brings the runtime (`Cleanup`,
// `Termination`, the policies) and the harness (`Scenario`, `RunResult`, the figures) with it
// (docs/gating.md).
@_exported import PressureLab
@_exported import PressureLabHarness
import Testing
import XCTest

/// Footprint gates for your own tests, in Swift Testing or XCTest: run a scenario (a file,
/// a bundled one by name, or one written in Swift) under any policy, built in or your own,
/// and check its deterministic figures. A failure is reported at your test's file and line,
/// and says the scenario, the policy, the figure, what was measured, what was allowed and by
/// how much it is over.
///
/// ```swift
/// @Test func feedStaysSmall() throws {
///     let run = try Footprint.run(scenarioAt: "scenarios/social-feed.yaml", policy: Cleanup(DropModelsFirst()))
///     Footprint.expect(run, .peakRetainedBytes, atMost: 40 << 20)
///     Footprint.expect(run, .coldLaunchDeviceP50, atMost: 500_000_000)   // 500 ms of device time
/// }
/// ```
///
/// Only figures that are the same on every run and every machine can be expected: bytes
/// (measured by jemalloc, deterministic under a seed), device time (modelled), kills, cold
/// launches and data lost. Host time is refused: it is this machine's, and it varies from
/// run to run, so a test that asserts it fails by chance (measure host speed in a
/// benchmark instead).
public enum Footprint {
    /// A figure to expect: the same type baselines and gates use.
    public typealias Figure = GatedMetric

    /// A figure over its limit, or a figure that cannot be expected.
    public struct Violation: Error, CustomStringConvertible, Sendable, Equatable {
        /// The scenario's name.
        public var scenario: String
        /// The cleanup and termination policies, as `cleanup / termination`.
        public var policy: String
        /// The figure expected.
        public var figure: Figure
        /// What the run gave, in the figure's unit.
        public var measured: Double
        /// The limit the test set.
        public var allowed: Double
        /// Set when the figure is host time: why it cannot be expected.
        public var refusal: String?

        public var description: String {
            if let refusal { return "\(scenario) under \(policy): \(figure.rawValue): \(refusal)" }
            let over = measured - allowed
            let percent = allowed == 0 ? 100 : over / allowed * 100
            return "\(scenario) under \(policy): \(figure.rawValue) measured \(format(measured)), allowed at most "
                + "\(format(allowed)), over by \(format(over)) (\(String(format: "%.1f", percent))%)"
        }

        private func format(_ value: Double) -> String { figure.unit.format(value, mebibytes: true) }
    }

    // MARK: - Running

    /// Runs a scenario file under a cleanup and a termination policy (any: built in or written
    /// in Swift), on the engine the command line uses (`RunPlan`, `Simulation`).
    ///
    /// Device time is modelled with `profile` (a bundled name or a file), else the scenario's,
    /// else the default profile.
    ///
    /// A policy's mistake (an action or a plan the device cannot carry out) throws
    /// `PolicyError/mistake(_:)`, located. A policy that never returns is not interrupted:
    /// the run runs in the caller's thread, which Swift cannot stop, so the test hangs there
    /// (the test runner's own time limit ends it); the command line's `--step-timeout` ends the
    /// process instead (docs/limits.md, "Time").
    public static func run(scenarioAt path: String, policy: Cleanup = .ios6, termination: Termination = .jetsam,
                           seed: UInt64? = nil, profile: ProfileReference? = nil) throws -> RunResult {
        try run(ScenarioLoader().load(path: path), policy: policy, termination: termination, seed: seed, profile: profile)
    }

    /// Runs one of PressureLab's bundled scenarios by name (`photo-browser`: the copy
    /// compiled into the library, whatever the working directory).
    public static func run(bundled name: String, policy: Cleanup = .ios6, termination: Termination = .jetsam,
                           seed: UInt64? = nil, profile: ProfileReference? = nil) throws -> RunResult {
        guard let directory = EmbeddedLibrary.directory(for: "scenarios") else {
            throw ScenarioError(diagnostics: [.init(path: name, line: 0, column: 0, key: "",
                                                    message: "the bundled scenarios could not be written out to be read")])
        }
        return try run(scenarioAt: ScenarioLibrary(directory: directory).resolve(name), policy: policy, termination: termination,
                       seed: seed, profile: profile)
    }

    /// Runs a scenario (loaded, or written in Swift).
    public static func run(_ scenario: Scenario, policy: Cleanup = .ios6, termination: Termination = .jetsam,
                           seed: UInt64? = nil, profile: ProfileReference? = nil) throws -> RunResult {
        let plan = RunPlan(scenarios: [scenario], policies: [policy], termination: termination, seed: seed, profile: profile)
        return try plan.execute().runs[0]
    }

    // MARK: - Expectations

    /// The violation of `figure` in `run` against `limit`, or nil when it is within it: the
    /// check itself, for callers that report on their own.
    public static func violation(of figure: Figure, in run: RunResult, atMost limit: Int) -> Violation? {
        let limit = Double(limit)
        let policy = "\(run.policy.name) / \(run.termination.name)"
        if figure.kind == .latency {
            return Violation(scenario: run.scenario, policy: policy, figure: figure, measured: 0, allowed: limit,
                             refusal: "host time (measured on this machine, different on every run) cannot be expected "
                                + "in a test: expect a device-time figure (\(Figure.allCases.filter { $0.kind == .deviceTime }.map(\.rawValue).joined(separator: ", "))) "
                                + "or measure host speed in a benchmark")
        }
        let measured = figure.value(in: run)
        guard measured > limit else { return nil }
        return Violation(scenario: run.scenario, policy: policy, figure: figure, measured: measured, allowed: limit, refusal: nil)
    }

    /// Expects `figure` of `run` to be at most `limit` (bytes, nanoseconds of device time, a
    /// count); a violation is reported as a test failure at the caller's file and line (Swift
    /// Testing's issue, or XCTest's failure).
    ///
    /// - Returns: whether the figure was within its limit.
    @discardableResult
    public static func expect(_ run: RunResult, _ figure: Figure, atMost limit: Int,
                              fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
                              column: UInt = #column) -> Bool {
        guard let violation = violation(of: figure, in: run, atMost: limit) else { return true }
        TestFailure.record(violation.description, fileID: fileID, filePath: filePath, line: line, column: column)
        return false
    }

    /// Expects runs to match a saved baseline (`Baseline`, checked with `thresholds`) in its
    /// deterministic figures: bytes, device time and counts. Its host latencies are not
    /// checked here (they are this machine's; `pressurelab baseline check` gates them with a
    /// noise allowance). The gate's report is the failure's message.
    @discardableResult
    public static func expect(_ runs: [RunResult], matchBaselineAt path: String, thresholds: Thresholds = .default,
                              fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
                              column: UInt = #column) throws -> Bool {
        // Host latencies are never gated in a test, even when `thresholds` names them.
        var deterministic = thresholds
        deterministic.hostLatencies = nil
        let report = GateReport.check(runs, against: try Baseline.read(from: path), thresholds: deterministic)
        guard !report.passed else { return true }
        TestFailure.record(report.text, fileID: fileID, filePath: filePath, line: line, column: column)
        return false
    }
}

/// A failure reported to whichever test framework runs the caller: Swift Testing when a
/// test of its is running (``Test/current``), else XCTest.
enum TestFailure {
    static func record(_ message: String, fileID: String, filePath: StaticString, line: UInt, column: UInt) {
        if Test.current != nil {
            Issue.record(Comment(rawValue: message),
                         sourceLocation: SourceLocation(fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column)))
        } else {
            XCTFail(message, file: filePath, line: line)
        }
    }
}
