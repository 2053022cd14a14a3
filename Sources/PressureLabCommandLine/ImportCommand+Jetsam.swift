import ArgumentParser
import Foundation
import PressureLabHarness
import PressureLab
import PressureLabImport

/// `pressurelab import jetsam REPORT`: the device's moment from a jetsam event report, and
/// what the model does from it (docs/importing.md, "Jetsam event reports").
extension ImportCommand {
    /// Imports one report: the scenario to `--output` (or standard output); on standard error,
    /// the report's processes and kills beside the model's. A file that is not a report is an
    /// error at its line, exit 65, nothing written.
    func importJetsam() throws {
        let unsupported = [("--app", app), ("--screen", screen), ("--process", process), ("--memory", memory), ("--merge", merge)]
            .filter { $0.1 != nil }.map(\.0) + (scale != nil ? ["--scale"] : []) + (background != nil ? ["--background"] : [])
            + (memoryScale != nil ? ["--memory-scale"] : [])
        guard unsupported.isEmpty else {
            StandardError.write("pressurelab: import jetsam takes a report and --output, --profile; not "
                + "\(unsupported.joined(separator: ", ")) (the report gives the device, its apps and the scale)\n")
            throw ExitCodes.badUsage
        }
        guard files.count == 1 else {
            StandardError.write("pressurelab: import jetsam reads one report, found \(files.count) files\n")
            throw ExitCodes.badUsage
        }
        let imported: JetsamImporter.Imported
        do throws(ImportError) {
            imported = try JetsamImporter.importScenario(try DumpText.read(files[0]), profile: profile)
            _ = try Importers.check(imported.yaml, source: files[0], destination: output)
        } catch {
            StandardError.write("pressurelab: \(error)\n")
            throw error.isUsage ? ExitCodes.badUsage : ExitCodes.invalidScenario
        }
        let ends: [String: String]
        do {
            ends = try Self.modelKills(imported)
        } catch {
            StandardError.write("pressurelab: \(files[0]): the imported scenario did not run: \(error)\n")
            throw ExitCodes.runFailed
        }
        if let output {
            let batch = OutputBatch()
            batch.add(imported.yaml, to: output, as: "the scenario")
            try OutputOptions.commit(batch) {}
        } else {
            try StandardOutput.print(imported.yaml, terminator: "")
        }
        for line in JetsamImporter.summary(imported, modelEnds: ends) { StandardError.write("pressurelab: \(line)\n") }
    }

    /// What the model did from the report's moment: the scenario run as `run` runs it (its
    /// profile, under jetsam with the iOS 6 cleanup), each app's end (killed, and why, or alive) by name. (The importer never
    /// runs a simulation: docs/architecture.md.)
    static func modelKills(_ imported: JetsamImporter.Imported, loader: ScenarioLoader = ScenarioLoader()) throws -> [String: String] {
        let scenario = try loader.parse(imported.yaml, path: "the imported scenario")
        // The engine `run` uses (RunPlan: the scenario's profile, its compressor), so that the
        // summary says what `pressurelab run` of the scenario shows.
        let result = try RunPlan(scenarios: [scenario], policies: [.ios6], termination: .jetsam).execute().runs[0]
        // A kill stands unless a later step launches the app again (a launch killed as it
        // starts, an out-of-memory crash, has its launch mark after the kill, in its step).
        var ends: [String: (step: Int, text: String)] = [:]
        for entry in result.timeline {
            for mark in entry.marks ?? [] {
                switch mark {
                case .kill(let app, let reason): ends[app] = (entry.step, "killed at step \(entry.step) (\(reason.rawValue))")
                case .coldLaunch(let app?): if let end = ends[app], end.step < entry.step { ends[app] = nil }
                default: break
                }
            }
        }
        return ends.mapValues(\.text)
    }
}
