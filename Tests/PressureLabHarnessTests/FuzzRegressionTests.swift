import Foundation
import PressureLabFuzzEntryPoints
import Testing
import TestSupport

/// Replays every fuzz corpus file (`Fuzz/Corpus/TARGET/seed` and `.../regressions`) through
/// its target's entry point in-process, without libFuzzer: a reader may accept or refuse
/// each file, and a crash, which ends this test process, is the failure.
@Suite("Fuzz corpora replayed through the readers")
struct FuzzRegressionTests {
    static let corpus = Executable.packageRoot.appendingPathComponent("Fuzz/Corpus")

    static var targets: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// The fuzz targets as `Fuzz/targets.txt` lists them (the one list: the fuzz package,
    /// scripts/fuzz.sh and CI read it too).
    static var listed: [String] {
        let text = (try? String(contentsOf: Executable.packageRoot.appendingPathComponent("Fuzz/targets.txt"), encoding: .utf8)) ?? ""
        return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// Every entry point by target.
    static let entryPoints = FuzzEntryPoints.byTarget

    static func files(of target: String, in kind: String) -> [URL] {
        let directory = corpus.appendingPathComponent(target).appendingPathComponent(kind)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
    }

    @Test("every fuzz target has a corpus with seeds, and every corpus a target")
    func corporaMatchTargets() {
        #expect(Self.targets == Self.entryPoints.keys.sorted())
        for target in Self.entryPoints.keys {
            #expect(!Self.files(of: target, in: "seed").isEmpty, "no seeds for \(target)")
        }
    }

    @Test("Fuzz/targets.txt lists each target once, and exactly those with an entry point, a corpus and code in Fuzz/Targets")
    func listMatchesTargets() {
        #expect(!Self.listed.isEmpty)
        #expect(Set(Self.listed).count == Self.listed.count, "a target listed twice: \(Self.listed)")
        #expect(Self.listed.sorted() == Self.entryPoints.keys.sorted())
        #expect(Self.listed.sorted() == Self.targets)
        let code = Executable.packageRoot.appendingPathComponent("Fuzz/Targets").path
        #expect(Self.listed.sorted() == ((try? FileManager.default.contentsOfDirectory(atPath: code)) ?? []).filter { !$0.hasPrefix(".") }.sorted())
    }

    @Test("Fuzz/README.md's table names the targets of Fuzz/targets.txt, each once")
    func readmeTableMatchesList() throws {
        let readme = try String(contentsOf: Executable.packageRoot.appendingPathComponent("Fuzz/README.md"), encoding: .utf8)
        // The table's first column: `FuzzX` or `FuzzX`, `FuzzY`, ...
        let named = readme.split(separator: "\n").filter { $0.hasPrefix("| `Fuzz") }.flatMap { row in
            row.split(separator: "|")[0].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["`"]) }
        }
        #expect(named.sorted() == Self.listed.sorted())
    }

    @Test("seeds and saved findings are accepted or refused, never a crash", arguments: FuzzEntryPoints.byTarget.keys.sorted())
    func replay(target: String) throws {
        let entryPoint = try #require(Self.entryPoints[target])
        var accepted = 0
        for file in Self.files(of: target, in: "seed") + Self.files(of: target, in: "regressions") {
            let data = try Data(contentsOf: file)
            if data.withUnsafeBytes(entryPoint) { accepted += 1 }
        }
        // The seeds include valid files, so an entry point wired to the wrong reader shows here.
        #expect(accepted > 0, "no file of \(target)'s corpus was accepted")
    }
}
