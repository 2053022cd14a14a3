import ArgumentParser
import Foundation
import PressureLabHarness
import PressureLabImport
import PressureLabHeap
import SystemPackage

extension ImportFormat: ExpressibleByArgument {}

/// `pressurelab import FORMAT FILE... [--app NAME] [--screen NAME] [--process NAME] [--scale S]
/// [--background K] [--profile P] [--memory BYTES] [--memory-scale N] [--output FILE.yaml] [--merge SCENARIO.yaml]`
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn a memory or view dump into a scenario, each figure with its origin (docs/importing.md).",
        discussion: "Formats: " + ImportFormat.allCases.map { "\($0.rawValue) (\($0.summary))" }.joined(separator: "; ")
            + ". A dump that is not the format, or is truncated, is an error at its line (exit 65); nothing is written. "
            + "Standard error then says what was modelled beside the dump's own footprint figure, and what was left out.")

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

    @Option(name: .long, help: "The display scale for frames in points (views; default: the window's when its size tells, else the profile's display.scale).")
    var scale: Double?

    @Option(name: .long, help: "The snapshot (1, 2, ...) that is the app's background footprint (meminfo).")
    var background: Int?

    @Option(name: .long, help: "The device profile the scenario names: a bundled name or a profile file (default: pixel-3-2018 for Android dumps, iphone-xs-2018 for iOS ones).")
    var profile: String?

    @Option(name: .long, help: "The device's memory, such as 3GiB (default: twice what the app declares, room for its first run).")
    var memory: String?

    @Option(name: .customLong("memory-scale"), help: ArgumentHelp("Simulate the process at 1/N of its size, every figure reported at full size (a process bigger than this host allows; 1 to \(ScenarioLimits.memoryScale)).", valueName: "N"))
    var memoryScale: Int?

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
        if let memoryScale, !(1...ScenarioLimits.memoryScale).contains(memoryScale) {
            throw ValidationError("--memory-scale must be a whole number from 1 to \(ScenarioLimits.memoryScale) (got \(memoryScale))")
        }
        if let memoryScale, memoryScale > 1, merge != nil {
            throw ValidationError("--memory-scale cannot be given with --merge: a merge keeps the scenario's device, and its scale")
        }
        if let memory {
            switch Quantities.bytes(memory) {
            case .success(let bytes) where bytes >= 1 << 20: break
            case .success: throw ValidationError("--memory \(memory): give at least 1MiB")
            case .failure(let failure): throw ValidationError("--memory \(failure.message)")
            }
        }
    }

    func run() throws {
        if format == .jetsam { return try importJetsam() }
        let memoryBytes = try memory.map { text -> Int in
            guard case .success(let bytes) = Quantities.bytes(text) else { throw ValidationError("--memory \(text): not a size") }
            return bytes
        }
        let options = ImportOptions(app: app, screen: screen, process: process, scale: scale, background: background, profile: profile,
                                    memory: memoryBytes, memoryScale: memoryScale)
        let destination = output ?? merge
        // A merge is a read-modify-write of the scenario: its lock is held from the read to the
        // write, so that two merges into one file run one after the other and lose nothing.
        var lock: FileLock?
        defer { lock?.unlock() }
        let text: String
        let imported: ImportedScenario
        var mergedFrom: (text: String, path: String)?
        do throws(ImportError) {
            var dumps: [DumpText] = []
            for file in files { dumps.append(try DumpText.read(file)) }
            var result = try Importers.importScenario(format, dumps, options: options)
            if let profile, let destination, ProfileReference(profile) != .bundled(profile) {
                result.profile = Self.path(profile, relativeTo: FilePath(destination).removingLastComponent().string)
            }
            if let merge {
                do { lock = try FileLock(exclusive: FilePath(merge)) } catch {
                    throw ImportError(path: merge, line: 0, "cannot read the scenario: \(error.isMissing ? "no such file" : error.summary)")
                }
                let existing: String
                do { existing = try InputKind.scenario.text(of: merge).text } catch {
                    throw ImportError(path: merge, line: error.location.line, "cannot read the scenario: \(error)")
                }
                mergedFrom = (existing, merge)
            }
            text = try Importers.render(result, merge: mergedFrom, destination: destination, dumps: files, requestedProfile: profile)
            imported = result
        } catch {
            StandardError.write("pressurelab: \(error)\n")
            throw error.isUsage ? ExitCodes.badUsage : ExitCodes.invalidScenario
        }
        for warning in imported.warnings { StandardError.write("pressurelab: warning: \(warning)\n") }
        if let destination {
            let batch = OutputBatch()
            batch.add(text, to: destination, as: "the scenario")
            try OutputOptions.commit(batch) {
                // Written without the lock (an editor, a script): refused, nothing replaced.
                if let mergedFrom, let now = try? InputKind.scenario.text(of: mergedFrom.path).text, now != mergedFrom.text {
                    StandardError.write("pressurelab: \(mergedFrom.path): the scenario changed since it was read (another program wrote "
                        + "it); nothing written: run the import again\n")
                    throw ExitCodes.runFailed
                }
            }
        } else {
            try StandardOutput.print(text, terminator: "")
        }
        for line in imported.report { StandardError.write("pressurelab: \(line)\n") }
    }

    /// A profile file's path as a scenario in `folder` must name it (the reader reads it against
    /// the scenario's folder): relative to that folder, or absolute when given so.
    static func path(_ profile: String, relativeTo folder: String) -> String {
        guard !profile.hasPrefix("/") else { return profile }
        let workingDirectory = FilePath(FileManager.default.currentDirectoryPath)
        let target = workingDirectory.appending(FilePath(profile).components).lexicallyNormalized()
        let base = (folder.hasPrefix("/") ? FilePath(folder) : workingDirectory.appending(FilePath(folder).components)).lexicallyNormalized()
        let from = Array(base.components), to = Array(target.components)
        var common = 0
        while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
        let parts = Array(repeating: "..", count: from.count - common) + to[common...].map(\.string)
        return parts.isEmpty ? profile : parts.joined(separator: "/")
    }
}
