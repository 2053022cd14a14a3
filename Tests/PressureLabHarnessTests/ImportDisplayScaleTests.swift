import Foundation
import PressureLab
import PressureLabHarness
import PressureLabImport
import Testing

/// A device profile's `display: { scale: }`, and `import views` taking its scale from the
/// profile when `--scale` is not given.
@Suite("Import: the profile's display scale")
struct ImportDisplayScaleTests {
    static let round = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/profiles/round.yaml").path

    static let text = (try? String(contentsOfFile: round, encoding: .utf8)) ?? ""

    static func profile(_ display: String?) throws(ScenarioError) -> DeviceProfile {
        try ProfileLoader().parse(display.map { text.replacingOccurrences(of: "memory: 1GiB", with: "memory: 1GiB\n\($0)") } ?? text,
                                  path: "round.yaml")
    }

    @Test("display.scale is read, optional, and checked with its location")
    func reading() throws {
        #expect(try Self.profile(nil).displayScale == nil)
        #expect(try Self.profile("display: { scale: 2.625 }").displayScale == 2.625)
        #expect(try Self.profile("display:\n  scale: 3").displayScale == 3)
        for (display, key, message) in [
            ("display: { scale: 0 }", "display.scale", "expected a display scale (pixels a point) greater than 0 and at most 10, such as 3 or 2.625, got '0'"),
            ("display: { scale: 11 }", "display.scale", "expected a display scale (pixels a point) greater than 0 and at most 10, such as 3 or 2.625, got '11'"),
            ("display: { scale: 3x }", "display.scale", "expected a display scale (pixels a point) greater than 0 and at most 10, such as 3 or 2.625, got '3x'"),
            ("display: { ppi: 458 }", "display.ppi", "unknown key 'ppi'; valid keys are scale"),
            ("display: 3", "display", "expected a mapping with keys scale"),
        ] {
            do {
                _ = try Self.profile(display)
                Issue.record("accepted: \(display)")
            } catch {
                let found = error.diagnostics.first { $0.key == key }
                #expect(found?.message == message, "\(error.description)")
                #expect((found?.line ?? 0) > 1)
            }
        }
    }

    @Test("the bundled profiles give theirs: the iPhone XS 3, the Pixel 3 2.75")
    func bundled() throws {
        let scales = Dictionary(uniqueKeysWithValues: try ProfileLibrary.all().map { ($0.name, $0.displayScale) })
        #expect(scales == ["iphone-xs-2018": 3, "pixel-3-2018": 2.75])
    }

    static let dump = [ImportViewsTests.view(0, "UIWindow", "0 0; 375 812"), ImportViewsTests.view(1, "UILabel", "10 10; 43 21")].joined(separator: "\n")

    static func imported(_ options: ImportOptions) throws(ImportError) -> ImportedScenario {
        try Importers.importScenario(.views, [DumpText(dump, path: "views.txt")], options: options)
    }

    @Test("import views: --scale, else the profile's display.scale, else 3; the note says which")
    func views() throws {
        let label = { (scale: Double) in ImportViewsTests.backing(43, 21, scale: scale) }
        let byDefault = try Self.imported(.init())
        #expect(byDefault.app.screens[0].backing?.bytes == label(3))
        #expect(byDefault.notes.contains("Display scale 3 (profile iphone-xs-2018's display.scale); views hold no model or data in this dump: the app declares none."))
        let pixel = try Self.imported(.init(profile: "pixel-3-2018"))
        #expect(pixel.app.screens[0].backing?.bytes == label(2.75) && pixel.profile == "pixel-3-2018")
        #expect(try Self.imported(.init(scale: 2, profile: "pixel-3-2018")).app.screens[0].backing?.bytes == label(2))
        let none = try Self.imported(.init(profile: Self.round))
        #expect(none.app.screens[0].backing?.bytes == label(3))
        #expect(none.notes[1].hasPrefix("Display scale 3 (profile \(Self.round) has no display.scale: the default, the iPhone XS's 3x)"))
        #expect(throws: ImportError.self) { try Self.imported(.init(profile: "no-such-phone")) }
        do {
            _ = try Self.imported(.init(profile: "no-such-phone"))
        } catch {
            #expect(error.isUsage && error.message.hasPrefix("--profile no-such-phone: expected a profile to read the display scale from, found: "
                + "no bundled profile named 'no-such-phone'"), "\(error)")
        }
    }
}
