import Foundation
import PressureLab
import PressureLabHarness

/// Runs one cell in this process and writes its record: what a sweep's worker process does
/// (`pressurelab sweep-worker`). One process per cell: one jemalloc heap per cell, so no
/// cell's measurements depend on another's, and a cell that crashes takes only itself down.
package enum CellWorker {
    /// Runs `cell` of the sweep `hash` and writes `cells/NNNNNN.json` in `directory`
    /// (atomically: a cell is whole or absent). `timeLimits`: the watchdog of each run
    /// (``RunPlan/timeLimits``). `lenientPolicies`: count the policies'
    /// mistakes instead of failing the cell (``RunPlan/lenientPolicies``).
    package static func run(_ cell: SweepCell, sweep hash: String, directory: SweepDirectory,
                            lenientPolicies: Bool = false,
                            timeLimits: (TimeLimits, @Sendable (RunWatchdog.Expiry) -> Void)? = nil) throws -> CellRecord {
        var scenario: Scenario
        do {
            scenario = try ScenarioLoader().load(path: cell.scenarioPath, replayUser: cell.user)
        } catch {
            throw SweepError.invalidScenario(error.description)
        }
        // A replayed user's runs say whose trace they are.
        if let user = cell.user { scenario.name = "\(scenario.name) (user \(user))" }
        var plan = RunPlan(scenarios: [scenario], policies: [cell.policy], termination: cell.termination, repeats: cell.repeats,
                           seed: cell.seed, profile: cell.profile.map(ProfileReference.init), compressor: cell.compressor)
        plan.lenientPolicies = lenientPolicies
        plan.timeLimits = timeLimits
        let outcome = try plan.execute()
        let results = try CompletedPlan(runs: outcome.runs, profile: outcome.profile).resultsFile()
        let record = CellRecord(tool: PressureLabVersion.current, sweep: hash, cell: cell, results: results)
        try directory.write(record)
        return record
    }

    /// Ends this process when its parent (the sweep) is gone, checked every 200 ms, so that
    /// a sweep killed outright leaves no worker running on: `exitProcess` runs the process's
    /// cleanup (its temporaries) and exits.
    package static func exitWhenOrphaned(parent: Int32, exitProcess: @escaping @Sendable () -> Never) {
        let thread = Thread {
            while getppid() == parent { usleep(200_000) }
            exitProcess()
        }
        thread.stackSize = 1 << 16
        thread.start()
    }
}
