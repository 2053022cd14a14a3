import Foundation
import PressureLab
import PressureLabHarness
import PressureLabImport
import PressureLabHeap
import Testing

/// `pressurelab import views` on `recursiveDescription` dumps written here as lldb prints
/// them: `po` (plain, and Swift's `Optional(...)`) and `p` (`@"..."`, newlines escaped), with a
/// line wrapped inside `<...>`, `baseClass = ...`, `hidden = YES`, `alpha = 0`, zero and
/// negative frames, two windows and table cells.
@Suite("Import: UIKit recursiveDescription")
struct ImportViewsTests {
    /// A view line: `   | ` a level, then `<Class: 0xADDR; frame = (x y; w h); extra; layer = <CALayer: 0x...>>`.
    static func view(_ depth: Int, _ className: String, _ frame: String, _ extra: String = "") -> String {
        String(repeating: "   |", count: depth) + (depth > 0 ? " " : "")
            + "<\(className): 0x7fb1c90\(String(depth, radix: 16))0000; frame = (\(frame)); \(extra)layer = <CALayer: 0x60000025a520>>"
    }

    /// The key window (a navigation bar with a title label, a hidden view holding a label, a
    /// zero-size view, a negative-height one, a table of three cells, one hidden), and a second window.
    static let lines: [String] = [
        view(0, "UIWindow", "0 0; 375 812", "gestureRecognizers = <NSArray: 0x600000c4d2c0>; "),
        view(1, "UILayoutContainerView", "0 0; 375 812", "autoresize = W+H; "),
        view(2, "UITableView", "0 0; 375 812", "clipsToBounds = YES; contentOffset: {0, -88}; contentSize: {375, 8800}; "),
        view(3, "Feed.PostCell", "0 0; 375 88", "baseClass = UITableViewCell; autoresize = W; "),
        view(4, "UITableViewCellContentView", "0 0; 375 87.5"),
        view(5, "UILabel", "72 8; 287 20.5", "text = 'Ada <ada@example.com>'; "),
        view(5, "UIImageView", "16 8; 48 48", "opaque = NO; "),
        view(3, "Feed.PostCell", "0 88; 375 88", "baseClass = UITableViewCell; "),
        view(4, "UITableViewCellContentView", "0 0; 375 87.5"),
        view(5, "UILabel", "72 8; 287 61", "text = 'A long post that the"),
        "terminal wrapped inside the description'; userInteractionEnabled = NO; layer = <_UILabelLayer: 0x600002a4c100>>",
        view(5, "UIImageView", "16 8; 48 48"),
        view(3, "Feed.PostCell", "0 176; 375 88", "baseClass = UITableViewCell; hidden = YES; "),
        view(4, "UITableViewCellContentView", "0 0; 375 87.5"),
        view(3, "UIImageView", "369 -88; 3 812", "alpha = 0; opaque = NO; "),
        view(2, "UINavigationBar", "0 44; 375 44", "opaque = NO; "),
        view(3, "UILabel", "166 11.5; 43 21", "text = 'Feed'; "),
        view(3, "Feed.BadgeView", "300 10; 24 24"),
        view(3, "UIView", "0 0; 0 0", "hidden = YES; "),
        view(4, "UILabel", "0 0; 100 20"),
        view(3, "Feed.Spacer", "0 0; 0 10"),
        view(3, "Feed.Flipped", "0 0; 10 -10"),
        view(0, "UITextEffectsWindow", "0 0; 375 812", "opaque = NO; "),
        view(1, "UIInputSetContainerView", "0 0; 375 812"),
    ]

    /// Ground truth: the views that draw outside cells are the title label (43 x 21 pt) and the
    /// badge (24 x 24 pt, an app leaf view); the cells' are two labels and two image views.
    static func backing(_ width: Double, _ height: Double, scale: Double) -> Int {
        Int((width * scale).rounded(.up)) * Int((height * scale).rounded(.up)) * 4
    }

    static func importing(_ text: String, scale: Double? = nil) throws(ImportError) -> ImportedScenario {
        try Importers.importScenario(.views, [DumpText(text, path: "feed.txt")], options: .init(app: "feed", scale: scale))
    }

    static let po = "(lldb) po [[UIWindow keyWindow] recursiveDescription]\n" + lines.joined(separator: "\n") + "\n"
    /// `p` prints one line: `(NSString *) $0 = 0x... @"..."`, newlines and quotes escaped.
    static let p = "(lldb) p [[UIWindow keyWindow] recursiveDescription]\n(NSString *) $0 = 0x0000600003b0c000 @\""
        + lines.joined(separator: "\\n").replacingOccurrences(of: "'", with: "'") + "\"\n"
    static let swift = "(lldb) po view.value(forKey: \"recursiveDescription\")\nOptional(" + lines.joined(separator: "\n") + ")\n"

    @Test("every figure is the dump's: views outside cells, backing of the views that draw, the table", arguments: [po, p, swift])
    func figures(text: String) throws {
        let imported = try Self.importing(text)
        let screen = try #require(imported.app.screens.first)
        // Views outside cells: 24 printed, 11 inside the 3 cells, plus a root for the two windows.
        #expect(screen.views == 24 - 11 + 1)
        #expect(screen.backing?.bytes == Self.backing(43, 21, scale: 3) + Self.backing(24, 24, scale: 3))
        let table = try #require(screen.table)
        #expect(table.visibleRows == 2)
        #expect(table.rows == 100)                     // 8800 / 88
        #expect(table.cellViews == 4)                  // (4 + 4) / 2
        let cellsBacking = Self.backing(287, 20.5, scale: 3) + Self.backing(48, 48, scale: 3) * 2 + Self.backing(287, 61, scale: 3)
        #expect(table.cellBytes == 4 * 1024 + cellsBacking / 2)
        let yaml = try Importers.render(imported)
        #expect(yaml.contains("Not drawn: 3 hidden (hidden = YES or alpha = 0, or inside one), 2 of zero or negative size."))
        #expect(yaml.contains("# feed.txt:\(text == Self.p ? 2 : 18) UILabel 43x21 pt = \(Self.backing(43, 21, scale: 3)) B"))
        #expect(try ScenarioLoader().parse(yaml, path: "feed.yaml").apps[0].screens[0].table?.visibleRows == 2)
    }

    @Test("--scale: backing stores scale with its square")
    func scale() throws {
        let two = try Self.importing(Self.po, scale: 2).app.screens[0]
        #expect(two.backing?.bytes == Self.backing(43, 21, scale: 2) + Self.backing(24, 24, scale: 2))
    }

    @Test("the imported screen runs: each block as jemalloc holds it, the whole within 2% of the declared bytes")
    func runs() throws {
        let imported = try Self.importing(Self.po)
        try ImportRuns.expectTableScreenRuns(imported, path: "feed.yaml")
    }

    @Test("bad input: a located error, exactly")
    func badInput() {
        #expect(throws: ImportError(path: "feed.txt", line: 1, "expected recursiveDescription's '<UIWindow: 0x...; frame = (0 0; 375 812); ...>', "
            + "found no view in 2 lines")) { try Self.importing("hello\nworld\n") }
        let truncated = Self.lines.prefix(10).joined(separator: "\n")
        #expect(throws: ImportError(path: "feed.txt", line: 10, "expected the view's closing '>', found the end of the dump (truncated?)")) {
            try Self.importing(truncated)
        }
        let jump = [Self.view(0, "UIWindow", "0 0; 375 812"), Self.view(2, "UIView", "0 0; 1 1")].joined(separator: "\n")
        #expect(throws: ImportError(path: "feed.txt", line: 2, "expected a view at depth 1 or less, found depth 2 (a level of '   | ' too many)")) {
            try Self.importing(jump)
        }
        let frame = Self.view(0, "UIWindow", "0 0; 375,5 812")
        #expect(throws: ImportError(path: "feed.txt", line: 1, "expected a frame '(x y; w h)' of numbers up to 1000000 points, found '(0 0; 375,5 812)'")) {
            try Self.importing(frame)
        }
        let stray = [Self.view(0, "UIWindow", "0 0; 375 812"), "   | garbage"].joined(separator: "\n")
        #expect(throws: ImportError(path: "feed.txt", line: 2, "expected a view, '<Class: 0x...; frame = (x y; w h); ...>', found 'garbage'")) {
            try Self.importing(stray)
        }
    }
}
