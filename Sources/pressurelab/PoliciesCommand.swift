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

    func validate() throws {
        guard rounds >= 1 else { throw ValidationError("--rounds must be 1 or more (got \(rounds))") }
    }

    func run() throws {
        Heap.requireJemalloc()
        let comparison = PolicyComparison(rounds: rounds)
        let progress = Progress(enabled: Progress.isTerminal)
        for scenario in [try PolicyComparison.photoBrowser(), try PolicyComparison.mixedCosts()] {
            let rows = try comparison.run(scenario) { progress.show($0) }
            progress.clear()
            try StandardOutput.print("\(scenario.name): \(scenario.description)")
            try StandardOutput.print("\(rounds) rounds of a warning then a visit to every tab; iOS 6 runtime.\n")
            try StandardOutput.print(TextTable.render(
                header: ["policy", "freed/warning", "reloads", "reload time", "view p50/p99", "redraw p50/p99",
                         "cache p50/p99", "model p50/p99"],
                rows: rows.map { row in
                    [row.policy, Units.mebibytes(row.freedPerWarning), String(row.reloadCount),
                     Units.duration(row.reloadNanoseconds),
                     Self.percentiles(row.reloads[.viewReload]), Self.percentiles(row.reloads[.backingStoreRedraw]),
                     Self.percentiles(row.reloads[.cacheRefill]), Self.percentiles(row.reloads[.modelReload])]
                }))
            try StandardOutput.print("\nReload latency distributions (HDR histograms):\n")
            var latencyRows: [[String]] = []
            for row in rows {
                for kind in ReloadKind.allCases {
                    guard let summary = row.reloads[kind], summary.count > 0 else { continue }
                    latencyRows.append([row.policy, kind.rawValue, String(summary.count),
                                        Units.duration(summary.p50),
                                        Units.duration(summary.p90),
                                        Units.duration(summary.p99),
                                        Units.duration(summary.max)])
                }
            }
            try StandardOutput.print(TextTable.render(header: ["policy", "reload", "count", "p50", "p90", "p99", "max"], rows: latencyRows))
            try StandardOutput.print("")
        }
    }

    static func percentiles(_ summary: ReloadStatistics.Summary?) -> String {
        guard let summary, summary.count > 0 else { return "-" }
        return "\(Units.duration(summary.p50))/\(Units.duration(summary.p99))"
    }
}

/// A one-line progress display on a terminal; silent when output is piped.
final class Progress {
    let enabled: Bool
    init(enabled: Bool) { self.enabled = enabled }

    static var isTerminal: Bool { isatty(STDERR_FILENO) != 0 }

    func show(_ message: String) {
        guard enabled else { return }
        FileHandleStandardError.write("\r\u{1B}[K\(message)")
    }

    func clear() {
        guard enabled else { return }
        FileHandleStandardError.write("\r\u{1B}[K")
    }
}
