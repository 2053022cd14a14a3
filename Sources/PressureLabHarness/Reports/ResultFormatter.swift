import Foundation

/// Renders runs as a table, CSV or Markdown (one row per run), or JSON (the results file).
public enum ResultFormat: String, CaseIterable, Sendable {
    /// A table of at most 120 columns, JSON (`pressurelab.results/1`), CSV or Markdown.
    case table, json, csv, markdown
}

/// A comparison row: one run's headline figures and whether another run of the same
/// scenario beats it on footprint and reload time together.
public struct ComparisonRow: Sendable, Equatable {
    /// The scenario's name.
    public var scenario: String
    /// The cleanup policy's name.
    public var policy: String
    /// The termination policy's name.
    public var termination: String
    /// The peak of retained bytes.
    public var peakBytes: Int
    /// The mean of retained bytes over the steps.
    public var meanBytes: Int
    /// Retained bytes after the last step.
    public var finalBytes: Int
    /// Apps the termination policy killed in the background.
    public var kills: Int
    /// Apps killed in the background by the system's own limits (``RunMetrics/limitKills``).
    public var limitKills: Int
    /// Out-of-memory crashes of the app in front.
    public var crashes: Int
    /// Cold launches.
    public var coldLaunches: Int
    /// Views reloaded.
    public var viewReloads: Int
    /// Host time of every reload, summed.
    public var reloadTimeNs: UInt64
    /// The median host time of a view reload.
    public var viewReloadP50: UInt64
    /// The 99th percentile host time of a view reload.
    public var viewReloadP99: UInt64
    /// Device time (modelled; nil without a profile): all reloads, view reload p50, cold
    /// launch p50.
    public var reloadDeviceTimeNs: UInt64?
    /// The median device time of a view reload (with a profile).
    public var viewReloadDeviceP50: UInt64?
    /// The median device time of a cold launch (with a profile).
    public var coldLaunchDeviceP50: UInt64?
    /// The median host time of a cold launch.
    public var coldLaunchP50: UInt64
    /// User data lost.
    public var dataLossBytes: Int
    /// Another policy of the same scenario has less or equal mean footprint and reload time,
    /// one of them strictly less.
    public var dominated: Bool
    /// Mean footprint relative to the scenario's first run, in percent.
    public var meanDeltaPercent: Double
    /// Bytes retained more a cycle of the scenario's `repeat:` (``RunMetrics/growthPerCycleBytes``).
    public var growthPerCycleBytes: Int = 0
}

/// Results as tables, CSV, JSON or Markdown (`--format`).
public enum ResultFormatter {
    /// Headline rows, with domination and deltas computed per scenario.
    public static func comparison(_ runs: [RunResult]) -> [ComparisonRow] {
        var rows: [ComparisonRow] = []
        let scenarios = runs.map(\.scenario).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for scenario in scenarios {
            let group = runs.filter { $0.scenario == scenario }
            let reference = Double(max(group.first?.metrics.meanRetainedBytes ?? 1, 1))
            // Reload time in device time when every run has it (deterministic), else host time.
            let useDevice = group.allSatisfy { $0.metrics.reloadDeviceTimeNs != nil }
            func reloadTime(_ metrics: RunMetrics) -> UInt64 { useDevice ? metrics.reloadDeviceTimeNs ?? 0 : metrics.reloadTimeNs }
            for run in group {
                let metrics = run.metrics
                let dominated = group.contains { other in
                    let mean = other.metrics.meanRetainedBytes, time = reloadTime(other.metrics)
                    return mean <= metrics.meanRetainedBytes && time <= reloadTime(metrics)
                        && (mean < metrics.meanRetainedBytes || time < reloadTime(metrics))
                }
                rows.append(ComparisonRow(
                    scenario: RunResult.labelled(scenario, memoryScale: run.memoryScale), policy: run.policy.description,
                    termination: run.termination.description, peakBytes: metrics.peakRetainedBytes,
                    meanBytes: metrics.meanRetainedBytes, finalBytes: metrics.finalRetainedBytes, kills: metrics.policyKills,
                    limitKills: metrics.limitKills ?? 0, crashes: metrics.outOfMemoryCrashes,
                    coldLaunches: metrics.coldLaunches, viewReloads: metrics.viewReloads, reloadTimeNs: metrics.reloadTimeNs,
                    viewReloadP50: metrics.viewReloadLatencyNs.p50, viewReloadP99: metrics.viewReloadLatencyNs.p99,
                    reloadDeviceTimeNs: metrics.reloadDeviceTimeNs, viewReloadDeviceP50: metrics.viewReloadDeviceNs?.p50,
                    coldLaunchDeviceP50: metrics.coldLaunchDeviceNs?.p50, coldLaunchP50: metrics.coldLaunchLatencyNs.p50,
                    dataLossBytes: metrics.dataLossBytes, dominated: dominated,
                    meanDeltaPercent: (Double(metrics.meanRetainedBytes) / reference - 1) * 100,
                    growthPerCycleBytes: metrics.growthPerCycleBytes ?? 0))
            }
        }
        return rows
    }

    /// Latencies read "device / host": device time (modelled with the run's profile) first,
    /// host time (measured on this machine) beside it.
    static let header = ["scenario", "policy", "termination", "peak", "mean", "final", "mean vs first", "kills", "limit kills",
                         "crashes", "cold",
                         "view reloads", "reload time device / host", "view reload p50 device / host",
                         "cold launch p50 device / host", "data lost", "growth/cycle", "dominated"]

    /// The machine-readable columns (CSV): exact numbers; device columns empty without a profile.
    static let machineHeader = ["scenario", "policy", "termination", "peak_bytes", "mean_bytes", "final_bytes",
                                "mean_vs_first_percent", "kills", "limit_kills", "out_of_memory_crashes", "cold_launches", "view_reloads", "reload_time_ns",
                                "view_reload_p50_ns", "view_reload_p99_ns", "data_loss_bytes", "dominated",
                                "reload_device_time_ns", "view_reload_device_p50_ns", "cold_launch_device_p50_ns",
                                "cold_launch_p50_ns", "growth_per_cycle_bytes"]

    /// "device / host", or the host figure alone without a device time.
    static func pair(device: UInt64?, host: UInt64, shown: Bool = true) -> String {
        guard shown else { return "-" }
        guard let device else { return Units.duration(host) }
        return "\(Units.duration(device)) / \(Units.duration(host))"
    }

    static func cells(_ row: ComparisonRow, machine: Bool) -> [String] {
        if machine {
            return [row.scenario, row.policy, row.termination, String(row.peakBytes), String(row.meanBytes),
                    String(row.finalBytes), String(format: "%.2f", row.meanDeltaPercent), String(row.kills),
                    String(row.limitKills), String(row.crashes), String(row.coldLaunches), String(row.viewReloads), String(row.reloadTimeNs), String(row.viewReloadP50),
                    String(row.viewReloadP99), String(row.dataLossBytes), row.dominated ? "yes" : "no",
                    row.reloadDeviceTimeNs.map(String.init) ?? "", row.viewReloadDeviceP50.map(String.init) ?? "",
                    row.coldLaunchDeviceP50.map(String.init) ?? "", String(row.coldLaunchP50), String(row.growthPerCycleBytes)]
        }
        return [row.scenario, row.policy, row.termination, Units.mebibytes(row.peakBytes), Units.mebibytes(row.meanBytes),
                Units.mebibytes(row.finalBytes), String(format: "%+.1f%%", row.meanDeltaPercent), String(row.kills),
                String(row.limitKills), String(row.crashes), String(row.coldLaunches), String(row.viewReloads), pair(device: row.reloadDeviceTimeNs, host: row.reloadTimeNs),
                pair(device: row.viewReloadDeviceP50, host: row.viewReloadP50, shown: row.viewReloads > 0),
                pair(device: row.coldLaunchDeviceP50, host: row.coldLaunchP50, shown: row.coldLaunches > 0),
                "\(row.dataLossBytes) B", "\(row.growthPerCycleBytes) B", row.dominated ? "yes" : ""]
    }

    /// A plain-text table: by default the columns that decide (deaths in three: `kills` by the
    /// termination policy, `limit` by the system's own limits, `oom` crashes of the app in
    /// front), in at most
    /// ``narrowTableColumns`` characters a line (a terminal's, or a pipe's); `wide`, every
    /// column.
    public static func table(_ rows: [ComparisonRow], wide: Bool = false) -> String {
        guard !wide else {
            return TextTable.render(header: header, rows: rows.map { cells($0, machine: false) }, firstNumericColumn: 3) + "\n"
        }
        // Reload time in device time when every row has it (modelled, deterministic), else host time.
        let device = !rows.isEmpty && rows.allSatisfy { $0.reloadDeviceTimeNs != nil }
        let narrowHeader = ["scenario", "policy", "mean", "peak", "kills", "limit", "oom", "cold", device ? "reload device" : "reload host", "dominated"]
        let narrowCells = rows.map { row in
            [shortened(row.scenario, to: 22), shortened(row.policy, to: 18), Units.mebibytes(row.meanBytes),
             Units.mebibytes(row.peakBytes), String(row.kills), String(row.limitKills), String(row.crashes),
             String(row.coldLaunches),
             Units.duration(device ? row.reloadDeviceTimeNs ?? 0 : row.reloadTimeNs), row.dominated ? "yes" : ""]
        }
        return TextTable.render(header: narrowHeader, rows: narrowCells, firstNumericColumn: 2) + "\n"
    }

    /// The widest line of the default table, in characters (an ordinary terminal's 120).
    public static let narrowTableColumns = 120

    /// `text`, cut to `count` characters with an ellipsis when longer; a scenario's scale
    /// (`NAME (memory_scale 8)`, ``RunResult/labelled(_:memoryScale:)``) is kept whole and the
    /// name cut.
    static func shortened(_ text: String, to count: Int) -> String {
        guard text.count > count else { return text }
        if let scale = text.range(of: " (memory_scale ", options: .backwards), text[scale.lowerBound...].count < count - 1 {
            let suffix = text[scale.lowerBound...]
            return String(text[..<scale.lowerBound].prefix(count - 1 - suffix.count)) + "…" + suffix
        }
        return String(text.prefix(count - 1)) + "…"
    }

    /// RFC 4180 CSV with exact numbers (bytes, nanoseconds).
    public static func csv(_ rows: [ComparisonRow]) -> String {
        func field(_ text: String) -> String {
            text.contains(",") || text.contains("\"") ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }
        return ([machineHeader.joined(separator: ",")] + rows.map { cells($0, machine: true).map(field).joined(separator: ",") })
            .joined(separator: "\n") + "\n"
    }

    /// A GitHub-flavoured Markdown table; dominated policies are struck through.
    public static func markdown(_ rows: [ComparisonRow]) -> String {
        var lines = ["| " + header.joined(separator: " | ") + " |",
                     "|" + header.indices.map { $0 < 3 ? "---" : "---:" }.joined(separator: "|") + "|"]
        for row in rows {
            var cells = cells(row, machine: false)
            if row.dominated { cells[1] = "~~\(cells[1])~~" }
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The results file as JSON.
    public static func json(_ file: ResultsFile) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(file), as: UTF8.self) + "\n"
    }
}

/// Human units.
public enum Units {
    /// Bytes in MiB with two decimals: `63.91 MiB`.
    public static func mebibytes(_ bytes: Int) -> String { String(format: "%.2f MiB", Double(bytes) / 1_048_576) }

    /// Nanoseconds for people: `114.23 ms`, `2.10 s`.
    public static func duration(_ nanoseconds: UInt64) -> String {
        if nanoseconds < 10_000 { return "\(nanoseconds) ns" }
        if nanoseconds < 10_000_000 { return String(format: "%.1f us", Double(nanoseconds) / 1000) }
        return String(format: "%.2f ms", Double(nanoseconds) / 1_000_000)
    }
}
