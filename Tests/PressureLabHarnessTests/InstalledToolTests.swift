import Foundation
import PressureLabHarness
import Testing
import TestSupport

/// The tool works wherever it is run: the bundled scenarios and profiles travel inside the
/// binary.
@Suite("An installed pressurelab, away from the checkout")
struct InstalledToolTests {
    @Test("the embedded library is exactly the bundled folders on disk")
    func embeddedMatchesDisk() throws {
        let root = Executable.packageRoot.path
        var onDisk: [String: Data] = [:]
        for folder in ["scenarios", "scenarios/experiments", "profiles"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: "\(root)/\(folder)")
            where name.hasSuffix(".yaml") || name.hasSuffix(".json") {
                onDisk["\(folder)/\(name)"] = try Data(contentsOf: URL(fileURLWithPath: "\(root)/\(folder)/\(name)"))
            }
        }
        let embedded = Dictionary(uniqueKeysWithValues: EmbeddedLibrary.files.map { ("\($0.folder)/\($0.name)", Data($0.bytes)) })
        #expect(embedded.keys.sorted() == onDisk.keys.sorted())
        for (path, bytes) in onDisk { #expect(embedded[path] == bytes, "\(path) differs from its embedded copy") }
    }

    /// Runs a copy of the built binary, from a directory that has no scenarios, with its own
    /// cache folder.
    static func runInstalled(_ arguments: [String], in sandbox: URL) throws -> Executable.Outcome {
        let bin = sandbox.appendingPathComponent("a/b/c/d/e/f/bin")
        let work = sandbox.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let installed = bin.appendingPathComponent("pressurelab").path
        if !FileManager.default.fileExists(atPath: installed) {
            try FileManager.default.copyItem(atPath: Executable.path, toPath: installed)
        }
        return try Executable.run(arguments, executable: installed, in: work,
                                  environment: ["XDG_CACHE_HOME": sandbox.appendingPathComponent("cache").path])
    }

    @Test("from another directory, a copy of the binary lists, validates and runs the bundled scenarios and profiles")
    func runsAnywhere() throws {
        let sandbox = try Executable.temporaryDirectory("installed")
        defer { try? FileManager.default.removeItem(at: sandbox) }
        let list = try Self.runInstalled(["list", "scenarios"], in: sandbox)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.split(separator: "\n").count == EndToEndTests.bundled.count, "\(list.stdout)")
        let profiles = try Self.runInstalled(["list", "profiles"], in: sandbox)
        #expect(profiles.stdout.contains("pixel-3-2018") && profiles.stdout.contains("iphone-xs-2018"), "\(profiles.stdout)")
        let run = try Self.runInstalled(["run", "photo-browser", "--policy", "ios6", "--profile", "pixel-3-2018", "--format", "csv"],
                                        in: sandbox)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("photo-browser,ios6"), "\(run.stdout)")
        // The extracted copy lives in the cache folder given, named by the contents' hash.
        let cache = try FileManager.default.contentsOfDirectory(atPath: sandbox.appendingPathComponent("cache/pressurelab").path)
        #expect(cache.count == 1 && cache[0].hasPrefix("bundled-"))
    }
}
