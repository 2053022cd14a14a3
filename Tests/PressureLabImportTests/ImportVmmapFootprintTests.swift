import Foundation
import PressureLab
import PressureLabHarness
import PressureLabImport
import Testing

/// `import vmmap` counts each row as macOS's footprint ledger counts it (XNU
/// `osfmk/kern/task.c`, docs/importing.md): the modelled footprint of every vmmap print the
/// project has with a `Physical footprint:` line is within 5% of that line.
@Suite("Import: vmmap's rows as the footprint ledger counts them")
struct ImportVmmapFootprintTests {
    static func importing(_ name: String) throws(ImportError) -> ImportedScenario {
        try ImportRealFramingsTests.importing(.vmmap, [name])
    }

    /// Every fixture with a `Physical footprint:` line, and the modelled share of it as the
    /// report prints it (a whole percent).
    static let shares: [(name: String, percent: Int)] = [
        ("vmmap-full-region-list-then-summary.txt", 98),
        ("vmmap-memgraph-ios-hardware-model-first.txt", 98),
        ("vmmap-one-crlf-line.txt", 101),
        ("vmmap-summary-macos-live-header-owned-unmapped.txt", 101),
        ("vmmap-summary-tauri-webkit-iosurface-owned-graphics.txt", 100),
        ("vmmap-summary-macos-11g-process.txt", 97),
    ]

    @Test("every print with a Physical footprint line: the modelled footprint within 5% of it")
    func withinFivePercent() throws {
        let directory = ImportRealFramingsTests.directory.path
        let withFootprint = try FileManager.default.contentsOfDirectory(atPath: directory).filter { name in
            guard name.hasPrefix("vmmap-") else { return false }
            return try String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8).contains("\nPhysical footprint:")
        }
        #expect(Set(withFootprint) == Set(Self.shares.map(\.name)))
        for (name, percent) in Self.shares {
            let imported = try Self.importing(name)
            let footprint = try #require(imported.footprint?.bytes)
            let modelled = imported.declaredDirtyBytes
            print("import vmmap \(name): modelled footprint \(modelled) B of \(footprint) B")
            #expect(abs(modelled - footprint) <= footprint / 20, "\(name): modelled \(modelled) B, footprint \(footprint) B")
            #expect(imported.report[1].hasSuffix("is \(percent)% of it"), "\(imported.report[1])")
        }
        let feed = try Importers.importScenario(.vmmap, [DumpText(ImportVmmapTests.dump, path: "vmmap.txt")], options: .init())
        #expect(feed.report[1].hasSuffix("modelled footprint, 123.8 MiB, is 98% of it"), "\(feed.report[1])")
    }

    @Test("the Tauri print: IOSurface's IOKit-mapped pages and owned unmapped (graphics)'s resident pages counted, each by its row")
    func tauri() throws {
        let imported = try Self.importing("vmmap-summary-tauri-webkit-iosurface-owned-graphics.txt")
        let backing = try #require(imported.app.screens[0].backing)
        let name = "vmmap-summary-tauri-webkit-iosurface-owned-graphics.txt"
        let path = ImportRealFramingsTests.fixture(name)
        #expect(backing.origins.contains("\(path):29 IOSurface: resident 212.0M (IOKit-mapped: every resident page counts)"))
        #expect(backing.origins.contains("\(path):44 owned unmapped (graphics): resident 268.0M + swapped 16.0M (owned: every resident page counts)"))
        #expect(backing.origins.contains("\(path):28 IOAccelerator (graphics): dirty 41.5M + swapped 6144K"))
        #expect(backing.origins.contains("\(path):27 CoreAnimation: dirty 18.2M + swapped 1126K"))
        let data = try #require(imported.app.data)
        #expect(data.origins.contains("\(path):45 page table in kernel: dirty 2304K"))
        let mib = 1 << 20
        // IOSurface 212.0M, owned unmapped (graphics) 268.0M + 16.0M, IOAccelerator 41.5M + 6144K,
        // CoreAnimation 18.2M + 1126K, CG image 1434K + 256K, as printed.
        let whole: Int = (212 + 268 + 16 + 6) * mib + mib * 83 / 2
        let kilobytes: Int = (1126 + 1434 + 256) * 1024
        let coreAnimation = Int((18.2 * Double(mib)).rounded())
        #expect(backing.bytes == whole + kilobytes + coreAnimation)
        #expect(imported.report[1] == "  the dump's own figure: Physical footprint 919.0 MiB (963641344 B, \(path):17); modelled footprint, 918.6 MiB, "
            + "is 100% of it")
        #expect(imported.leftOut.map(\.what) == ["VOLATILE (purgeable memory the system may empty: the ledger's purgeable_volatile, outside the footprint)"])
        #expect(imported.leftOut.map(\.bytes) == [2 * mib])
    }
}
