import ArgumentParser
import PressureLab
import PressureLabHarness
import PressureLabHeap

/// Compares termination policies on Fleet's app-switching workload.
struct DeviceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Compare termination policies on a Fleet-style app-switching run: cached apps, kills, launches (device time first, host time beside it)."
    )

    @Option(name: .long, help: "Device profile for device time: a bundled name or a file (default: \(ProfileLibrary.defaultName)).")
    var profile: String?

    @Option(name: .long, help: "Apps launched in sequence.")
    var apps = 20

    @Option(name: .long, help: "How many apps' worth of memory the budget holds.")
    var fit = 8.0

    @Option(name: .long, help: "Times the sequence is revisited in least recently used order.")
    var revisits = 2

    func validate() throws {
        guard apps >= 2 else { throw ValidationError("--apps must be 2 or more (got \(apps))") }
        guard fit >= 1 else { throw ValidationError("--fit must be 1 or more (got \(fit))") }
        guard revisits >= 0 else { throw ValidationError("--revisits must be 0 or more (got \(revisits))") }
    }

    func run() throws {
        Heap.requireJemalloc()
        let deviceProfile = try loadProfile(profile)
        let comparison = DeviceComparison(appCount: apps, appsThatFit: fit, revisits: revisits, profile: deviceProfile)
        let progress = Progress(enabled: Progress.isTerminal)
        var rows: [DeviceComparison.Row] = []
        // Without compression (Android without swap), with the profile's in-RAM compressor
        // (iOS's compressor, Android's zram), and the freezer.
        let compressor = deviceProfile.compressor == .none ? Compressor.lz4 : deviceProfile.compressor
        for (name, codec) in [("jetsam", Compressor.none), ("jetsam", compressor), ("lmk", .none), ("lmk", compressor),
                              ("largest-first", .none), ("freeze", .none)] {
            rows.append(try comparison.run(policy: name, compressor: codec) { progress.show($0) })
        }
        progress.clear()
        let perApp = try DeviceComparison.measureOneApp()
        try StandardOutput.print("\(apps) apps of \(Units.mebibytes(perApp)) each (measured) launched in sequence, then revisited "
            + "\(revisits)x in LRU order; budget \(Units.mebibytes(Int(Double(perApp) * fit))) (\(fit) apps).")
        try StandardOutput.print("Device time: modelled, the work counted times the costs of \(deviceProfile.name) "
            + "(\(deviceProfile.path)). Host time: measured, this machine doing the simulator's work.\n")
        try StandardOutput.print(TextTable.render(
            header: ["policy", "cached apps mean/max", "kills", "compressed", "ratio", "freezes", "cold", "resume", "thaw", "OOM",
                     "data lost", "cold p50 device / host", "resume p50 device / host", "thaw p50 device / host"],
            rows: rows.map { row in
                [row.policy, "\(format2(row.cachedAppsMean))/\(row.cachedAppsMax)", String(row.kills), String(row.compressions),
                 row.compressions > 0 ? format2(row.compressionRatio) : "-", String(row.freezes),
                 String(row.coldLaunches), String(row.resumes), String(row.thaws), String(row.outOfMemoryCrashes),
                 "\(row.dataLossBytes) B", Self.pair(row, .cold), Self.pair(row, .resume), Self.pair(row, .thaw)]
            }))
    }

    /// "device p50 / host p50" of one launch kind, or "-" when there was none.
    static func pair(_ row: DeviceComparison.Row, _ kind: LaunchKind) -> String {
        guard let host = row.launches[kind], host.count > 0 else { return "-" }
        let device = row.deviceLaunches[kind].map { Units.duration($0.p50) } ?? "-"
        return "\(device) / \(Units.duration(host.p50))"
    }

    static func three(_ summary: ReloadStatistics.Summary?) -> String {
        guard let summary, summary.count > 0 else { return "-" }
        return [summary.p50, summary.p90, summary.p99].map { Units.duration($0) }.joined(separator: "/")
    }

    static func two(_ summary: ReloadStatistics.Summary?) -> String {
        guard let summary, summary.count > 0 else { return "-" }
        return [summary.p50, summary.p99].map { Units.duration($0) }.joined(separator: "/")
    }
}

func format2(_ value: Double) -> String { String(format: "%.2f", value) }

/// Loads a device profile (bundled name, file, or the default); prints its problems and
/// exits 65 when it is invalid.
func loadProfile(_ nameOrPath: String?) throws -> DeviceProfile {
    do {
        return try ProfileLibrary.load(nameOrPath)
    } catch {
        StandardError.write(error.description + "\n")
        throw ExitCodes.invalidScenario
    }
}
