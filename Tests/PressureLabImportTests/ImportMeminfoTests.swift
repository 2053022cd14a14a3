import Foundation
import PressureLab
import PressureLabHarness
import PressureLabImport
import PressureLabHeap
import Testing

/// `pressurelab import meminfo` on dumps written here in `dumpsys meminfo`'s own layouts
/// (ActivityThread.dumpMemInfoTable's HEAP_COLUMN rows, App Summary and Objects), quirks
/// included: a loop's timestamps, a print that found no process, several processes, a figure
/// with a thousands separator.
@Suite("Import: dumpsys meminfo")
struct ImportMeminfoTests {
    /// One row of the table: a category and its figures (kB) in the layout's column order.
    typealias Row = (String, [Int])

    /// `%13s` then `%8s` a column (HEAP_COLUMN), blank figures as blanks.
    static func tableRow(_ label: String, _ values: [String], columns: Int) -> String {
        var line = String(repeating: " ", count: max(0, 13 - label.count)) + label
        for index in 0..<columns {
            let value = index < values.count ? values[index] : ""
            line += " " + String(repeating: " ", count: max(0, 8 - value.count)) + value
        }
        return line
    }

    /// `%21s %8d` pairs (ONE_COUNT_COLUMN, TWO_COUNT_COLUMNS, THREE_COUNT_COLUMNS).
    static func counts(_ pairs: [(String, String)]) -> String {
        pairs.map { label, value in
            String(repeating: " ", count: max(0, 21 - label.count)) + label + " " + String(repeating: " ", count: max(0, 8 - value.count)) + value
        }.joined(separator: " ")
    }

    /// The rows of a snapshot, Android 12 layout (Pss, Private Dirty, Private Clean, SwapPss, Rss).
    static func rows(scale: Int) -> [Row] {
        [("Native Heap", [27958 * scale, 17008 * scale, 10944, 2000, 29516, 467984, 418064, 43151]),
         ("Dalvik Heap", [9540 * scale, 8704 * scale, 804, 1493, 12876, 40258, 20129, 20129]),
         ("Dalvik Other", [2192, 1520, 292, 96, 3695]), ("Stack", [2048, 1924, 124, 0, 2056]),
         ("Ashmem", [170, 156, 0, 0, 1180]), ("Gfx dev", [6000 * scale, 6000 * scale, 0, 0, 6000]),
         ("Other dev", [136, 0, 136, 0, 616]), (".so mmap", [7473, 84, 5943, 0, 14567]),
         (".jar mmap", [3017, 0, 0, 0, 5507]), (".apk mmap", [1637, 0, 1196, 0, 3410]),
         (".ttf mmap", [127, 0, 60, 0, 556]), (".dex mmap", [1712, 0, 960, 0, 5401]),
         (".oat mmap", [14, 0, 0, 0, 2032]), (".art mmap", [4912, 132, 4592, 288, 16932]),
         ("Other mmap", [3061, 36, 2932, 0, 3510]), ("EGL mtrack", [16112 * scale, 16112 * scale, 0, 0, 16112]),
         ("GL mtrack", [8000 * scale, 8000 * scale, 0, 0, 8000]), ("Unknown", [1898, 908, 756, 958, 9392])]
    }

    /// One print: `** MEMINFO ... **`, the table (Android 12 with Rss, or 8 without), the App
    /// Summary and the Objects. `grouped` writes the Native Heap's Pss with a comma.
    static func snapshot(pid: Int, process: String, scale: Int, views: Int = 773, rss: Bool = true, grouped: Bool = false) -> [String] {
        let rows = rows(scale: scale).map { row -> Row in rss ? row : (row.0, row.1.enumerated().filter { $0.offset != 4 }.map(\.element)) }
        let columns = rss ? 8 : 7
        var lines = ["Applications Memory Usage (in Kilobytes):", "Uptime: 81234567 Realtime: 81234567", "",
                     "** MEMINFO in pid \(pid) [\(process)] **"]
        let top = rss ? ["Pss", "Private", "Private", "SwapPss", "Rss", "Heap", "Heap", "Heap"] : ["Pss", "Private", "Private", "SwapPss", "Heap", "Heap", "Heap"]
        let bottom = rss ? ["Total", "Dirty", "Clean", "Dirty", "Total", "Size", "Alloc", "Free"] : ["Total", "Dirty", "Clean", "Dirty", "Size", "Alloc", "Free"]
        lines += [tableRow("", top, columns: columns), tableRow("", bottom, columns: columns),
                  tableRow("", Array(repeating: "------", count: columns), columns: columns)]
        for (label, values) in rows {
            var texts = values.map(String.init)
            if grouped, label == "Native Heap" { texts[0] = Self.grouped(values[0]) }
            lines.append(tableRow(label, texts, columns: columns))
        }
        let figureCount = rss ? 5 : 4
        var total = (0..<figureCount).map { column in rows.map { $0.1[column] }.reduce(0, +) }
        total += [508242, 438193, 63280]
        lines.append(tableRow("TOTAL", total.map(String.init), columns: columns))
        lines += [" ", " App Summary"]
        if rss {
            lines += [counts([("", "Pss(KB)"), ("", "Rss(KB)")]), counts([("", "------"), ("", "------")]),
                      counts([("Java Heap:", "9000"), ("", "29808")]), counts([("Code:", "14000"), ("", "32050")]),
                      counts([("Private Other:", "5716")]), counts([("Unknown:", ""), ("", "5420")]), " ",
                      counts([("TOTAL PSS:", "\(total[0])"), ("TOTAL RSS:", "\(total[4])"), ("TOTAL SWAP PSS:", "\(total[3])")])]
        } else {
            lines += [counts([("", "Pss(KB)")]), counts([("", "------")]), counts([("Java Heap:", "9000")]), counts([("Code:", "14000")]),
                      " ", counts([("TOTAL:", "\(total[0])"), ("TOTAL SWAP PSS:", "\(total[3])")])]
        }
        lines += [" ", " Objects", counts([("Views:", "\(views)"), ("ViewRootImpl:", "1")]),
                  counts([("AppContexts:", "13"), ("Activities:", "1")]), " ", " SQL", counts([("MEMORY_USED:", "0")]), " "]
        return lines
    }

    static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += "," }
            out.append(character)
        }
        return out
    }

    /// A loop of prints: snapshot 1 (scale 1), a print with no process, snapshot 2 (scale 2,
    /// the largest), snapshot 3 (scale 1 again: the background).
    static func loopDump(rss: Bool = true) -> String {
        (["--- 2026-11-24 10:00:00"] + snapshot(pid: 28161, process: "com.twitter.android", scale: 1, rss: rss)
            + ["--- 2026-11-24 10:00:05", "No process found for: com.twitter.android", "--- 2026-11-24 10:00:10"]
            + snapshot(pid: 28170, process: "com.twitter.android", scale: 2, rss: rss, grouped: true)
            + ["--- 2026-11-24 10:01:10"] + snapshot(pid: 28170, process: "com.twitter.android", scale: 1, rss: rss))
            .joined(separator: "\n") + "\n"
    }

    static func importing(_ text: String, _ options: ImportOptions = .init()) throws(ImportError) -> ImportedScenario {
        try Importers.importScenario(.meminfo, [DumpText(text, path: "dump.txt")], options: options)
    }

    /// The line (1-based) of the `occurrence`th line of `text` starting, once trimmed, with `prefix`.
    static func line(of prefix: String, in text: String, occurrence: Int = 1) -> Int {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.indices.filter { lines[$0].trimmingCharacters(in: .whitespaces).hasPrefix(prefix) }[occurrence - 1] + 1
    }

    @Test("every figure is the dump's: the largest snapshot, dirty by kind, clean shares, views out of the Java heap",
          arguments: [true, false])
    func figures(rss: Bool) throws {
        let text = Self.loopDump(rss: rss)
        let imported = try Self.importing(text, .init(background: 3))
        // Ground truth: snapshot 2 (scale 2) of the rows above; dirty = Private Dirty + SwapPss Dirty.
        let rows = Dictionary(uniqueKeysWithValues: Self.rows(scale: 2).map { ($0.0, $0.1) })
        func dirty(_ label: String) -> Int { rows[label]![1] + rows[label]![3] }
        let data = ["Native Heap", "Dalvik Other", "Stack", "Ashmem", "Other dev", "Unknown", ".so mmap", ".art mmap", "Other mmap"]
            .map(dirty).reduce(0, +)
        let clean = [".so mmap", ".jar mmap", ".apk mmap", ".ttf mmap", ".dex mmap", ".oat mmap", ".art mmap", "Other mmap"]
            .map { rows[$0]![0] - rows[$0]![1] }.reduce(0, +)
        let graphics = ["Gfx dev", "EGL mtrack", "GL mtrack"].map(dirty).reduce(0, +)
        let java = dirty("Dalvik Heap")
        // The background (snapshot 3, scale 1): its Java heap is what is kept; the drop is released.
        let backgroundRows = Dictionary(uniqueKeysWithValues: Self.rows(scale: 1).map { ($0.0, $0.1) })
        let backgroundJava = backgroundRows["Dalvik Heap"]![1] + backgroundRows["Dalvik Heap"]![3]
        let released = (java - backgroundJava) * 1024
        let kept = java * 1024 - 773 * 1024 - released
        let app = imported.app
        #expect(app.name == "twitter-android")
        #expect(app.data?.bytes == data * 1024 + kept)
        #expect(app.clean?.bytes == clean * 1024)
        let screen = try #require(app.screens.first)
        #expect(screen.name == "main" && screen.views == 773 && screen.bytesPerView == 1024)
        #expect(screen.backing?.bytes == graphics * 1024)
        #expect(screen.model?.bytes == released)
        #expect(app.onBackground == ["models", "backing"])
        // Origins: the foreground's rows are the second snapshot's lines.
        let nativeLine = Self.line(of: "Native Heap", in: text, occurrence: 2)
        #expect(app.data?.origins.first == "dump.txt:\(nativeLine) Native Heap: Private Dirty \(rows["Native Heap"]![1]) kB + swapped 2000 kB")
        #expect(imported.notes.contains("Skipped: 'No process found for: com.twitter.android' (dump.txt:\(Self.line(of: "No process", in: text)))."))
        #expect(imported.notes[0].hasSuffix(rss ? "Android 12 to 14 layout (Rss column)." : "Android 8 to 11 layout."))
        let yaml = try Importers.render(imported)
        #expect(yaml.contains("# dump.txt:\(nativeLine) Native Heap: Private Dirty"))
        #expect(yaml.contains("on_background: [models, backing]"))
        #expect(try ScenarioLoader().parse(yaml, path: "imported.yaml").apps[0].dataBytes == data * 1024 + kept)
    }

    @Test("the imported scenario runs: every large block (data, backing, model) measured within 2% of its declared size, the total too")
    func runs() throws {
        let imported = try Self.importing(Self.loopDump())
        let (result, owners) = try ImportRuns.run(imported, path: "imported.yaml")
        let screen = imported.app.screens[0]
        // The screen: backing and model blocks, the views' payload and the tree's bookkeeping.
        let tree = try ViewDescription.balanced(count: screen.views, fanout: screen.fanout, bytes: screen.bytesPerView,
                                                rootBacking: screen.backing!.bytes)
        let backing = screen.backing!.bytes, model = screen.model!.bytes
        let expected = RawMemory.heldBytes(for: backing) + RawMemory.heldBytes(for: model) + HeapBlock.objectBytes
            + screen.views * RawMemory.heldBytes(for: screen.bytesPerView) + View.expectedBookkeepingBytes(for: tree)
        let measured = try #require(owners["main#1"])
        #expect(measured == expected, "measured \(measured) B, expected \(expected) B")
        #expect(ImportRuns.withinTwoPercent(RawMemory.heldBytes(for: backing), of: backing))
        #expect(ImportRuns.withinTwoPercent(RawMemory.heldBytes(for: model), of: model))
        let declared = backing + model + screen.views * screen.bytesPerView
        #expect(ImportRuns.withinTwoPercent(measured, of: declared), "screen: declared \(declared) B, measured \(measured) B")
        // App data one block; declared against measured; clean memory resident to the page.
        try ImportRuns.expectAppFigures(imported, result, owners: owners)
    }

    @Test("several processes: an error that lists them, or the one --process names")
    func processes() throws {
        let text = (Self.snapshot(pid: 1, process: "com.example", scale: 1) + Self.snapshot(pid: 2, process: "com.example:remote", scale: 1))
            .joined(separator: "\n")
        let second = Self.line(of: "** MEMINFO", in: text, occurrence: 2)
        #expect(throws: ImportError(path: "dump.txt", line: second, "expected one process, found 2: com.example (pid 1, line 4), "
            + "com.example:remote (pid 2, line \(second)); choose one with --process NAME")) { try Self.importing(text) }
        let chosen = try Self.importing(text, .init(process: "com.example:remote"))
        #expect(chosen.app.name == "example-remote")
    }

    @Test("bad input: a located error, exactly", arguments: [
        ("hello\nworld\n", 1, "expected dumpsys meminfo's '** MEMINFO in pid PID [PROCESS] **', found none in 2 lines "
            + "(is this adb shell dumpsys meminfo PACKAGE?)"),
        ("No process found for: com.example\n", 1, "expected a dumpsys meminfo print of a process, found only "
            + "'No process found for: com.example' (1 such prints); is the app running?"),
    ])
    func badInput(text: String, line: Int, message: String) {
        #expect(throws: ImportError(path: "dump.txt", line: line, message)) { try Self.importing(text) }
    }

    @Test("a truncated dump, another locale's numbers, an absurd size, an unknown header: each at its line")
    func badTables() {
        let good = Self.snapshot(pid: 7, process: "com.example", scale: 1)
        let nativeLine = good.firstIndex { $0.contains("Native Heap") }! + 1
        let truncated = good.prefix(nativeLine + 2).joined(separator: "\n")
        #expect(throws: ImportError(path: "dump.txt", line: nativeLine + 3, "expected the table's TOTAL row for pid 7 [com.example] "
            + "(line 4), found the end of the dump (truncated?)")) { try Self.importing(truncated) }
        var locale = good
        locale[nativeLine - 1] = locale[nativeLine - 1].replacingOccurrences(of: "27958", with: "27.958")
        #expect(throws: ImportError(path: "dump.txt", line: nativeLine, "expected 'Native Heap' Pss Total in kB, a whole number, found '27.958' "
            + "(a fraction, or another locale's digit grouping: write digits, or commas in threes)")) { try Self.importing(locale.joined(separator: "\n")) }
        var absurd = good
        absurd[nativeLine - 1] = absurd[nativeLine - 1].replacingOccurrences(of: "   27958", with: "99999999999")
        #expect(throws: ImportError(path: "dump.txt", line: nativeLine, "expected 'Native Heap' Pss Total of at most 1073741824 kB (1 TiB), "
            + "found 99999999999 kB")) { try Self.importing(absurd.joined(separator: "\n")) }
        var header = good
        header[5] = header[5].replacingOccurrences(of: "Total", with: "Summe")
        #expect(throws: ImportError.self) { try Self.importing(header.joined(separator: "\n")) }
        do {
            _ = try Self.importing(header.joined(separator: "\n"))
        } catch {
            #expect(error.line == 5 && error.message.hasPrefix("expected a table header of a known layout (Android 4.4 to 7:"))
            #expect(error.description.hasPrefix("dump.txt:5: expected a table header"))
        }
    }

    @Test("--background out of range and an unknown --process are usage errors")
    func usage() {
        let text = Self.loopDump()
        #expect(throws: ImportError(path: "dump.txt", line: 0, "--background 4: expected a snapshot from 1 to 3 of process "
            + "com.twitter.android, found none numbered 4", isUsage: true)) { try Self.importing(text, .init(background: 4)) }
        #expect((try? Self.importing(text, .init(process: "nope"))) == nil)
    }

    @Test("names made valid")
    func names() {
        #expect(ImportNames.valid("com.twitter.android") == "twitter-android")
        #expect(ImportNames.valid("org.mozilla.firefox:tab3") == "mozilla-firefox-tab3")
        #expect(ImportNames.valid("MyApp") == "myapp")
        #expect(ImportNames.valid("***") == "app")
    }
}
