import Foundation
import PressureLab
import PressureLabHarness
import PressureLabImport
import Testing

/// `import --memory-scale N` (docs/importing.md, "Processes bigger than the host"): the
/// 11.5 GB macOS process of issue 49 imports at 1/N and runs, every figure reported at full
/// size; the errors of a process too big for the host name the option.
@Suite("Import: --memory-scale, a process bigger than the host")
struct ImportMemoryScaleTests {
    static let name = "vmmap-summary-macos-11g-process.txt"
    static let gib = 1 << 30

    static func importing(_ options: ImportOptions) throws(ImportError) -> ImportedScenario {
        try ImportRealFramingsTests.importing(.vmmap, [name], options)
    }

    @Test("too big for a host of 8 GiB: both errors name --memory-scale with a scale that fits")
    func errorsNameTheOption() throws {
        let loader = ScenarioLoader(hostLimitBytes: 8 * Self.gib)
        let imported = try Self.importing(.init())
        #expect(throws: ImportError(path: Self.name, line: 0, "the imported device's memory, 26709327872 bytes (25472.0 MiB: twice what "
            + "the app declares, 12725.3 MiB, room for its first run), is more than the 8589934592 bytes (8192.0 MiB) this host allows a "
            + "simulation; give --memory-scale 5 to simulate the process at that fraction of its size (every figure reported at full "
            + "size), or --memory BYTES of at most 8589934592 (the app then runs under pressure)")) {
            try Importers.render(imported, dumps: [Self.name], loader: loader)
        }
        let given = try Self.importing(.init(memory: 6 * Self.gib))
        do {
            _ = try Importers.render(given, dumps: [Self.name], loader: loader)
            Issue.record("a device of 6 GiB and an allocation of 11.1 GiB rendered on a host of 8 GiB")
        } catch {
            #expect(error.message.hasSuffix("declare less or give a smaller budget (line 27 of the text it would write); for a dump, give "
                + "--memory-scale 3 to simulate the process at that fraction of its size, every figure reported at full size"), "\(error.message)")
        }
        // At the scale suggested, it renders.
        _ = try Importers.render(try Self.importing(.init(memory: 6 * Self.gib, memoryScale: 3)), dumps: [Self.name], loader: loader)
        _ = try Importers.render(try Self.importing(.init(memoryScale: 5)), dumps: [Self.name], loader: loader)
    }

    @Test("at 1/64: the scenario declares 1/64 of each figure and says memory_scale; the run reports the process at full size")
    func runsAtFullSize() throws {
        let imported = try Self.importing(.init(memoryScale: 64))
        let data = try #require(imported.app.data?.bytes)
        #expect(data == 11_961_558_630)
        let yaml = try Importers.render(imported, dumps: [Self.name])
        #expect(yaml.contains("\n  memory_scale: 64\n"))
        #expect(yaml.contains("    # 1/64 of 11961558630 B (--memory-scale 64).\n    data: \((11_961_558_630 + 32) / 64)B\n"))
        #expect(yaml.contains("\n  memory: \(26_709_327_872 / 64 / (1 << 20))MiB\n"))
        #expect(imported.report.contains("  memory_scale 64: simulated at 1/64 (device memory 398.0 MiB, the app 198.8 MiB in the scenario); "
            + "runs report every figure at full size"))
        let (result, owners) = try ImportRuns.run(imported, path: "tally.yaml")
        #expect(result.memoryScale == 64)
        let declared = imported.declaredDirtyBytes
        print("import tally at 1/64: declared \(declared) B, measured \(result.metrics.peakRetainedBytes) B at full size")
        #expect(ImportRuns.withinTwoPercent(result.metrics.peakRetainedBytes, of: declared),
                "declared \(declared) B, measured \(result.metrics.peakRetainedBytes) B")
        #expect(ImportRuns.withinTwoPercent(owners["app-data"], of: data))
    }

    @Test("--memory-scale 1 writes the scenario as without it")
    func scaleOne() throws {
        let tauri = ["vmmap-summary-tauri-webkit-iosurface-owned-graphics.txt"]
        #expect(try Importers.render(try ImportRealFramingsTests.importing(.vmmap, tauri, .init(memoryScale: 1)))
            == Importers.render(try ImportRealFramingsTests.importing(.vmmap, tauri)))
    }
}
