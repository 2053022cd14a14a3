import Foundation
import PressureLab
import PressureLabHarness
import PressureLabImport
import PressureLabHeap
import Testing

/// `pressurelab import vmmap` on dumps written here in `vmmap --summary`'s own layout (the
/// header, the two footprint lines, the REGION TYPE table with its two header lines, `=====`
/// rules, trailing blanks and `see MALLOC ZONE table below`, a `Memory Tag 253` row, a size in
/// bytes without a unit, the MALLOC ZONE table), the older VIRTUAL-only layout, a one-line
/// header, several processes and bad figures.
@Suite("Import: vmmap --summary")
struct ImportVmmapTests {
    /// A region row: name, then VIRTUAL RESIDENT DIRTY SWAPPED VOLATILE NONVOL EMPTY as printed, and the count.
    typealias Region = (name: String, sizes: [String], count: Int)

    static let regions: [Region] = [
        ("Activity Tracing", ["256K", "32K", "32K", "0K", "0K", "32K", "0K"], 1),
        ("CoreAnimation", ["36.1M", "33.3M", "33.3M", "2848K", "0K", "33.3M", "0K"], 41),
        ("IOAccelerator (graphics)", ["22.4M", "18.0M", "18.0M", "512K", "0K", "18.0M", "0K"], 27),
        ("IOSurface", ["24.3M", "20.2M", "64K", "0K", "0K", "0K", "0K"], 6),
        ("Image IO", ["5632K", "5120K", "5120K", "256K", "0K", "0K", "0K"], 14),
        ("MALLOC metadata", ["240K", "176K", "176K", "16K", "0K", "0K", "0K"], 10),
        ("MALLOC_LARGE", ["21.4M", "18.7M", "18.7M", "1.2M", "0K", "0K", "0K"], 53),
        ("MALLOC_SMALL", ["40.0M", "12.5M", "12.5M", "2.1M", "0K", "0K", "0K"], 5),
        ("MALLOC_TINY", ["6144K", "3712K", "3712K", "340K", "0K", "0K", "0K"], 6),
        ("Memory Tag 253", ["480K", "256K", "256K", "0K", "0K", "0K", "0K"], 3),
        (".note.gnu.prope", ["320", "320", "0K", "0K", "0K", "0K", "0K"], 1),
        ("Stack", ["9760K", "816K", "800K", "48K", "0K", "0K", "0K"], 18),
        ("__DATA", ["16.9M", "9892K", "3320K", "220K", "0K", "0K", "0K"], 412),
        ("__LINKEDIT", ["368.2M", "12.4M", "0K", "0K", "0K", "0K", "0K"], 4),
        ("__TEXT", ["444.1M", "81.0M", "0K", "0K", "0K", "0K", "0K"], 440),
        ("mapped file", ["58.9M", "11.2M", "0K", "0K", "0K", "0K", "0K"], 26),
        ("shared memory", ["592K", "592K", "592K", "0K", "0K", "0K", "0K"], 14),
    ]

    /// `%-27s` then `%8s` a size (vmmap's columns, close enough: the reader splits on blanks).
    static func row(_ name: String, _ sizes: [String], _ count: Int, trailer: String = "") -> String {
        var line = name.padding(toLength: max(name.count, 30), withPad: " ", startingAt: 0)
        for size in sizes { line += " " + String(repeating: " ", count: max(0, 8 - size.count)) + size }
        return line + " " + String(repeating: " ", count: max(0, 8 - String(count).count)) + "\(count) " + trailer
    }

    static let rule = "===========                     ======= ========    =====  ======= ========   ======    =====  ======= "

    static func print(process: String = "Feed", pid: Int = 4321, footprint: String = "126.4M", oneLineHeader: Bool = false) -> [String] {
        var lines = ["Process:         \(process) [\(pid)]", "Path:            /private/var/containers/Bundle/Application/X/Feed.app/Feed",
                     "Identifier:      com.example.Feed", "Code Type:       ARM64", "Platform:        iOS", "",
                     "Date/Time:       2026-11-20 15:02:11.412 +0100", "OS Version:      iOS 17.5 (21F79)", "Report Version:  7",
                     "Analysis Tool:   /Applications/Xcode.app/Contents/Developer/usr/bin/vmmap", "",
                     "Physical footprint:         \(footprint)", "Physical footprint (peak):  171.9M", "Idle exit:                  untracked", "----", "",
                     "ReadOnly portion of Libraries: Total=812.4M resident=93.1M(11%) swapped_out_or_unallocated=719.3M(89%)",
                     "Writable regions: Total=1.1G written=96.2M(9%) resident=88.4M(8%) swapped_out=9860K(1%) unallocated=1.0G(91%)", ""]
        if oneLineHeader {
            lines.append("REGION TYPE                        VIRTUAL RESIDENT    DIRTY  SWAPPED VOLATILE   NONVOL    EMPTY   REGION")
        } else {
            lines += ["                                VIRTUAL RESIDENT    DIRTY  SWAPPED VOLATILE   NONVOL    EMPTY   REGION ",
                      "REGION TYPE                        SIZE     SIZE     SIZE     SIZE     SIZE     SIZE     SIZE    COUNT (non-coalesced) "]
        }
        lines.append(rule)
        for region in regions {
            lines.append(row(region.name, region.sizes, region.count, trailer: region.name.hasPrefix("MALLOC_") ? "        see MALLOC ZONE table below" : ""))
        }
        lines += [rule, row("TOTAL", ["1.3G", "314.6M", "105.4M", "8.9M", "0K", "51.3M", "0K"], 2458), "",
                  "                                 VIRTUAL   RESIDENT      DIRTY    SWAPPED ALLOCATION      BYTES DIRTY+SWAP          REGION",
                  "MALLOC ZONE                         SIZE       SIZE       SIZE       SIZE      COUNT  ALLOCATED  FRAG SIZE  % FRAG   COUNT",
                  "===========                      =======  =========  =========  =========  =========  =========  =========  ======  ======",
                  "DefaultMallocZone_0x1002fc000     128.0M      4352K      4352K       640K      61021      3870K      1122K     23%       1",
                  "MallocHelperZone_0x1002d4000       67.5M      34.9M      34.9M       3.6M      30318      33.6M      4997K     13%      70", ""]
        return lines
    }

    /// Ground truth: a size as printed, in bytes (K, M, G of 1024, or bytes), rounded.
    static func bytes(_ size: String) -> Int {
        let units: [Character: Double] = ["K": 1024, "M": 1_048_576, "G": 1_073_741_824, "T": 1_099_511_627_776]
        guard let last = size.last, let unit = units[last] else { return Int(size)! }
        return Int((Double(size.dropLast())! * unit).rounded())
    }

    static let graphics: Set = ["CoreAnimation", "IOAccelerator (graphics)", "IOSurface", "Image IO"]

    static func importing(_ text: String, _ options: ImportOptions = .init()) throws(ImportError) -> ImportedScenario {
        try Importers.importScenario(.vmmap, [DumpText(text, path: "vmmap.txt")], options: options)
    }

    static let dump = "$ vmmap --summary Feed.memgraph\n" + print().joined(separator: "\n") + "\n"

    @Test("every figure is the dump's: MALLOC and other dirty as data, graphics dirty as backing, file-backed resident clean as clean",
          arguments: [false, true])
    func figures(oneLineHeader: Bool) throws {
        let text = "$ vmmap --summary Feed.memgraph\n" + Self.print(oneLineHeader: oneLineHeader).joined(separator: "\n") + "\n"
        let imported = try Self.importing(text)
        #expect(imported.app.name == "feed" && imported.profile == "iphone-xs-2018")
        var data = 0, backing = 0, clean = 0
        for region in Self.regions {
            let sizes = region.sizes.map(Self.bytes)
            // The footprint's ledger: dirty + swapped, or NONVOL when larger; an IOKit mapping's
            // resident pages whole (IOSurface: 20.2M resident, 64K dirty).
            var counted = max(sizes[2] + sizes[3], sizes[5])
            if region.name.hasPrefix("IO") { counted = max(counted, sizes[1]) }
            if Self.graphics.contains(region.name) { backing += counted } else { data += counted }
            if region.name.hasPrefix("__") || region.name == "mapped file" { clean += sizes[1] - sizes[2] }
        }
        #expect(imported.app.data?.bytes == data)
        #expect(imported.app.screens[0].backing?.bytes == backing)
        #expect(imported.app.clean?.bytes == clean)
        #expect(imported.app.screens[0].views == 1)
        let yaml = try Importers.render(imported)
        let footprintLine = Self.dump.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("Physical footprint:") }! + 1
        #expect(yaml.contains("# Physical footprint: 126.4M (vmmap.txt:\(footprintLine)), peak 171.9M (vmmap.txt:\(footprintLine + 1))."))
        let malloc = footprintLine + (oneLineHeader ? 16 : 17)
        #expect(yaml.contains("# vmmap.txt:\(malloc) MALLOC_LARGE: dirty 18.7M + swapped 1.2M"))
        #expect(yaml.contains("MallocHelperZone_0x1002d4000: 33.6M allocated in 30318 allocations, 4997K fragmented (13%)"))
        #expect(yaml.contains("# vmmap.txt:\(malloc - 3) IOSurface: resident 20.2M (IOKit-mapped: every resident page counts)"))
        // Stack's resident pages that are not dirty and the unit-less row's: said, not imported.
        let left = (Self.bytes("816K") - Self.bytes("800K")) + 320
        #expect(yaml.contains("# Left out: \(left) B resident but neither dirty nor file-backed, in .note.gnu.prope, Stack (pages the task "
            + "did not write, shared with or owned by another task: not its internal memory)."))
        #expect(yaml.contains("VOLATILE 0 B (purgeable memory the system may empty, outside the footprint)"))
    }

    @Test("the imported app runs: data and backing each measured within 2% of the declared size, clean memory resident to the page")
    func runs() throws {
        let imported = try Self.importing(Self.dump)
        let (result, owners) = try ImportRuns.run(imported, path: "feed.yaml")
        let screen = imported.app.screens[0]
        let tree = try ViewDescription.balanced(count: 1, fanout: 1, bytes: 1024, rootBacking: screen.backing!.bytes)
        let backing = screen.backing!.bytes
        let expected = RawMemory.heldBytes(for: backing) + Heap.sizeClass(for: 1024) + View.expectedBookkeepingBytes(for: tree)
        let measured = try #require(owners["main#1"])
        #expect(measured == expected, "measured \(measured) B, expected \(expected) B")
        #expect(ImportRuns.withinTwoPercent(measured, of: backing + 1024), "screen: declared \(backing + 1024) B, measured \(measured) B")
        try ImportRuns.expectAppFigures(imported, result, owners: owners)
    }

    @Test("older vmmap (VIRTUAL SIZE and REGION COUNT only): the footprint whole as data, or refused without one")
    func olderLayout() throws {
        var lines = ["Process:         com.docker.hyperkit [1387]", "Report Version:  7", "Analysis Tool:   /usr/bin/vmmap", "----", "",
                     "                                VIRTUAL   REGION", "REGION TYPE                        SIZE    COUNT (non-coalesced)",
                     "===========                     =======  =======", "MALLOC_LARGE                       2.2G        8         see MALLOC ZONE table below",
                     "Stack                             16.1M       18", "===========                     =======  =======",
                     "TOTAL                              2.5G      351", "",
                     "                                 VIRTUAL ALLOCATION      BYTES          REGION",
                     "MALLOC ZONE                         SIZE      COUNT  ALLOCATED  % FULL   COUNT",
                     "===========                      =======  =========  =========  ======  ======",
                     "DefaultMallocZone_0x106233000       2.2G       1620       2.2G     98%      11", ""]
        #expect(throws: ImportError(path: "vmmap.txt", line: 7, "expected the REGION TYPE table's RESIDENT and DIRTY columns, or a 'Physical "
            + "footprint:' line, found only 'VIRTUAL REGION' (an older vmmap): virtual sizes are address space, not memory, so nothing can be "
            + "imported; Xcode 10's vmmap and later print resident, dirty and swapped sizes")) { try Self.importing(lines.joined(separator: "\n")) }
        lines.insert("Physical footprint:         3.7G", at: 3)
        let imported = try Self.importing(lines.joined(separator: "\n"))
        #expect(imported.app.data?.bytes == Self.bytes("3.7G") && imported.app.clean == nil && imported.app.screens[0].backing == nil)
        let yaml = try Importers.render(imported)
        #expect(yaml.contains("This vmmap prints VIRTUAL SIZE and REGION COUNT only (vmmap.txt:8): the split into heap, graphics and clean memory cannot be imported."))
        #expect(yaml.contains("DefaultMallocZone_0x106233000: 2.2G allocated in 1620 allocations"))
    }

    @Test("several processes: an error that lists them, or the one --process names (a name or a pid)")
    func processes() throws {
        let text = (Self.print() + Self.print(process: "Feed Share Extension", pid: 4400, footprint: "12.0M")).joined(separator: "\n")
        let second = Self.print().count + 1
        #expect(throws: ImportError(path: "vmmap.txt", line: second, "expected one process, found 2: Feed [4321] (line 1), Feed Share Extension [4400] "
            + "(line \(second)); choose one with --process NAME")) { try Self.importing(text) }
        #expect(try Self.importing(text, .init(process: "4400")).app.name == "feed-share-extension")
        #expect(try Self.importing(text, .init(process: "Feed")).app.data?.bytes == (try Self.importing(Self.dump)).app.data?.bytes)
        #expect(throws: ImportError(path: "vmmap.txt", line: 0, "--process Mail: expected one of the dump's processes, found none of that name or pid; "
            + "the dump has Feed [4321] (line 1), Feed Share Extension [4400] (line \(second))", isUsage: true)) {
            try Self.importing(text, .init(process: "Mail"))
        }
    }

    @Test("bad input: a located error, exactly")
    func badInput() {
        #expect(throws: ImportError(path: "vmmap.txt", line: 1, "expected vmmap --summary's 'Physical footprint:' and REGION TYPE table, "
            + "found neither in 2 lines")) { try Self.importing("hello\nworld\n") }
        let lines = Self.print()
        let malloc = lines.firstIndex { $0.hasPrefix("MALLOC_LARGE") }!
        var comma = lines
        comma[malloc] = comma[malloc].replacingOccurrences(of: "18.7M", with: "18,7M")
        #expect(throws: ImportError(path: "vmmap.txt", line: malloc + 1, "expected a region figure, a size such as 0K, 340K, 12.5M or 1.2G, "
            + "found '18,7M' (another locale's decimal or grouping: vmmap prints '12.5M')")) { try Self.importing(comma.joined(separator: "\n")) }
        let truncated = lines.prefix(malloc + 2).joined(separator: "\n")
        #expect(throws: ImportError(path: "vmmap.txt", line: malloc + 2, "expected the REGION TYPE table's '=====' line and TOTAL row, "
            + "found the end of the table (truncated?)")) { try Self.importing(truncated) }
        var columns = lines
        let header = lines.firstIndex { $0.hasPrefix("REGION TYPE") }!
        columns[header - 1] = columns[header - 1].replacingOccurrences(of: "NONVOL", with: "PURGE")
        #expect(throws: ImportError(path: "vmmap.txt", line: header + 1, "expected the REGION TYPE table's columns 'VIRTUAL RESIDENT DIRTY SWAPPED "
            + "VOLATILE NONVOL EMPTY REGION' (Xcode 10 and later) or 'VIRTUAL REGION' (older), found 'VIRTUAL RESIDENT DIRTY SWAPPED VOLATILE "
            + "PURGE EMPTY REGION'")) { try Self.importing(columns.joined(separator: "\n")) }
        var footprint = lines
        footprint[11] = "Physical footprint:         1,2G"
        #expect(throws: ImportError(path: "vmmap.txt", line: 12, "expected the physical footprint, a size such as 0K, 340K, 12.5M or 1.2G, found "
            + "'1,2G' (another locale's decimal or grouping: vmmap prints '12.5M')")) { try Self.importing(footprint.joined(separator: "\n")) }
        var huge = lines
        huge[malloc] = Self.row("MALLOC_LARGE", ["900.0T", "1.5T", "1.5T", "0K", "0K", "0K", "0K"], 1)
        #expect(throws: ImportError(path: "vmmap.txt", line: malloc + 1, "expected the app's memory to be at most 1T, found "
            + "\(Self.bytes("32K") + Self.bytes("176K") + Self.bytes("16K") + 1_649_267_441_664) B by this row (MALLOC_LARGE)")) { try Self.importing(huge.joined(separator: "\n")) }
        #expect(throws: ImportError(path: "vmmap.txt", line: 0, "--scale: expected no scale for vmmap, whose sizes are bytes", isUsage: true)) {
            try Self.importing(Self.dump, .init(scale: 2))
        }
    }
}
