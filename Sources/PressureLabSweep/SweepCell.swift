import PressureLab
import PressureLabHarness

/// One cell of a sweep: a scenario under one value of every axis. Its ``index`` is its
/// place in the sweep's fixed order (scenarios, then policies, terminations, profiles,
/// compressors, seeds and users), the same on every machine.
package struct SweepCell: Codable, Sendable, Equatable {
    /// Place in the sweep (from 0).
    package var index: Int
    /// The scenario's name.
    package var scenario: String
    /// The scenario file (as resolved on the machine that expanded the sweep).
    package var scenarioPath: String
    package var policy: Cleanup
    package var termination: Termination
    /// The device profile (a bundled name or a file); nil: the scenario's own.
    package var profile: String?
    /// The compressor; nil: the profile's.
    package var compressor: Compressor?
    /// The seed; nil: the scenario's own.
    package var seed: UInt64?
    /// The user of the scenario's `replay` trace; nil: the scenario's own.
    package var user: String?
    /// Runs of the cell.
    package var repeats: Int
    /// A hash of what the cell reads (its scenario file's bytes, its profile's), so that a
    /// scenario edited between a sweep and its resume, or between shards, is another sweep.
    package var fingerprint: String?

    /// Every axis value, in order, `/`-separated: what identifies the cell across machines
    /// (paths are left out: a bundled scenario's path differs between machines).
    package var key: String {
        [scenario, policy.name, termination.name, profile ?? "-", compressor?.rawValue ?? "-",
         seed.map(String.init) ?? "-", user.map { "user \($0)" } ?? "-"].joined(separator: " / ")
    }

    /// A short label for progress and errors: the axes that are set.
    package var label: String {
        var parts = [scenario, policy.name, termination.name]
        if let profile { parts.append(profile) }
        if let compressor { parts.append(compressor.rawValue) }
        if let seed { parts.append("seed \(seed)") }
        if let user { parts.append("user \(user)") }
        return parts.joined(separator: " / ")
    }
}
