import ArgumentParser
import Foundation
import PressureLab
import PressureLabHarness
import PressureLabHeap

/// What the device experiment reads: the workloads, the profile, the published figures and
/// the extra configurations (`device` and `device-worker` read them alike).
struct DeviceInputOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The published experiment: "
        + BundledExperiment.allCases.map { "\($0.rawValue) (\($0.summary))" }.joined(separator: "; ") + ".",
        valueName: "name"))
    var experiment: BundledExperiment = .fleet

    @Option(name: .long, help: "Device profile: a bundled name or a file (default: the scenario's, else \(ProfileLibrary.defaultName)).")
    var profile: ProfileReference?

    @Option(name: .long, help: "The workload (default: the experiment's bundled scenario, experiments/fleet-18.yaml for fleet).")
    var scenario: String?

    @Option(name: .long, help: "The hot-launch workload (default: the experiment's, fleet-hot-launch.yaml beside the workload for fleet, if there; else the workload).")
    var hotLaunchScenario: String?

    @Option(name: .long, help: "The published figures (default: the experiment's, fleet-published.json beside the workload for fleet, if there).")
    var published: String?

    @Option(name: .long, help: "Also run the workload under this termination policy, built in or registered by this program (repeatable): a configuration named after it for each memory --compressor and --swap-file ask for (without: no compression, no swap; docs/device-experiments.md). A policy of your own runs from your own executable, PressureLab's command line with it registered (docs/extending.md).")
    var termination: [Termination] = []

    @Option(name: .long, help: ArgumentHelp("The memory each --termination policy runs with (repeatable): none (no compression, no swap; the default), lz4 or zstd (zram compressing the apps' memory with that codec, as stock-lmkd-zram has it). One configuration each: NAME for none, NAME-zram-lz4, NAME-zram-zstd.", valueName: "compressor"))
    var compressor: [Compressor] = []

    @Flag(name: .long, help: "Also run each --termination policy with the experiment's swap file on flash (2 GiB, as android-swap and fleet have it): a configuration NAME-swap.")
    var swapFile = false

    @Option(name: .long, help: ArgumentHelp("Run only this configuration (repeatable): a built-in one (android-no-swap, android-swap, fleet, freezer, stock-lmkd, stock-lmkd-zram for fleet) or one of --termination's.", valueName: "name"))
    var only: [String] = []

    /// The workload's path as given, else the bundled one's.
    var workloadPath: String {
        scenario ?? ScenarioLibrary.locate().map { "\($0.directory)/experiments/\(experiment.workloadFile)" }
            ?? "scenarios/experiments/\(experiment.workloadFile)"
    }

    /// Reads everything; invalid files print their problems and exit 65.
    func load() throws -> DeviceInputs {
        let library = ScenarioLibrary.locate()
        let path = workloadPath
        let workload = try loadScenarios([path], library: library)[0]
        let deviceProfile = try loadProfile(profile ?? workload.device.profile.map(ProfileReference.init))
        let folder = (path as NSString).deletingLastPathComponent
        let hotPath = hotLaunchScenario ?? experiment.hotLaunchFile.map { folder + "/" + $0 }
        let hotWorkload = try hotPath.flatMap { hotPath in
            hotLaunchScenario != nil || FileManager.default.fileExists(atPath: hotPath)
                ? try loadScenarios([hotPath], library: library)[0] : nil
        }
        let publishedPath = published ?? folder + "/" + experiment.publishedFile
        var publishedFigures: PublishedExperiment?
        if published != nil || FileManager.default.fileExists(atPath: publishedPath) {
            do {
                publishedFigures = try PublishedExperiment.read(from: publishedPath)
            } catch {
                StandardError.write("pressurelab: \(error)\n")
                throw ExitCodes.invalidScenario
            }
        }
        let compressor = deviceProfile.compressor == .none ? Compressor.lz4 : deviceProfile.compressor
        var configurations = experiment.configurations(compressor: compressor) + extraConfigurations
        if !only.isEmpty {
            let names = configurations.map(\.name)
            if let unknown = only.first(where: { !names.contains($0) }) {
                StandardError.write("pressurelab: --only \(unknown): no configuration of that name; configurations: "
                    + names.joined(separator: ", ") + "\n")
                throw ExitCodes.badUsage
            }
            configurations = configurations.filter { only.contains($0.name) }
        }
        return DeviceInputs(workload: workload, hotWorkload: hotWorkload, profile: deviceProfile, published: publishedFigures,
                            configurations: configurations)
    }
}

extension DeviceInputOptions {
    /// The configurations of `--termination`'s policies: each under every memory `--compressor`
    /// names (none when not given) and, with `--swap-file`, with the experiment's swap file.
    /// Fleet's experiment published Android's own figures without swap and with the swap file:
    /// a policy run with the same memory is set beside them (docs/device-experiments.md).
    var extraConfigurations: [DeviceExperiment.Configuration] {
        let fleet = experiment == .fleet
        var configurations: [DeviceExperiment.Configuration] = []
        for policy in termination {
            for memory in compressor.isEmpty ? [Compressor.none] : compressor {
                if memory == .none {
                    configurations.append(DeviceExperiment.Configuration(
                        name: policy.name, termination: policy, compressor: .none,
                        publishedAlive: fleet ? "android-no-swap" : nil, publishedHotLaunch: fleet ? "android" : nil,
                        note: "\(policy.name) without swap or compression"
                            + (fleet ? ", beside android-no-swap's published figures (Android's own policy, the same memory)"
                                : ": nothing published")))
                } else {
                    configurations.append(DeviceExperiment.Configuration(
                        name: "\(policy.name)-zram-\(memory.rawValue)", termination: policy, compressor: memory,
                        note: "\(policy.name) with \(memory.rawValue) zram, no swap file: nothing published"))
                }
            }
            if swapFile {
                configurations.append(DeviceExperiment.Configuration(
                    name: "\(policy.name)-swap", termination: policy, compressor: .none,
                    publishedAlive: fleet ? "android-swap" : nil, publishedHotLaunch: fleet ? "android" : nil,
                    note: "\(policy.name) with a \(Units.mebibytes(DeviceExperiment.fleetSwapFileBytes)) swap file on flash"
                        + (fleet ? ", beside android-swap's published figures (Android's own policy, the same memory)" : ": nothing published"),
                    swapFileBytes: DeviceExperiment.fleetSwapFileBytes))
            }
        }
        return configurations
    }
}

/// The device experiment, read: what each configuration runs.
struct DeviceInputs {
    var workload: Scenario
    var hotWorkload: Scenario?
    var profile: DeviceProfile
    var published: PublishedExperiment?
    var configurations: [DeviceExperiment.Configuration]

    /// Runs one configuration in this process.
    func run(_ configuration: DeviceExperiment.Configuration, progress: ((Int, Int) -> Void)? = nil) throws -> DeviceExperiment.Outcome {
        try DeviceExperiment.run(workload, hotLaunchWorkload: hotWorkload, configuration: configuration, profile: profile,
                                 published: published, progress: progress)
    }

    /// Configurations at once by default: the cores this process may use, bounded by the
    /// host's memory, each configuration taking at most the device's budget, its apps' clean
    /// mapped files and ``overheadBytes``.
    var defaultJobs: Int {
        let fits = HostMemory.current().safeLimit() / max(1, memoryBoundBytes)
        return max(1, min(HostCPU.availableCores(), fits, configurations.count))
    }

    /// The bound a configuration's peak resident memory stays within (docs/limits.md).
    var memoryBoundBytes: Int {
        workload.device.memoryBytes.addingSaturating(workload.declaredCleanFileBytes).addingSaturating(Self.overheadBytes)
    }

    /// The bound, in words, and whether `peakBytes` (one configuration's process) kept within it.
    func memoryBound(peakBytes: Int) -> String {
        let verdict = peakBytes <= memoryBoundBytes ? "within it"
            : "over it by \(Units.mebibytes(peakBytes - memoryBoundBytes)) (docs/limits.md, \"The device experiment's memory and time\")"
        return "bound a configuration: the budget \(Units.mebibytes(workload.device.memoryBytes)) + the apps' clean files "
            + "\(Units.mebibytes(workload.declaredCleanFileBytes)) + \(Units.mebibytes(Self.overheadBytes)) overhead "
            + "= \(Units.mebibytes(memoryBoundBytes)), \(verdict)"
    }

    /// What a configuration's process holds beyond the modelled device's memory and its clean
    /// mapped files: the runtime, the allocator's spare pages, the codecs' buffers, the
    /// results (docs/limits.md, "The device experiment's memory").
    static let overheadBytes = 768 << 20
}
