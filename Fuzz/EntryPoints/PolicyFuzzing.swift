import Foundation
import PressureLab
import PressureLabHarness
import PressureLabHeap

/// The policy fuzzer's entry point: bytes make a small scenario, a termination policy that
/// returns any action (valid or not, naming installed apps or a ghost) and a cleanup policy
/// that releases anything (its app's controllers or a stranger's). The run is lenient (every
/// mistake counted), and after every step the ledgers are checked (``PolicyFuzzing/violations(_:)``).
public enum PolicyFuzzing {
    /// The fuzz target's entry point: traps (a finding) on any violation.
    @discardableResult
    public static func policy(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let found = violations(bytes)
        precondition(found.isEmpty, "policy fuzzing: \(found.joined(separator: "; "))")
        return true
    }

    /// What went wrong with `bytes`, or nothing: a ledger with a negative owner, an app whose
    /// total is not the sum of its owners, a dead app holding bytes, ledgers that count more
    /// than jemalloc says the run holds, bytes jemalloc says are still held once the run is
    /// released, or an invalid action or plan that did not become a ``PolicyMistake``.
    public static func violations(_ bytes: UnsafeRawBufferPointer) -> [String] { examine(bytes).violations }

    /// What one input did: its violations, and the steps run and mistakes counted (so that a
    /// test can see the input reached the device).
    public struct Report: Sendable {
        public var violations: [String] = []
        public var steps = 0, mistakes = 0
        /// The most bytes the run's thread held, by jemalloc's counters, beyond what the apps'
        /// ledgers counted after a step (the simulation's own bookkeeping).
        public var mostUncounted = 0
        /// What the run's thread still held, by jemalloc's counters, once the run and everything
        /// it made were released.
        public var heldAfterRelease = 0
    }

    /// The bytes a run's thread may still hold once the run is released (an input that leaves
    /// more is run again, so that what a code path makes once per process, 722 KiB on the first
    /// input, is not counted): measured, at most 496 B over 299 seeded inputs after the first;
    /// a leaked app, at least one screen's 16 KiB cache, is more.
    public static let releaseSlackBytes = 16 * 1024

    /// Runs `bytes` (``violations(_:)``) and reports.
    public static func examine(_ bytes: UnsafeRawBufferPointer) -> Report {
        var report = Report()
        // jemalloc's own figure for the run: the thread's net allocation since it began. The
        // ledgers count a part of it (each app's bytes), never more; and once the run is
        // released, everything it allocated is back (a killed app and its memory included).
        let counters = ThreadAllocationCounters.current
        func heldSince(_ start: Int64) -> Int {
            Int(Int64(bitPattern: counters.allocated &- counters.deallocated) - start)
        }
        var start = Int64(bitPattern: counters.allocated &- counters.deallocated)
        run(bytes, into: &report) { heldSince(start) }
        report.heldAfterRelease = heldSince(start)
        if report.heldAfterRelease > releaseSlackBytes {
            // What a code path makes once per process (type metadata, a table built on first
            // use) is not the run's: the same input again shows whether the bytes stay behind.
            var again = Report()
            start = Int64(bitPattern: counters.allocated &- counters.deallocated)
            run(bytes, into: &again) { heldSince(start) }
            report.heldAfterRelease = heldSince(start)
        }
        if report.heldAfterRelease > releaseSlackBytes {
            report.violations.append("the run's thread still holds \(report.heldAfterRelease) bytes by jemalloc's counters after the run was released")
        }
        return report
    }

    /// Runs `bytes` into `report`; everything the run makes is released when this returns.
    /// `held` reads the bytes the thread holds since the input began.
    private static func run(_ bytes: UnsafeRawBufferPointer, into report: inout Report, held: @escaping () -> Int) {
        let source = ByteSource(Array(bytes))
        let apps = ["a", "b", "c", "d"].prefix(1 + Int(source.next() % 4)).map { $0 }
        let text = scenario(apps: apps, source: source)
        guard let scenario = try? ScenarioLoader(hostLimitBytes: FuzzEntryPoints.scenarioHostLimitBytes).parse(text, path: "fuzz.yaml")
        else { report.violations = ["the generated scenario was refused:\n\(text)"]; return }
        let termination = ByteTermination(source: source, apps: apps)
        let cleanup = ByteCleanup(source: source)
        var found: [String] = []
        do {
            let simulation = try Simulation(scenario, cleanup: Cleanup(cleanup), termination: Termination(termination))
            simulation.device.lenientPolicies = true
            var mostUncounted = 0
            simulation.afterStep = { device in
                found += ledgerViolations(device)
                let counted = device.apps.reduce(0) { $0 + $1.app.runtime.ledger.total }
                let uncounted = held() - counted
                if uncounted < 0 {
                    found.append("the ledgers count \(counted) bytes, jemalloc says the run's thread holds \(held())")
                }
                mostUncounted = max(mostUncounted, uncounted)
            }
            report.steps = try simulation.run().metrics.steps
            report.mistakes = simulation.policyMistakes.count
            report.mostUncounted = mostUncounted
            let reasons = simulation.policyMistakes.map(\.reason)
            let ghosts = reasons.filter { if case .notInstalled = $0 { true } else { false } }.count
            let strangers = reasons.filter { if case .foreignController = $0 { true } else { false } }.count
            if ghosts != termination.ghostsReturned.value {
                found.append("\(termination.ghostsReturned.value) actions named an app not installed, \(ghosts) mistakes said so")
            }
            if strangers != cleanup.strangersReleased.value {
                found.append("\(cleanup.strangersReleased.value) plans named a stranger, \(strangers) mistakes said so")
            }
        } catch {
            // A host without memory or files for the run is not the policy's doing.
            if case RuntimeError.memoryRefused = error {} else { found.append("the run threw \(error)") }
        }
        report.violations = found
    }

    /// The ledgers' invariants on every installed app now.
    static func ledgerViolations(_ device: Device) -> [String] {
        var found: [String] = []
        for installed in device.apps {
            let ledger = installed.app.runtime.ledger
            let balances = ledger.allBalances
            if let negative = balances.first(where: { $0.value < 0 }) {
                found.append("\(installed.name): owner \(negative.key) holds \(negative.value) bytes")
            }
            let sum = balances.values.reduce(0, +)
            if sum != ledger.total { found.append("\(installed.name): total \(ledger.total), owners' sum \(sum)") }
            if !installed.app.state.hasProcess, ledger.total != 0 {
                found.append("\(installed.name): no process, \(ledger.total) bytes held")
            }
        }
        return found
    }

    /// A scenario of `apps`, its memory, sizes and steps drawn from `source`.
    static func scenario(apps: [String], source: ByteSource) -> String {
        let memory = 4 + Int(source.next() % 29)
        var lines = ["scenario: 1", "name: fuzz", "device: { memory: \(memory)MiB }", "apps:"]
        for app in apps {
            let cache = 16 << (source.next() % 6), backing = 64 << (source.next() % 6), model = 4 << (source.next() % 6)
            lines.append("  \(app): { screens: { s: { tree: { depth: 1, fanout: 2, bytes: 1KiB }, cache: \(cache)KiB, "
                + "backing: \(backing)KiB, model: \(model)KiB } }, root: { nav: s } }")
        }
        lines.append("script:")
        lines.append("  - launch: \(apps[0])")
        for _ in 0..<(4 + Int(source.next() % 28)) {
            let pick = source.next()
            switch pick % 7 {
            case 0, 1: lines.append("  - launch: \(apps[Int(pick / 7) % apps.count])")
            case 2: lines.append("  - push: s")
            case 3: lines.append("  - pop: 1")
            case 4: lines.append("  - warning: \(pick & 8 == 0 ? "warning" : "critical")")
            case 5: lines.append("  - home")
            default: lines.append("  - idle: \(1 + Int(pick % 60))s")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The fuzz input, a byte at a time (zeros once it is used up).
final class ByteSource: @unchecked Sendable {
    // One simulation's thread reads it (the policies are called on it).
    private var bytes: [UInt8], index = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    var isExhausted: Bool { index >= bytes.count }
    func next() -> UInt8 {
        defer { index += 1 }
        return index < bytes.count ? bytes[index] : 0
    }
}

/// A count shared with a policy value (policies are values; the fuzzer reads the count after the run).
final class Count: @unchecked Sendable {
    var value = 0
}

/// Any action, valid or not; nil once the input is used up.
struct ByteTermination: TerminationPolicy, @unchecked Sendable {
    let name = "fuzz-termination"
    let source: ByteSource
    let apps: [String]
    let ghostsReturned = Count()

    func nextAction(_ device: DeviceSnapshot) -> ReclaimAction? {
        guard !source.isExhausted else { return nil }
        let pick = source.next()
        let index = Int(source.next()) % (apps.count + 1)
        let app = index < apps.count ? apps[index] : "ghost"
        let names = pick % 8 == 1 || pick % 8 == 2 || pick % 8 == 3
        if names && index == apps.count { ghostsReturned.value += 1 }
        switch pick % 8 {
        case 1: return .kill(app, pick & 8 == 0 ? .policy : .vmPageShortage)
        case 2: return .freeze(app)
        case 3: return .compact(app)
        case 4: return .killForeground(.policy)
        case 5: return .warnRunningApps
        case 6: return .freezerRan
        default: return nil
        }
    }
}

/// Any releases of the app's controllers, and now and then a stranger's.
struct ByteCleanup: CleanupPolicy, @unchecked Sendable {
    let name = "fuzz-cleanup"
    let source: ByteSource
    let strangersReleased = Count()

    func plan(for context: CleanupContext) -> CleanupPlan {
        var plan = CleanupPlan()
        for state in context.controllers {
            let mask = source.next()
            for (bit, item) in ReleasableItem.allCases.enumerated() where mask & (1 << bit) != 0 {
                plan.release(item, of: state.id)
            }
        }
        if source.next() % 4 == 0 {
            plan.release(.cache, of: ControllerID(screen: "stranger", instance: 1))
            strangersReleased.value += 1
        }
        return plan
    }
}
