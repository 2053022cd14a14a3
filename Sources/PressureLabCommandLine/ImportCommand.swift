import ArgumentParser
import Foundation
import PressureLabHarness
import PressureLabImport
import PressureLabHeap

extension ImportFormat: ExpressibleByArgument {}

/// `pressurelab import FORMAT FILE... [--app NAME] [--screen NAME] [--process NAME] [--scale S]
/// [--background K] [--profile P] [--output FILE.yaml] [--merge SCENARIO.yaml]`
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn a memory or view dump into a scenario, each figure with its origin (docs/importing.md).",
        discussion: "Formats: " + ImportFormat.allCases.map { "\($0.rawValue) (\($0.summary))" }.joined(separator: "; ")
            + ". A dump that is not the format, or is truncated, is an error at its line (exit 65); nothing is written.")

    @Argument(help: "The format: \(ImportFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: ImportFormat

    @Argument(help: "The dump files.")
    var files: [String]

    @Option(name: .long, help: "The app's name (default: from the dump's process or package, e.g. com.twitter.android -> twitter-android).")
    var app: String?

    @Option(name: .long, help: "The screen's name (default: main).")
    var screen: String?

    @Option(name: .long, help: "The process to import from a dump of several (a name or a pid).")
    var process: String?

    @Option(name: .long, help: "The display scale for frames in points (views; default: the profile's display.scale, 3 for iphone-xs-2018).")
    var scale: Double?

    @Option(name: .long, help: "The snapshot (1, 2, ...) that is the app's background footprint (meminfo).")
    var background: Int?

    @Option(name: .long, help: "The device profile the scenario names (default: pixel-3-2018 for Android dumps, iphone-xs-2018 for iOS ones).")
    var profile: String?

    @Option(name: .long, help: "Write the scenario to this file (.yaml; default: standard output, or the --merge file).")
    var output: String?

    @Option(name: .long, help: "Add the app (or, with --app naming one of its apps, the screen) to this scenario, as text.")
    var merge: String?

    func validate() throws {
        if let output, !output.hasSuffix(".yaml"), !output.hasSuffix(".yml"), !output.hasPrefix("/dev/") {
            throw ValidationError("--output writes a scenario and must be named .yaml (got \(output))")
        }
        if let scale, !(scale > 0 && scale <= 10) { throw ValidationError("--scale must be more than 0 and at most 10 (got \(scale))") }
        if files.isEmpty { throw ValidationError("give at least one dump file") }
    }

    func run() throws {
        let options = ImportOptions(app: app, screen: screen, process: process, scale: scale, background: background, profile: profile)
        let text: String
        do throws(ImportError) {
            var dumps: [DumpText] = []
            for file in files { dumps.append(try DumpText.read(file)) }
            let imported = try Importers.importScenario(format, dumps, options: options)
            var existing: (text: String, path: String)?
            if let merge {
                let bytes: [UInt8]
                do { bytes = try InputKind.scenario.contents(of: merge) } catch {
                    throw ImportError(path: merge, line: 0, "cannot read the scenario: \(error)")
                }
                existing = (String(decoding: bytes, as: UTF8.self), merge)
            }
            text = try Importers.render(imported, merge: existing)
        } catch {
            StandardError.write("pressurelab: \(error)\n")
            throw error.isUsage ? ExitCodes.badUsage : ExitCodes.invalidScenario
        }
        if let destination = output ?? merge {
            let batch = OutputBatch()
            batch.add(text, to: destination, as: "the scenario")
            try OutputOptions.commit(batch)
        } else {
            try StandardOutput.print(text, terminator: "")
        }
    }
}
