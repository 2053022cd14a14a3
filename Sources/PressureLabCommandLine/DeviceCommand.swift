import ArgumentParser
import Foundation
import SystemPackage
import PressureLab
import PressureLabHarness
import PressureLabHeap

/// A published experiment at real sizes, its configurations beside the phone's figures: Fleet's
/// caching experiment by default (`scenarios/experiments/fleet-18.yaml`), or another bundled one
/// (`--experiment`, ``BundledExperiment``). The configurations are independent runs:
/// with `--jobs` above 1 each runs in a worker process of its own (`device-worker`), as a
/// sweep's cells do, with the same figures.
struct DeviceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "A published phone experiment beside its figures: Fleet's caching experiment (the default; "
            + "apps alive after each launch, hot launches) or the Pixel 4's background memory (--experiment pixel4)."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, json, html }

    @OptionGroup var inputs: DeviceInputOptions

    @Option(name: .long, help: "Output format: table, json (the experiment's figures with the published ones), or html (both alive curves on a chart per configuration, hot launches with their errors).")
    var format: Format = .table

    @Option(name: .long, help: "Write the output to this file instead of standard output.")
    var output: String?

    @Option(name: .long, help: "Configurations run at once, each in a worker process of its own (default: the cores this process may use, as many as the host's memory holds; 1: every configuration in this process).")
    var jobs: Int?

    mutating func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more (got \(jobs))") }
    }

    func run() throws {
        try requireJemalloc()
        let experiment = try inputs.load()
        let jobs = self.jobs ?? experiment.defaultJobs
        let progress = Progress(enabled: Progress.isTerminal)
        let outcomes: [DeviceExperiment.Outcome]
        if jobs <= 1 || experiment.configurations.count <= 1 {
            var ran: [DeviceExperiment.Outcome] = []
            for configuration in experiment.configurations {
                progress.show(configuration.name)
                ran.append(try experiment.run(configuration) { done, total in
                    progress.show("\(configuration.name): step \(done)/\(total)")
                })
                // What the configuration freed goes back to the system before the next one
                // runs: one configuration's memory at a time (docs/limits.md).
                try? Heap.purge()
            }
            outcomes = ran
            progress.clear()
            let peak = SweepCommand.peakResidentBytes(children: false)
            StandardError.write("device: \(ran.count) configurations in this process; peak resident "
                + "\(Units.mebibytes(peak)); \(experiment.memoryBound(peakBytes: peak))\n")
        } else {
            outcomes = try DeviceWorkers.run(experiment, inputs: inputs, jobs: jobs, progress: progress)
            progress.clear()
            let largestWorker = SweepCommand.peakResidentBytes(children: true)
            StandardError.write("device: \(outcomes.count) configurations, \(jobs) at a time in worker processes; peak resident: "
                + "this process \(Units.mebibytes(SweepCommand.peakResidentBytes(children: false))), the largest worker "
                + "\(Units.mebibytes(largestWorker)); \(experiment.memoryBound(peakBytes: largestWorker))\n")
        }
        progress.clear()
        let text: String
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = try encoder.encode(DeviceExperiment.Report(experiment: experiment.workload.name, configurations: outcomes))
            text = String(decoding: data, as: UTF8.self) + "\n"
        case .html:
            let source = experiment.published.map { "\($0.published); \($0.source.repository) at \($0.source.commit)" }
            text = DeviceExperimentReport.html(experiment: experiment.workload.name, source: source,
                                               configurations: outcomes.map(DeviceExperimentReport.Configuration.init))
        case .table:
            text = Self.table(workload: experiment.workload, profile: experiment.profile, configurations: experiment.configurations,
                              outcomes: outcomes, published: experiment.published)
        }
        if let output {
            do {
                try HostFiles.writeAtomically(FilePath(output), contents: Array(text.utf8))
            } catch {
                StandardError.write("pressurelab: \(error)\n")
                throw ExitCodes.runFailed
            }
        } else {
            try StandardOutput.print(text, terminator: "")
        }
    }

    /// The experiment's table: per configuration, the apps alive after each launch (mean and
    /// maximum) and the hot launches' median p50 over apps, each beside its published figure
    /// with the relative error; then the hot launches app by app.
    static func table(workload: Scenario, profile: DeviceProfile, configurations: [DeviceExperiment.Configuration],
                      outcomes: [DeviceExperiment.Outcome], published: PublishedExperiment?) -> String {
        var lines = ["\(workload.name): \(workload.description)",
                     "Budget \(Units.mebibytes(workload.device.memoryBytes)); device time modelled with \(profile.name) "
                        + "(\(profile.path)); host time measured here."]
        if let published {
            lines.append("Published: \(published.source.repository) @ \(published.source.commit.prefix(8)) (\(published.apps.count) apps).")
        }
        lines.append("")
        var rows: [[String]] = []
        for outcome in outcomes {
            let publishedAlive = outcome.published?.aliveAfterLaunch
            let publishedHot = outcome.published?.hotLaunchMs ?? [:]
            let modelledHot = outcome.hotLaunchDeviceNs.values.map { Double($0.p50) / 1e6 }
            let publishedMedians = publishedHot.values.compactMap { PublishedComparison.median($0) }
            rows.append([outcome.name,
                         Self.beside(outcome.aliveMean, publishedAlive.flatMap(PublishedComparison.mean)),
                         Self.beside(Double(outcome.aliveMax), publishedAlive.flatMap { $0.max() }.map(Double.init)),
                         Self.kills(outcome), String(outcome.freezes), String(outcome.coldLaunches),
                         "\(outcome.hotLaunchDeviceNs.values.reduce(0) { $0 + $1.count })",
                         Self.beside(PublishedComparison.median(modelledHot), PublishedComparison.median(publishedMedians), unit: " ms")])
        }
        lines.append(TextTable.render(header: ["configuration", "alive after launch, mean (published, error)",
                                               "max (published, error)", "kills (by cause)", "freezes", "cold", "hot launches",
                                               "hot launch p50, median over apps (published, error)"], rows: rows))
        for configuration in configurations {
            lines.append("\(configuration.name): \(configuration.note)")
            // A note names what it is about: the workload and the configuration.
            if let note = configuration.termination.whatIfNote(on: profile.release) {
                lines.append("note: \(workload.name), \(configuration.name): \(note)")
            }
        }
        for outcome in outcomes where outcome.swapActivity != DeviceExperiment.SwapActivity() {
            let activity = outcome.swapActivity
            lines.append("\(outcome.name): \(activity.backgroundCollections) collections in the background, "
                + "\(activity.collectionPageIns) of them reading \(Units.mebibytes(activity.collectionPageInBytes)) back from swap; "
                + "\(Units.mebibytes(activity.swappedOutBytes)) swapped out"
                + (activity.swapFileBytes > 0 ? ", the swap file holding at most \(Units.mebibytes(activity.swapPeakBytes)) "
                    + "of its \(Units.mebibytes(activity.swapFileBytes))" : ""))
        }
        for outcome in outcomes {
            guard let reclaim = outcome.kernelReclaim else { continue }
            lines.append("\(outcome.name): kswapd woke \(reclaim.kswapdWakeups) times and reclaimed "
                + "\(Units.mebibytes(reclaim.kswapdReclaimedBytes)); \(reclaim.directReclaimStalls) allocations reclaimed directly, "
                + "\(Units.mebibytes(reclaim.directReclaimedBytes)); \(Units.mebibytes(reclaim.fileEvictedBytes)) of file pages evicted, "
                + "\(Units.mebibytes(reclaim.workingsetRefaultBytes)) read again (\(Units.mebibytes(reclaim.systemRefaultBytes)) the system's)")
        }
        let apps = published?.apps ?? workload.apps.map(\.name)
        var appRows: [[String]] = []
        for app in apps {
            var row = [app]
            for outcome in outcomes {
                let modelled = outcome.hotLaunchDeviceNs[app].map { Double($0.p50) / 1e6 }
                let publishedMedian = outcome.published?.hotLaunchMs?[app].flatMap(PublishedComparison.median)
                row.append(Self.beside(modelled, publishedMedian, unit: " ms"))
            }
            appRows.append(row)
        }
        lines.append("")
        lines.append("Hot launches, p50 by app (device time; published: the median of the samples, WaitTime of am start -W):")
        lines.append(TextTable.render(header: ["app"] + outcomes.map(\.name), rows: appRows))
        lines.append("")
        if outcomes.contains(where: { $0.published?.backgroundKB != nil }) {
            lines += Self.backgroundBesidePublished(apps: apps, outcomes: outcomes, published: published)
            return lines.joined(separator: "\n") + "\n"
        }
        var memoryRows: [[String]] = []
        for app in apps {
            var row = [app]
            for outcome in outcomes { row.append(outcome.backgroundMeanBytes[app].map { Units.mebibytes($0) } ?? "-") }
            row.append(MeasuredBackgroundMemory.byApp[app].map {
                "\(Units.mebibytes($0.meanKB * 1024)) (\(Units.mebibytes($0.minKB * 1024)) to \(Units.mebibytes($0.maxKB * 1024)))"
            } ?? "-")
            memoryRows.append(row)
        }
        lines.append("Memory an app holds in the background, mean over the alive-after-launch workload's steps (measured here: "
            + "its processes' memory, swapped or compressed memory at its own size, its resident clean pages, as PSS + swap "
            + "counts them); beside it a phone's "
            + "(\(MeasuredBackgroundMemory.source), PSS + swap, mean and range):")
        lines.append(TextTable.render(header: ["app"] + outcomes.map(\.name) + ["Pixel 4 (measured there)"], rows: memoryRows))
        return lines.joined(separator: "\n") + "\n"
    }

    /// Each app's background memory beside the phone's own figure for the same configuration
    /// (an experiment whose published file measures it, as `pixel4`'s does).
    static func backgroundBesidePublished(apps: [String], outcomes: [DeviceExperiment.Outcome],
                                          published: PublishedExperiment?) -> [String] {
        var rows: [[String]] = []
        for app in apps {
            var row = [app]
            for outcome in outcomes {
                let modelled = outcome.backgroundMeanBytes[app].map { Double($0) / 1_048_576 }
                let measured = outcome.published?.backgroundKB?[app].map { $0 * 1024 / 1_048_576 }
                row.append(Self.beside(modelled, measured, unit: " MiB"))
            }
            rows.append(row)
        }
        let source = published.map { "\($0.source.repository) @ \($0.source.commit.prefix(8))" } ?? "the published file"
        return ["Memory an app holds in the background, mean over the workload's steps (measured here: its processes' memory, "
                + "swapped or compressed memory at its own size, its resident clean pages, as PSS + swap counts them), "
                + "beside the phone's in the same configuration (\(source), PSS + swap, mean, MiB):",
                TextTable.render(header: ["app"] + outcomes.map(\.name), rows: rows)]
    }

    /// "19 (too-many-cached 19; main 19)": the kills, their causes (most frequent first) and the
    /// kinds of process they took.
    static func kills(_ outcome: DeviceExperiment.Outcome) -> String {
        let causes = outcome.killsByReason.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
        guard !causes.isEmpty else { return String(outcome.kills) }
        let kinds = ["main", "secondary"].compactMap { kind in outcome.killsByProcess[kind].map { "\(kind) \($0)" } }
        return "\(outcome.kills) (" + causes.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + "; "
            + kinds.joined(separator: ", ") + ")"
    }

    /// "modelled (published, +x%)", "modelled", or "-" when nothing was modelled.
    static func beside(_ modelled: Double?, _ published: Double?, unit: String = "") -> String {
        guard let modelled else { return published.map { "- (\(format2($0))\(unit))" } ?? "-" }
        guard let published else { return "\(format2(modelled))\(unit)" }
        let error = PublishedComparison.relativeError(modelled, published).map { String(format: "%+.0f%%", $0 * 100) } ?? "-"
        return "\(format2(modelled))\(unit) (\(format2(published)), \(error))"
    }
}
