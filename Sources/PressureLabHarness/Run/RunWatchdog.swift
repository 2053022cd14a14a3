import Foundation
import PressureLab
import PressureLabHeap

/// How long a run's steps and the whole run (a cell) may take, host time (docs/limits.md,
/// "Time"). A step's own work is bounded by the scenario's limits; a policy's code is not.
public struct TimeLimits: Sendable, Equatable {
    /// The most seconds one step may take (nil: no limit).
    public var stepSeconds: Double?
    /// The most seconds one run of a cell may take (nil: no limit).
    public var cellSeconds: Double?

    /// Limits in seconds (nil: that one not limited).
    public init(stepSeconds: Double? = nil, cellSeconds: Double? = nil) {
        self.stepSeconds = stepSeconds
        self.cellSeconds = cellSeconds
    }

    /// The limits derived from the scenario when none is given: a step may take 60 seconds,
    /// plus a second for every 64 MiB of the device's memory (a step at worst fills the
    /// device, at the 64 MiB/s of a host busy with other runs); a run, that for each of its
    /// expanded steps (each at its worst).
    public static func derived(for scenario: Scenario) -> TimeLimits {
        let step = 60 + Double(scenario.device.memoryBytes >> 26)
        return TimeLimits(stepSeconds: step, cellSeconds: step * Double(max(1, scenario.expandedStepCount)))
    }

    /// These limits, each one not given taken from `derived`.
    public func filled(from derived: TimeLimits) -> TimeLimits {
        TimeLimits(stepSeconds: stepSeconds ?? derived.stepSeconds, cellSeconds: cellSeconds ?? derived.cellSeconds)
    }
}

/// Watches a run's steps from a thread of its own and reports the first that goes over a
/// time limit. A policy's code cannot be interrupted in its thread: what the report does is
/// the caller's (the command line writes it and ends the process, exit 1; a sweep's worker
/// likewise, which fails its cell and leaves the other cells to go on).
public final class RunWatchdog: Sendable {
    /// A limit that expired: where the run was.
    public struct Expiry: Sendable, Equatable, CustomStringConvertible {
        /// Which limit, by the option that sets it.
        public enum Limit: String, Sendable {
            /// One step's (`--step-timeout`).
            case step = "--step-timeout"
            /// The whole run's, a sweep's cell (`--cell-timeout`).
            case cell = "--cell-timeout"
        }
        /// The limit that expired.
        public var limit: Limit
        /// Its seconds.
        public var seconds: Double
        /// The scenario's name.
        public var scenario: String
        /// The step in progress (1 for the first).
        public var step: Int
        /// The step as the script writes it.
        public var stepText: String
        /// The policy whose call was in progress (the cleanup policy in `plan(for:)`, the
        /// termination policy in `nextAction(_:)`); nil between calls.
        public var policy: String?
        /// The call in progress; nil between calls.
        public var call: PolicyMistake.Call?

        /// Where the run was when the limit expired, in a line.
        public var description: String {
            let what = limit == .step ? "step \(step) (\(stepText)) has not finished" : "the run has not finished (at step \(step), \(stepText))"
            let where_ = call.map { "in the policy '\(policy ?? "")''s \($0.rawValue)" } ?? "outside any policy call"
            return "\(scenario): \(what) in \(Self.format(seconds)) (\(limit.rawValue)), \(where_)"
        }

        static func format(_ seconds: Double) -> String {
            seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.3g s", seconds)
        }
    }

    private struct State: Sendable {
        var step = 0, stepText = "", stepStart: UInt64 = 0, inStep = false, stopped = false
    }

    private let state = Locked(State())
    private let limits: TimeLimits
    private let scenario: String, cleanup: String, termination: String
    private let calls: PolicyCallMarker
    private let runStart = MonotonicClock.now()

    /// Starts watching (the thread ends at ``stop()``). `onExpiry` is called once, on the
    /// watchdog's thread, with the first limit that expired.
    public init(limits: TimeLimits, scenario: String, cleanup: String, termination: String, calls: PolicyCallMarker,
                onExpiry: @escaping @Sendable (Expiry) -> Void) {
        self.limits = limits
        self.scenario = scenario
        self.cleanup = cleanup
        self.termination = termination
        self.calls = calls
        let shortest = [limits.stepSeconds, limits.cellSeconds].compactMap { $0 }.min() ?? 1
        let interval = UInt32(min(100_000, max(1_000, shortest * 1e6 / 20)))
        let thread = Thread { [self] in
            while true {
                usleep(interval)
                if state.withLock({ $0.stopped }) { return }
                if let expiry = expired() {
                    onExpiry(expiry)
                    return
                }
            }
        }
        thread.stackSize = 1 << 16
        thread.start()
    }

    /// A step begins.
    public func beginStep(_ step: Int, _ text: String) {
        state.withLock { $0.step = step; $0.stepText = text; $0.stepStart = MonotonicClock.now(); $0.inStep = true }
    }

    /// The step ended.
    public func endStep() { state.withLock { $0.inStep = false } }

    /// Stops watching.
    public func stop() { state.withLock { $0.stopped = true } }

    /// The first limit over now, if any.
    private func expired() -> Expiry? {
        // The state first, then the clock: a step that begins between the two readings would
        // otherwise start after `now`, and `now - start` wrap around to centuries.
        let current = state.withLock { $0 }
        let now = MonotonicClock.now()
        func over(_ seconds: Double?, since start: UInt64) -> Bool {
            guard let seconds else { return false }
            return Self.elapsedSeconds(from: start, to: now) > seconds
        }
        let limit: Expiry.Limit
        if current.inStep, over(limits.stepSeconds, since: current.stepStart) {
            limit = .step
        } else if over(limits.cellSeconds, since: runStart) {
            limit = .cell
        } else {
            return nil
        }
        let call = calls.call
        return Expiry(limit: limit, seconds: (limit == .step ? limits.stepSeconds : limits.cellSeconds) ?? 0, scenario: scenario,
                      step: current.step, stepText: current.stepText,
                      policy: call.map { $0 == .plan ? cleanup : termination }, call: call)
    }
}

extension RunWatchdog {
    /// Seconds from `start` to `now` (monotonic nanoseconds); 0 when `start` is later than `now`
    /// (a step that began after the clock was read).
    static func elapsedSeconds(from start: UInt64, to now: UInt64) -> Double {
        now > start ? Double(now - start) / 1e9 : 0
    }
}

extension TimeLimits {
    /// Seconds as the command line and sweep files write them: `5` or `5s` (a decimal
    /// allowed: `0.5s`); nil for anything else, or not above zero.
    public static func seconds(_ text: String) -> Double? {
        let number = text.hasSuffix("s") ? String(text.dropLast()) : text
        guard let value = Double(number), value.isFinite, value > 0, value <= 1e9 else { return nil }
        return value
    }
}
