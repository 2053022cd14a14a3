import ArgumentParser
import PressureLab
import PressureLabHarness
import PressureLabHeap

/// Termination policies, with and without in-RAM compression, on Fleet's workload at real
/// sizes (`scenarios/experiments/fleet-18.yaml`).
struct DeviceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Compare lmk without compression, lmk with the profile's compressor (zram) and the freezer on Fleet's "
            + "workload at real sizes: cached apps, kills, launches (device time first, host time beside it)."
    )

    @Option(name: .long, help: "Device profile: a bundled name or a file (default: the scenario's, else \(ProfileLibrary.defaultName)).")
    var profile: ProfileReference?

    @Option(name: .long, help: "The workload (default: the bundled experiments/fleet-18 scenario).")
    var scenario: String?

    func run() throws {
        Heap.requireJemalloc()
        let library = ScenarioLibrary.locate()
        let path = scenario ?? library.map { "\($0.directory)/experiments/fleet-18.yaml" } ?? "scenarios/experiments/fleet-18.yaml"
        let workload = try loadScenarios([path], library: library)[0]
        let deviceProfile = try loadProfile(profile ?? workload.device.profile.map(ProfileReference.init))
        let compressor = deviceProfile.compressor == .none ? Compressor.lz4 : deviceProfile.compressor
        let configurations: [(label: String, termination: TerminationKind, compressor: Compressor)] = [
            ("lmk", .lmk, .none), ("lmk + \(compressor.rawValue) (zram)", .lmk, compressor), ("freeze", .freeze, .none),
        ]
        let progress = Progress(enabled: Progress.isTerminal)
        var rows: [[String]] = []
        for configuration in configurations {
            progress.show(configuration.label)
            let run = try ScenarioRunner().run(workload, policy: .ios6, termination: configuration.termination,
                                               profile: deviceProfile, compressor: configuration.compressor,
                                               progress: { done, total in
                progress.show("\(configuration.label): step \(done)/\(total)")
            })
            let metrics = run.metrics
            rows.append([configuration.label, "\(format2(metrics.cachedAppsMean))/\(metrics.cachedAppsMax ?? 0)",
                         String(metrics.kills), String(metrics.appsCompressed ?? 0),
                         (metrics.compressions ?? 0) > 0 ? format2(metrics.compressionRatio ?? 0) : "-",
                         String(metrics.freezes), Units.mebibytes(metrics.peakRetainedBytes),
                         Self.pair(metrics.coldLaunchDeviceNs, metrics.coldLaunchLatencyNs),
                         Self.pair(metrics.resumeDeviceNs, metrics.resumeLatencyNs),
                         Self.pair(metrics.thawDeviceNs, metrics.thawLatencyNs)])
        }
        progress.clear()
        try StandardOutput.print("\(workload.name): \(workload.description)")
        try StandardOutput.print("Budget \(Units.mebibytes(workload.device.memoryBytes)); device time modelled with "
            + "\(deviceProfile.name) (\(deviceProfile.path)); host time measured here. Launches: count, p50 device / host.\n")
        try StandardOutput.print(TextTable.render(
            header: ["configuration", "cached apps mean/max", "kills", "apps compressed", "ratio", "freezes", "peak",
                     "cold", "resume (hot)", "thaw"],
            rows: rows))
        for configuration in configurations {
            if let note = configuration.termination.whatIfNote(on: deviceProfile.release) {
                try StandardOutput.print("note: \(note)")
            }
        }
    }

    /// "count: device p50 / host p50" of one launch kind, or "-" when there was none.
    static func pair(_ device: LatencySummary?, _ host: LatencySummary) -> String {
        guard host.count > 0 else { return "-" }
        return "\(host.count): \(device.map { Units.duration($0.p50) } ?? "-") / \(Units.duration(host.p50))"
    }
}

func format2(_ value: Double) -> String { String(format: "%.2f", value) }

/// Loads a device profile (bundled name, file, or the default); prints its problems and
/// exits 65 when it is invalid.
func loadProfile(_ reference: ProfileReference?) throws -> DeviceProfile {
    do {
        return try ProfileLibrary.load(reference)
    } catch {
        StandardError.write(error.description + "\n")
        throw ExitCodes.invalidScenario
    }
}
