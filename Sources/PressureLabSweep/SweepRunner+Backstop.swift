import Foundation
import PressureLabHarness
import PressureLabHeap

/// The sweep's own limit on a worker: its backstop. A worker ends itself when a run goes over
/// its time limit (its watchdog, docs/limits.md, "Time"); a worker whose watchdog cannot act (a
/// process stopped, a policy that holds the allocator's lock, the watchdog's thread starved) is
/// killed by the sweep instead once every run of its cell has had its whole limit and a grace
/// besides, and its cell fails with that reason like any other.
extension SweepRunner {
    /// Seconds a worker is given past its runs' limits before the sweep kills it: for starting,
    /// loading the scenario and the profile, and writing the record.
    package static let defaultBackstopGraceSeconds = 60.0

    /// The most seconds the worker of `cell` may run before the sweep kills it: each of its
    /// runs' limit (the one the workers are given, ``cellTimeLimits``, else the one derived
    /// from the scenario, `TimeLimits.derived(for:)`) plus ``backstopGraceSeconds``; nil when
    /// the scenario does not load (its worker fails at once, saying why).
    package func backstopSeconds(for cell: SweepCell) -> Double? {
        let perRun: Double
        if let given = cellTimeLimits.cellSeconds {
            perRun = given
        } else {
            let key = "\(cell.scenarioPath)\u{0}\(cell.user ?? "")"
            let derived = derivedRunSeconds.withLock { $0[key] } ?? {
                let seconds = (try? ScenarioLoader().load(path: cell.scenarioPath, replayUser: cell.user))
                    .flatMap { TimeLimits.derived(for: $0).cellSeconds }
                derivedRunSeconds.withLock { $0[key] = .some(seconds) }
                return seconds
            }()
            guard let derived else { return nil }
            perRun = derived
        }
        return perRun * Double(max(1, cell.repeats)) + backstopGraceSeconds
    }
}
