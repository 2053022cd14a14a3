import Foundation
import PressureLab
import PressureLabHarness
import PressureLabImport
import Testing
import TestSupport

/// `import views` taking its display scale from the profile when `--scale` is not given.
@Suite("Import: views at the profile's display scale")
struct ImportDisplayScaleTests {
    /// A profile with no display scale (shared with the harness tests' fixtures).
    static let round = Executable.fixtures.appendingPathComponent("profiles/round.yaml").path

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
