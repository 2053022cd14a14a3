import Foundation
import PressureLab
import PressureLabHarness
import Testing

/// A device profile's `display: { scale: }`: read, optional, checked with its location.
@Suite("Profiles: the display's scale")
struct ProfileDisplayScaleTests {
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

    @Test("the bundled profiles give theirs: the iPhone XS 3, the Pixel 3 and the Pixel 4 2.75")
    func bundled() throws {
        let scales = Dictionary(uniqueKeysWithValues: try ProfileLibrary.all().map { ($0.name, $0.displayScale) })
        #expect(scales == ["iphone-xs-2018": 3, "pixel-3-2018": 2.75, "pixel-4-2019": 2.75])
    }
}
