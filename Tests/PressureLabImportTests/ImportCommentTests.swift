import Foundation
import PressureLabHarness
import PressureLabImport
import Testing

/// Dump text written into a scenario's comments: escaped as diagnostics are, so that a
/// comment cannot end early.
@Suite("Import: dump text in comments stays comment, escaped as diagnostics are")
struct ImportCommentTests {
    @Test("comments written from dump text cannot end early: CR, LF, NEL, U+2028, U+2029 are escaped")
    func commentsStayComments() throws {
        #expect(ImportedScenario.comment("  ", "a\rseed: 77\u{85}b\u{2028}c\u{2029}d\u{1B}[2J") == "  # a\\rseed: 77\\u{85}b\\u{2028}c\\u{2029}d\\u{1b}[2J")
        let dump = try String(contentsOfFile: ImportRealFramingsTests.fixture("vmmap-summary-macos-live-header-owned-unmapped.txt"), encoding: .utf8)
            .replacingOccurrences(of: "Process:         Pantry [4242]", with: "Process:         Pantry\u{2028}seed: 77\u{85}name: injected [4242]")
        let imported = try Importers.importScenario(.vmmap, [DumpText(dump, path: "vmmap.txt")], options: .init(app: "pantry"))
        let yaml = try Importers.render(imported)
        let scenario = try ScenarioLoader().parse(yaml, path: "pantry.yaml")
        #expect(scenario.seed == 0 && scenario.name == "pantry")
        #expect(yaml.contains("process Pantry\\u{2028}seed: 77\\u{85}name: injected [4242]"))
    }

    @Test("diagnostics and comments escape alike: one rule, U+FEFF (shown as nothing) included")
    func diagnosticsEscapeAsComments() {
        let text = "a\u{FEFF}b\nc\u{9B}d"
        #expect(ScenarioDiagnostic.escaped(text) == "a\\u{feff}b\\nc\\u{9b}d")
        #expect(ImportedScenario.comment("", text) == "# " + ScenarioDiagnostic.escaped(text))
    }
}
