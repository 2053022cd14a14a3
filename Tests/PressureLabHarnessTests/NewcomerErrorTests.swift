import Foundation
import PressureLab
import PressureLabHarness
import PressureLabSweep
import Testing
import TestSupport

/// The errors a newcomer meets first (issue 58, item 4), and the termination names every
/// command accepts alike (item 3): each says what was meant and nothing it did not find.
@Suite("A newcomer's errors: names, misspelt keys, notes")
struct NewcomerErrorTests {
    static var bundled: ScenarioLibrary { ScenarioLibrary(directory: Executable.packageRoot.appendingPathComponent("scenarios").path) }

    @Test("a misspelt bundled name: the closest names and 'list scenarios', no :0:0")
    func unknownBundledName() {
        var message = ""
        do {
            _ = try ScenarioLibrary.loadScenarios(["photo-browse"], library: Self.bundled)
        } catch {
            guard case .invalid(let errors) = error else { Issue.record("\(error)"); return }
            message = errors.map(\.description).joined(separator: "\n")
        }
        #expect(message == "photo-browse: no such file, nor a bundled scenario of that name; the closest bundled names: "
            + "photo-browser ('pressurelab list scenarios' lists the bundled ones)")
        // A path is a path: its own error, without a position in a file that is not there.
        var pathMessage = ""
        do {
            _ = try ScenarioLibrary.loadScenarios(["/nonexistent/photo-browse.yaml"], library: Self.bundled)
        } catch {
            if case .invalid(let errors) = error { pathMessage = errors.map(\.description).joined(separator: "\n") }
        }
        #expect(pathMessage.hasPrefix("/nonexistent/photo-browse.yaml: cannot read the file"))
    }

    @Test("a misspelt key is one message, with the key meant, and no cascade from it")
    func misspeltKey() throws {
        let path = Executable.packageRoot.appendingPathComponent("scenarios/photo-browser.yaml").path
        var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        // The albums screen's visible_rows (the second screen's table, as the issue's).
        let index = try #require(lines.indices.filter { lines[$0].contains("visible_rows: 10") }.first)
        lines[index] = lines[index].replacingOccurrences(of: "visible_rows", with: "visble_rows")
        let message = ScenarioTexts.failure { () throws(ScenarioError) in
            _ = try ScenarioLoader().parse(lines.joined(separator: "\n"), path: "typo.yaml")
        }
        #expect(message == "typo.yaml:\(index + 1):9: apps.photos.screens.albums.visble_rows: unknown key 'visble_rows' "
            + "(did you mean 'visible_rows'?); valid keys are kind, rows, visible_rows, cell, reuse_pool, tree, outlets, "
            + "releases_outlets, backing, cache, model")
    }

    @Test("the closest names: a few edits, or the first letters typed")
    func closest() {
        #expect(ClosestNames.closest(to: "photo-browse", in: ["photo-browser", "day-of-apps"]) == ["photo-browser"])
        #expect(ClosestNames.closest(to: "lmk-without-lmkdd", in: ["lmk", "lmk-without-lmkd", "fleet"]) == ["lmk-without-lmkd"])
        #expect(ClosestNames.closest(to: "fleet-sw", in: ["fleet-switching", "day-of-apps"]) == ["fleet-switching"])
        #expect(ClosestNames.closest(to: "zzz", in: ["photo-browser"]).isEmpty)
        #expect(ClosestNames.suggestion(for: "ios9", in: ["ios2", "ios6", "lru"]) == " (did you mean 'ios2' or 'ios6'?)")
    }

    @Test("every termination name run accepts, a sweep file accepts; list policies and --help name them")
    func terminationNames() throws {
        let names = PolicyRegistry.terminationNames.map(\.name)
        #expect(names == ["none", "jetsam", "lmk", "largest-first", "freeze", "lmk-without-lmkd", "fleet"])
        let file = try SweepFile.parse("sweep: 1\nscenarios: [small.yaml]\ntermination: [lmk-without-lmkd, fleet]\n",
                                       path: "\(Executable.fixtures.path)/names.yaml")
        #expect(file.terminations.map(\.name) == ["lmk-without-lmkd", "fleet"])
        // `all` stays the policies `list policies` gives first, not the experiments' configurations.
        let all = try SweepFile.parse("sweep: 1\nscenarios: [small.yaml]\ntermination: all\n", path: "\(Executable.fixtures.path)/all.yaml")
        #expect(all.terminations.map(\.name) == Termination.builtIns.map(\.name))
        let listed = try Executable.run(["list", "policies"])
        #expect(listed.stdout.hasSuffix("termination: none, jetsam, lmk, largest-first, freeze, lmk-without-lmkd, fleet\n"))
        let help = try Executable.run(["run", "--help"])
        #expect(help.stdout.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "  ", with: "")
            .contains("lmk-without-lmkd, fleet; default: jetsam"))
    }

    @Test("the stock executable, given a policy it does not know, says one of your own runs from your own executable")
    func unknownPolicyHint() throws {
        let refused = try Executable.run(["device", "--termination", "largest-cached-first"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("A policy of your own runs from your own executable"))
        #expect(refused.stderr.contains("docs/extending.md"))
    }

    @Test("a what-if note names the scenario it is about")
    func noteNamesScenario() throws {
        let outcome = try Executable.run(["run", "fleet-switching", "--policy", "ios6"])
        #expect(outcome.status == 0)
        #expect(outcome.stderr.contains("note: fleet-switching: jetsam on Android 10: XNU's rules (iOS 18) on an Android device, a what-if"))
    }
}
