import Foundation
import PressureLab
import PressureLabHarness
import PressureLabImport
import PressureLabHeap
import Testing

/// `pressurelab import uiautomator` on dumps written here as `uiautomator dump` writes them
/// (AccessibilityNodeInfoDumper through KXmlSerializer): the XML declaration in single quotes,
/// everything on one line, `NAF="true"` first, entities in text, self-closed leaves, androidx's
/// `visible-to-user`, zero and negative bounds, two packages (the status bar and the app), a
/// line before the XML and the tool's `UI hierchary dumped to: /dev/tty` after it.
@Suite("Import: uiautomator dump")
struct ImportUIAutomatorTests {
    /// A node in the dumper's attribute order; `children` nil: self-closed.
    static func node(_ className: String, _ bounds: String, package: String = "com.example.feed", text: String = "", naf: Bool = false,
                     visible: Bool? = nil, scrollable: Bool = false, children: [String]? = nil) -> String {
        var out = "<node " + (naf ? "NAF=\"true\" " : "") + "index=\"0\" text=\"\(text)\" resource-id=\"\" class=\"\(className)\" "
            + "package=\"\(package)\" content-desc=\"\" checkable=\"false\" checked=\"false\" clickable=\"\(naf)\" enabled=\"true\" "
            + "focusable=\"false\" focused=\"false\" scrollable=\"\(scrollable)\" long-clickable=\"false\" password=\"false\" selected=\"false\" "
        if let visible { out += "visible-to-user=\"\(visible)\" " }
        out += "bounds=\"\(bounds)\""
        guard let children else { return out + " />" }
        return out + ">" + children.joined() + "</node>"
    }

    static func cell(_ top: Int, visible: Bool = true) -> String {
        node("android.widget.LinearLayout", "[0,\(top)][1080,\(top + 300)]", visible: visible, children: [
            node("android.widget.TextView", "[200,\(top + 20)][1000,\(top + 100)]", text: "Post &amp; reply", visible: visible),
        ] + (visible ? [node("android.widget.ImageView", "[20,\(top + 20)][180,\(top + 180)]", visible: visible)] : []))
    }

    static let statusBar = node("android.widget.FrameLayout", "[0,0][1080,63]", package: "com.android.systemui", children: [
        node("android.widget.TextView", "[40,0][160,63]", package: "com.android.systemui", text: "12:10"),
    ])
    static let app = node("android.widget.FrameLayout", "[0,0][1080,2160]", children: [
        node("android.widget.LinearLayout", "[0,63][1080,2160]", children: [
            node("android.widget.TextView", "[42,100][400,180]", text: "Ada &lt;ada@example.com&gt; &#8220;feed&#8221;"),
            node("android.widget.ImageButton", "[950,90][1040,180]", naf: true),
            node("androidx.recyclerview.widget.RecyclerView", "[0,200][1080,2160]", scrollable: true,
                 children: [cell(200), cell(500), cell(800, visible: false)]),
            node("android.view.View", "[0,2100][1080,2100]"),
            node("android.view.View", "[500,10][400,0]"),
            node("android.view.View", "[100,1900][500,2000]"),
            node("android.widget.FrameLayout", "[0,0][100,100]"),
        ]),
    ])
    static let xml = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">" + statusBar + app + "</hierarchy>"
    static let dump = "$ adb exec-out uiautomator dump /dev/tty\n" + xml + "UI hierchary dumped to: /dev/tty\n"

    /// Ground truth: w x h x 4 B of the app's views that draw outside the list (the title, the
    /// NAF image button, the custom-drawn leaf) and in a visible cell (a text and an image).
    static let treeBacking = (358 * 80 + 90 * 90 + 400 * 100) * 4
    static let cellBacking = (800 * 80 + 160 * 160) * 4

    static func importing(_ text: String, _ options: ImportOptions = .init(process: "com.example.feed")) throws(ImportError) -> ImportedScenario {
        try Importers.importScenario(.uiautomator, [DumpText(text, path: "dump.xml")], options: options)
    }

    /// 1-based column of the first occurrence of `needle` on line 2.
    static func column(of needle: String) -> Int {
        xml.utf8.count - xml[xml.range(of: needle)!.lowerBound...].utf8.count + 1
    }

    @Test("every figure is the dump's: the package's nodes outside the list, backing of the views that draw, the list as a table")
    func figures() throws {
        let imported = try Self.importing(Self.dump)
        #expect(imported.app.name == "example-feed")
        #expect(imported.profile == "pixel-3-2018")
        let screen = try #require(imported.app.screens.first)
        // 17 nodes of com.example.feed, 8 in the three cells; one root.
        #expect(screen.views == 9)
        #expect(screen.fanout == 3)                    // FrameLayout 1, LinearLayout 7, RecyclerView 0 outside cells: 8 / 3, rounded
        #expect(screen.backing?.bytes == Self.treeBacking)
        let table = try #require(screen.table)
        #expect(table.visibleRows == 2 && table.rows == 2)
        #expect(table.cellViews == 3)
        #expect(table.cellBytes == 3 * 1024 + Self.cellBacking)
        let yaml = try Importers.render(imported)
        let title = Self.column(of: "<node index=\"0\" text=\"Ada")
        #expect(yaml.contains("# dump.xml:2:\(title) android.widget.TextView 358x80 px = \(358 * 80 * 4) B"))
        #expect(yaml.contains("Not drawn: 0 hidden (visible-to-user=\"false\", or inside one), 2 of zero or negative size."))
        #expect(yaml.contains("package com.example.feed, 17 of 19 nodes; rotation 0; 1 NAF=\"true\" (imported like the others)."))
        #expect(yaml.contains("Other packages in the dump, not imported: com.android.systemui."))
        #expect(yaml.contains("android.widget.TextView x4"))
        #expect(yaml.contains("rows: the 2 cells in the dump (uiautomator prints no item count)"))
        #expect(try ScenarioLoader().parse(yaml, path: "feed.yaml").apps[0].screens[0].table?.visibleRows == 2)
        // Pretty-printed (one node a line) is the same dump.
        let pretty = try Self.importing(Self.dump.replacingOccurrences(of: "><", with: ">\n  <"))
        let prettyTable = try #require(pretty.app.screens[0].table)
        #expect(pretty.app.screens[0].backing?.bytes == Self.treeBacking && pretty.app.screens[0].views == 9)
        #expect(prettyTable.visibleRows == 2 && prettyTable.cellViews == 3 && prettyTable.cellBytes == table.cellBytes)
    }

    @Test("the package: --process, --app made from it, the only one, else an error listing them")
    func packages() throws {
        #expect(try Self.importing(Self.dump, .init(app: "example-feed")).app.screens[0].views == 9)
        let system = try Self.importing(Self.dump, .init(process: "com.android.systemui")).app
        #expect(system.name == "android-systemui" && system.screens[0].views == 2 && system.screens[0].backing?.bytes == 120 * 63 * 4)
        #expect(try Self.importing(Self.xml.replacingOccurrences(of: Self.statusBar, with: ""), .init()).app.name == "example-feed")
        let listed = "com.android.systemui (2 nodes, from 2:\(Self.column(of: "<node index"))), com.example.feed (17 nodes, from 2:"
            + "\(Self.column(of: "<node index=\"0\" text=\"\" resource-id=\"\" class=\"android.widget.FrameLayout\" package=\"com.example.feed\"")))"
        #expect(throws: ImportError(path: "dump.xml", line: 2, "expected one package, found 2: \(listed); choose one with --process PACKAGE "
            + "(or --app NAME made from it)")) { try Self.importing(Self.dump, .init()) }
        #expect(throws: ImportError(path: "dump.xml", line: 0, "--process com.x: expected one of the dump's packages, found none of that name; "
            + "the dump has \(listed)", isUsage: true)) { try Self.importing(Self.dump, .init(process: "com.x")) }
        #expect(throws: ImportError(path: "dump.xml", line: 0, "--scale: expected no scale for uiautomator, whose bounds are pixels already, "
            + "found --scale 3", isUsage: true)) { try Self.importing(Self.dump, .init(process: "com.example.feed", scale: 3)) }
    }

    @Test("the imported screen runs: each block as jemalloc holds it, the whole within 2% of the declared bytes")
    func runs() throws {
        let imported = try Self.importing(Self.dump)
        try ImportRuns.expectTableScreenRuns(imported, path: "feed.yaml")
    }

    @Test("bad input: a located error, exactly")
    func badInput() {
        #expect(throws: ImportError(path: "dump.xml", line: 1, "expected uiautomator dump's '<hierarchy rotation=\"0\">', found none in 2 lines "
            + "(the first: 'ERROR: could not get idle state.')")) { try Self.importing("ERROR: could not get idle state.\n\n") }
        let open = "<hierarchy rotation=\"0\">" + Self.node("android.widget.FrameLayout", "[0,0][1,1]", children: []).replacingOccurrences(of: "</node>", with: "")
        #expect(throws: ImportError(path: "dump.xml", line: 1, "expected </node> (1 open), found the end of the dump (truncated?) (column \(open.utf8.count + 1))")) {
            try Self.importing(open)
        }
        let cut = String(Self.xml.prefix(300))
        #expect(throws: ImportError.self) { try Self.importing(cut) }
        let bounds = "<hierarchy>" + Self.node("android.view.View", "[0,0][1080]") + "</hierarchy>"
        #expect(throws: ImportError(path: "dump.xml", line: 1, "expected bounds \"[left,top][right,bottom]\" of whole pixels within 1000000, "
            + "found '[0,0][1080]' (column 12)")) { try Self.importing(bounds) }
        let element = "<hierarchy><window id=\"1\"/></hierarchy>"
        #expect(throws: ImportError(path: "dump.xml", line: 1, "expected '<node ...>' or a closing tag, found '<window id=\"1\"/></hierarchy>' (column 12)")) {
            try Self.importing(element)
        }
        let noBounds = "<hierarchy><node class=\"a\" package=\"b\"/></hierarchy>"
        #expect(throws: ImportError(path: "dump.xml", line: 1, "expected the node's bounds=\"[left,top][right,bottom]\", found none (column 12)")) {
            try Self.importing(noBounds)
        }
        let deep = "<hierarchy>" + String(repeating: "<node bounds=\"[0,0][1,1]\">", count: 257)
        #expect(throws: ImportError(path: "dump.xml", line: 1, "expected nodes nested at most 256 deep, found one deeper (column \(12 + 256 * 26))")) {
            try Self.importing(deep)
        }
        let mismatched = "<hierarchy><node bounds=\"[0,0][1,1]\"></hierarchy>"
        #expect(throws: ImportError(path: "dump.xml", line: 1, "expected </node> (the node at line 1:12), found </hierarchy> (column 38)")) {
            try Self.importing(mismatched)
        }
    }
}
