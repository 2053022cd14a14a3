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
