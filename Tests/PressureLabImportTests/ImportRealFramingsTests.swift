import Foundation
import PressureLab
import PressureLabHarness
import PressureLabImport
import Testing

/// The importers on prints as people publish them (our own
/// fixtures in `Fixtures/dumps/`, each named by where its framing came from: see the README
/// there). Exact figures, exact messages.
@Suite("Import: real framings (Android 4.4 to 14, lldb and Cycript, iOS 7 to 10 tables, vmmap prints)")
struct ImportRealFramingsTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/dumps")

    static func fixture(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static func importing(_ format: ImportFormat, _ names: [String], _ options: ImportOptions = .init()) throws(ImportError) -> ImportedScenario {
        var dumps: [DumpText] = []
        for name in names { dumps.append(try DumpText.read(fixture(name))) }
        return try Importers.importScenario(format, dumps, options: options)
    }

    static func kib(_ kilobytes: Int) -> Int { kilobytes * 1024 }

    // MARK: - meminfo

    @Test("Android 4.4: Swapped Dirty and Graphics/GL read; figures are the table's; the report sets them beside TOTAL")
    func meminfo44() throws {
        let imported = try Self.importing(.meminfo, ["meminfo-android44-swapped-dirty.txt"])
        #expect(imported.notes[0].hasSuffix("Android 4.4 to 7 layout (Swapped Dirty column)."))
        #expect(imported.app.data?.bytes == Self.kib(5464))
        #expect(imported.app.clean?.bytes == Self.kib(3136))
        let screen = try #require(imported.app.screens.first)
        #expect(screen.views == 212 && screen.bytesPerView == 1024)
        #expect(screen.model?.bytes == Self.kib(8800 - 212))
        #expect(screen.backing?.bytes == Self.kib(6200 + 3100))
        #expect(imported.declaredDirtyBytes == Self.kib(23564))   // the table's TOTAL Private Dirty
        #expect(imported.footprint == .init(what: "TOTAL Pss Total", bytes: Self.kib(27047),
                                            origin: "\(Self.fixture("meminfo-android44-swapped-dirty.txt")):22"))
        #expect(imported.leftOut.map(\.what) == ["clean or shared Pss of Dalvik Other, Other dev, Unknown", "the Dalvik Heap's shared and clean Pss"])
        #expect(imported.leftOut.map(\.bytes) == [Self.kib(48), Self.kib(300)])
        #expect(imported.report[1] == "  the dump's own figure: TOTAL Pss Total 26.4 MiB (27696128 B, "
            + "\(Self.fixture("meminfo-android44-swapped-dirty.txt")):22); modelled 26.1 MiB, is 99% of it")
        _ = try Importers.render(imported)
    }

    @Test("line ends and encodings: CRLF, CR CR LF and UTF-16 (PowerShell) import as their LF originals, line numbers kept")
    func meminfoLineEnds() throws {
        let plain = try Self.importing(.meminfo, ["meminfo-android12-14-rss.txt"])
        for variant in ["meminfo-crlf-pty.txt", "meminfo-powershell51-utf16le-bom.txt"] {
            let other = try Self.importing(.meminfo, [variant])
            #expect(other.app.data == plain.app.data.map { figure in
                var same = figure
                same.origins = figure.origins.map { $0.replacingOccurrences(of: "meminfo-android12-14-rss.txt", with: variant) }
                return same
            }, "\(variant)")
            #expect(other.declaredDirtyBytes == plain.declaredDirtyBytes && other.app.clean?.bytes == plain.app.clean?.bytes)
            #expect(other.notes[1].hasPrefix("\(Self.fixture(variant)) was read as "))
        }
        let old = try Self.importing(.meminfo, ["meminfo-crcrlf-old-pty-windows-host.txt"])
        let reference = try Self.importing(.meminfo, ["meminfo-android44-swapped-dirty.txt"])
        #expect(old.declaredDirtyBytes == reference.declaredDirtyBytes && old.app.clean?.bytes == reference.app.clean?.bytes)
        #expect(old.footprint?.origin.hasSuffix(":22") == true)
    }

    @Test("Android 6, 8 to 11, 12 to 14, -a and -d layouts import; App Summary TOTAL is the dump's own figure")
    func meminfoLayouts() throws {
        for (name, total) in [("meminfo-android6-swapped-appsummary.txt", 18807), ("meminfo-android8-11-swappss.txt", 0),
                              ("meminfo-android12-14-rss.txt", 0), ("meminfo-a-full-columns-swap-rss.txt", 0), ("meminfo-d-dalvik-details.txt", 0)] {
            let imported = try Self.importing(.meminfo, [name])
            #expect(imported.footprint != nil, "\(name)")
            if total > 0 { #expect(imported.footprint?.bytes == Self.kib(total) && imported.footprint?.what == "App Summary TOTAL PSS") }
            _ = try Importers.render(imported)
        }
        #expect(try Self.importing(.meminfo, ["meminfo-d-dalvik-details.txt"]).app.screens[0].views > 1)
    }

    @Test("Android 4.3 and earlier is refused naming its layout and listing the ones read, at the header's line")
    func meminfo43() {
        do {
            _ = try Self.importing(.meminfo, ["meminfo-android43-shared-private.txt"])
            Issue.record("accepted")
        } catch {
            #expect(error.line == 5)
            #expect(error.message.hasPrefix("expected a table header of a known layout (Android 4.4 to 7: 'Pss Private Private Swapped Heap Heap Heap'"))
            #expect(error.message.contains("found Android 4.3 and earlier's ('Pss', 'Shared Dirty', 'Private Dirty': no Private Clean, which the import needs)"))
        }
    }

    @Test("--package prints: several processes listed, --process takes one")
    func meminfoSeveral() throws {
        #expect(throws: ImportError.self) { try Self.importing(.meminfo, ["meminfo-package-several-processes.txt"]) }
        let main = try Self.importing(.meminfo, ["meminfo-package-several-processes.txt"], .init(process: "org.example.browser"))
        #expect(main.app.name == "example-browser")
    }

    // MARK: - views

    @Test("lldb, Cycript and shell framings: the root kept, prompts and layers skipped, the largest result read",
          arguments: ["views-lldb-po-plain.txt", "views-lldb-id-dollar-first-line.txt", "views-lldb-tab-indented.txt",
                      "views-lldb-ios6-viewcontroller-annotations.txt", "views-cycript-backticks-prompts.txt",
                      "views-cycript-nsstring-escaped.txt", "views-cycript-shell-prompt-two-commands.txt",
                      "views-cycript-at-quote-multiline-wrapper.txt", "views-ios7-10-table-wrapper-2x.txt", "views-bare-cr.txt",
                      "views-powershell51-utf16le-bom.txt"])
    func viewsFramings(name: String) throws {
        let views = try RecursiveDescriptionReader.views(try DumpText.read(Self.fixture(name)))
        #expect(views.first?.depth == 0)
        #expect(views.first?.className.contains("Window") == true || views.first?.className.hasPrefix("UI") == true, "\(name)")
        let imported = try Self.importing(.views, [name], .init(app: "pantry"))
        _ = try Importers.render(imported)
    }

    @Test("each framing's view count, exactly")
    func viewsCounts() throws {
        let expected = ["views-lldb-po-plain.txt": 0, "views-lldb-id-dollar-first-line.txt": 8, "views-lldb-tab-indented.txt": 4,
                        "views-lldb-ios6-viewcontroller-annotations.txt": 4, "views-cycript-backticks-prompts.txt": 8,
                        "views-cycript-nsstring-escaped.txt": 5, "views-cycript-shell-prompt-two-commands.txt": 4,
                        "views-cycript-at-quote-multiline-wrapper.txt": 7]
        for (name, count) in expected where count > 0 {
            #expect(try RecursiveDescriptionReader.views(try DumpText.read(Self.fixture(name))).count == count, "\(name)")
        }
        let plain = try RecursiveDescriptionReader.views(try DumpText.read(Self.fixture("views-lldb-po-plain.txt")))
        for variant in ["views-bare-cr.txt", "views-powershell51-utf16le-bom.txt"] {
            let other = try RecursiveDescriptionReader.views(try DumpText.read(Self.fixture(variant)))
            #expect(other == plain, "\(variant)")
        }
    }

    @Test("iOS 7 to 10: rows from the UITableView's contentSize (880 / 44 = 20), not the wrapper's (13); 2x from the window, said")
    func tableWrapper() throws {
        let imported = try Self.importing(.views, ["views-ios7-10-table-wrapper-2x.txt"], .init(app: "pantry"))
        let table = try #require(imported.app.screens[0].table)
        #expect(table.rows == 20 && table.visibleRows == 2)
        #expect(imported.notes[1].hasPrefix("Display scale 2 (the window's 320x568 pt: iPhone 5 to SE (1st) at 2x)"))
        #expect(imported.warnings.isEmpty)
        let expand = try Self.importing(.views, ["views-cycript-at-quote-multiline-wrapper.txt"], .init(app: "pantry"))
        #expect(expand.app.screens[0].table?.rows == 20)
    }

    @Test("a window of two scales' size: the profile's 3x assumed, and said on standard error with the option")
    func scaleWarning() throws {
        let imported = try Self.importing(.views, ["views-cycript-nsstring-escaped.txt"], .init(app: "pantry"))
        #expect(imported.warnings == ["\(Self.fixture("views-cycript-nsstring-escaped.txt")): assumed 3x (profile iphone-xs-2018's): the "
            + "root view (UIWindow), 414x896 pt, does not tell the scale (the iPhone XR and 11 at 2x and the XS Max and 11 Pro Max at 3x "
            + "have that size); pass --scale 2 for a 2x device"])
        #expect(try Self.importing(.views, ["views-cycript-nsstring-escaped.txt"], .init(app: "pantry", scale: 2)).warnings.isEmpty)
    }

    // MARK: - vmmap

    @Test("vmmap: owned unmapped (graphics) is modelled as backing; the footprint set beside what was modelled")
    func vmmapOwnedUnmapped() throws {
        let imported = try Self.importing(.vmmap, ["vmmap-summary-macos-live-header-owned-unmapped.txt"])
        let backing = try #require(imported.app.screens[0].backing)
        #expect(backing.origins.contains { $0.contains("owned unmapped (graphics): dirty 40.0M + swapped 52.0M") })
        #expect(imported.footprint?.what == "Physical footprint" && imported.footprint?.countsClean == false)
        #expect(imported.report[1].hasSuffix("; modelled footprint, 119.4 MiB, is 101% of it"), "\(imported.report[1])")
        _ = try Importers.render(imported)
    }

    @Test("vmmap: a full print with its region list, an iOS .memgraph, one CRLF line: the summary read, no row lost")
    func vmmapFramings() throws {
        let full = try Self.importing(.vmmap, ["vmmap-full-region-list-then-summary.txt"])
        #expect(full.app.data?.bytes == 640 * 1024 + 16 * 1024)
        let memgraph = try Self.importing(.vmmap, ["vmmap-memgraph-ios-hardware-model-first.txt"])
        #expect(memgraph.notes.contains { $0.hasPrefix("Hardware Model: iPhone") })
        let crlf = try VmmapReader.prints(try DumpText.read(Self.fixture("vmmap-one-crlf-line.txt")))
        #expect(crlf.first?.regions.contains { $0.name == "IOAccelerator (graphics)" } == true)
    }

    @Test("vmmap: a grep-filtered paste and a crash report's region summary are refused by name, at their line")
    func vmmapRefusals() {
        do {
            _ = try Self.importing(.vmmap, ["vmmap-grep-filtered-no-first-header-line.txt"])
            Issue.record("accepted")
        } catch {
            #expect(error.line == 4 && error.message.hasSuffix("found '=== vmmap -summary (key rows) ===': the print is cut (filtered "
                + "with grep, or pasted in part); import vmmap's whole output"), "\(error)")
        }
        do {
            _ = try Self.importing(.vmmap, ["vmmap-crashreport-vm-region-summary-titlecase.txt"])
            Issue.record("accepted")
        } catch {
            #expect(error.line == 1 && error.message.hasPrefix("expected vmmap --summary's print, found a crash report's 'VM Region Summary:'"),
                    "\(error)")
        }
    }

    // MARK: - uiautomator

    @Test("Appium's page source is refused by name, at its line and column")
    func appium() {
        do {
            _ = try Self.importing(.uiautomator, ["uiautomator-appium-page-source.xml"])
            Issue.record("accepted")
        } catch {
            #expect(error.message.contains(": Appium's page source (elements named by their class), not uiautomator dump's XML; dump the "
                + "screen with adb shell uiautomator dump (column "), "\(error)")
        }
    }

    @Test("uiautomator: pulled, exec-out between prompts, dump then cat, pretty, a BOM with CRLF: each imports",
          arguments: ["uiautomator-pulled-window_dump.xml", "uiautomator-landscape-rotation1.xml", "uiautomator-exec-out-devtty-prompts.txt",
                      "uiautomator-shell-dump-then-cat.txt", "uiautomator-pretty-no-declaration.xml", "uiautomator-utf8-bom-crlf.xml"])
    func uiautomator(name: String) throws {
        let imported = try Self.importing(.uiautomator, [name])
        _ = try Importers.render(imported)
    }
}

/// Readers read each line once. An unclosed `<` is an error at its line as
/// soon as the next view starts (it used to rescan to the end of the dump for every line after
/// it), and a deep tree's fanout is counted in one pass.
@Suite("Import: linear reading")
struct ImportLinearReadingTests {
    @Test("one unclosed '<' before 2,000 lines of 3 KB: the error at its line, naming the next view's")
    func unclosed() {
        var lines = ["<UIWindow: 0x1; frame = (0 0; 375 812); layer = <UIWindowLayer: 0x2>>",
                     "   | <UIView: 0x3; frame = (0 0; 375 812); layer = <CALayer: 0x4>"]
        let text = String(repeating: "x", count: 2900)
        for index in 0..<2000 { lines.append("   |    | <UILabel: 0x\(index + 16); frame = (0 0; 10 10); text = '\(text)'; layer = <CALayer: 0x5>>") }
        #expect(throws: ImportError(path: "unclosed.txt", line: 2, "expected the view's closing '>' before the next view (line 3), found none")) {
            try RecursiveDescriptionReader.views(DumpText(lines.joined(separator: "\n"), path: "unclosed.txt"))
        }
    }

    @Test("a chain of 1,200 views (one a level, 2.9 MB of indentation) imports: depth and fanout from one pass")
    func deepChain() throws {
        let lines = (0..<1_200).map { depth in
            String(repeating: "   |", count: depth) + (depth > 0 ? " " : "") + "<UIView: 0x\(depth + 1); frame = (0 0; 10 10); layer = <CALayer: 0x1>>"
        }
        let imported = try Importers.importScenario(.views, [DumpText(lines.joined(separator: "\n"), path: "deep.txt")], options: .init(app: "deep"))
        #expect(imported.app.screens[0].views == 1_200 && imported.app.screens[0].fanout == 1)
    }
}
