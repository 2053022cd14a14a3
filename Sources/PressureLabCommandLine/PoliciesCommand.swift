#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import PressureLab
import PressureLabHarness
import PressureLabHeap

/// Compares the cleanup policies on two built-in scenarios and prints what they freed and
/// what the reloads cost afterwards.
struct PoliciesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "policies",
        abstract: "Compare cleanup policies: bytes freed per warning, reloads and their latency percentiles (measured)."
    )

    @Option(name: .long, help: "Warning-and-revisit rounds per policy.")
    var rounds = 20

    @Option(name: .long, help: "Device profile for device time: a bundled name or a file (default: \(ProfileLibrary.defaultName)).")
    var profile: ProfileReference?

    func validate() throws {
        guard rounds >= 1 else { throw ValidationError("--rounds must be 1 or more (got \(rounds))") }
    }

    func run() throws {
        try requireJemalloc()
        let deviceProfile = try loadProfile(profile)
        let comparison = PolicyComparison(rounds: rounds, profile: deviceProfile)
        let progress = Progress(enabled: Progress.isTerminal)
        for scenario in [try PolicyComparison.photoBrowser(), try PolicyComparison.mixedCosts()] {
            let rows = try comparison.run(scenario) { progress.show($0) }
            progress.clear()
            try StandardOutput.print("\(scenario.name): \(scenario.description)")
            try StandardOutput.print("\(rounds) rounds of a warning then a visit to every tab. Device time: "
                + "modelled with \(deviceProfile.name); host time: measured here.\n")
            try StandardOutput.print(TextTable.render(
                header: ["policy", "freed/warning", "reloads", "reload time device / host", "view p50 device / host",
                         "redraw p50 device / host", "cache p50 device / host", "model p50 device / host"],
                rows: rows.map { row in
                    [row.label, Units.mebibytes(row.freedPerWarning), String(row.reloadCount),
                     "\(row.reloadDeviceNanoseconds.map { Units.duration($0) } ?? "-") / \(Units.duration(row.reloadNanoseconds))",
                     Self.pair(row, .viewReload), Self.pair(row, .backingStoreRedraw), Self.pair(row, .cacheRefill),
                     Self.pair(row, .modelReload)]
                }))
            try StandardOutput.print("\nReload latency distributions (HDR histograms), device time then host time:\n")
            var latencyRows: [[String]] = []
            for row in rows {
                for kind in ReloadKind.allCases {
                    guard let summary = row.reloads[kind], summary.count > 0 else { continue }
                    let device = row.deviceReloads[kind] ?? summary
                    latencyRows.append([row.label, kind.rawValue, String(summary.count),
                                        Units.duration(device.p50), Units.duration(device.p90), Units.duration(device.p99),
                                        Units.duration(summary.p50), Units.duration(summary.p90), Units.duration(summary.p99)])
                }
            }
            try StandardOutput.print(TextTable.render(
                header: ["policy", "reload", "count", "device p50", "device p90", "device p99", "host p50", "host p90", "host p99"],
                rows: latencyRows))
            try StandardOutput.print("")
        }
    }

    /// "device p50 / host p50" of one reload kind, or "-" when there was none.
    static func pair(_ row: PolicyComparison.Row, _ kind: ReloadKind) -> String {
        guard let host = row.reloads[kind], host.count > 0 else { return "-" }
        let device = row.deviceReloads[kind].map { Units.duration($0.p50) } ?? "-"
        return "\(device) / \(Units.duration(host.p50))"
    }
}

/// A one-line progress display on a terminal; silent when output is piped.
final class Progress: Sendable {
    let enabled: Bool
    init(enabled: Bool) { self.enabled = enabled }

    static var isTerminal: Bool { isatty(STDERR_FILENO) != 0 }

    func show(_ message: String) {
        guard enabled else { return }
        StandardError.write("\r\u{1B}[K\(message)")
    }

    func clear() {
        guard enabled else { return }
        StandardError.write("\r\u{1B}[K")
    }
}
