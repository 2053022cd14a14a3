import Foundation
import PressureLab
import PressureLabHarness
import PressureLabImport
import PressureLabHeap
import Testing

/// What the importer tests share: running an imported scenario and the bytes its parts
/// should measure: each declared block as jemalloc holds it (``RawMemory/heldBytes(for:)``:
/// a large block in pieces, within 2% of its size; a small one in its size class), and the
/// views' bookkeeping (docs/limits.md, "Measured against declared").
enum ImportRuns {
    /// Runs the imported scenario (keep-all, no termination) and gives the run and the peak
    /// owners' bytes by controller (`app-data`, `main#1`, ...).
    static func run(_ imported: ImportedScenario, path: String) throws -> (result: RunResult, owners: [String: Int]) {
        let scenario = try ScenarioLoader().parse(try Importers.render(imported), path: path)
        let result = try Simulation(scenario, cleanup: .keepAll, termination: .noTermination).run()
        let owners = Dictionary(uniqueKeysWithValues: try #require(result.peakOwners).map { ($0.controller, $0.retainedBytes) })
        return (result, owners)
    }

    /// The bytes a table screen holds on screen: its tree (payload, the root's backing,
    /// bookkeeping) and its visible cells.
    static func tableScreenBytes(_ screen: ImportedScenario.Screen) throws -> Int {
        let table = try #require(screen.table), backing = try #require(screen.backing?.bytes)
        let tree = try ViewDescription.balanced(count: screen.views, fanout: screen.fanout, bytes: screen.bytesPerView, rootBacking: backing)
        let cell = try ViewDescription.wide(count: table.cellViews, bytes: table.cellBytes / table.cellViews)
        return screen.views * RawMemory.heldBytes(for: screen.bytesPerView) + RawMemory.heldBytes(for: backing) + View.expectedBookkeepingBytes(for: tree)
            + table.visibleRows * (table.cellViews * RawMemory.heldBytes(for: table.cellBytes / table.cellViews) + View.expectedBookkeepingBytes(for: cell))
    }

    /// Runs an imported table screen (views, uiautomator) and checks it: the peak within 2% of
    /// the tree and visible cells as jemalloc holds them, and within 2% of the declared bytes.
    static func expectTableScreenRuns(_ imported: ImportedScenario, path: String) throws {
        let (result, _) = try run(imported, path: path)
        // The tree (payload, backing at the root, bookkeeping) and the visible cells.
        let expected = try tableScreenBytes(imported.app.screens[0])
        let measured = result.metrics.peakRetainedBytes
        #expect(abs(measured - expected) <= expected / 50, "measured \(measured) B, expected \(expected) B")
        let declared = imported.declaredDirtyBytes
        print("import \(imported.app.name): declared \(declared) B, measured \(measured) B")
        #expect(withinTwoPercent(measured, of: declared), "declared \(declared) B, measured \(measured) B")
    }

    /// Whether `measured` is `declared` or at most 2% more (a large block held in pieces).
    static func withinTwoPercent(_ measured: Int?, of declared: Int) -> Bool {
        guard let measured else { return false }
        return measured >= declared && measured <= declared + declared / 50
    }

    /// An imported app's figures as measured: its data one block held in pieces, within 2% of
    /// the declared size; the whole never under what was declared and within 2% of it (the
    /// views' bookkeeping included); its clean memory resident to the page (16 KiB at most, twice).
    static func expectAppFigures(_ imported: ImportedScenario, _ result: RunResult, owners: [String: Int]) throws {
        let data = try #require(imported.app.data?.bytes)
        #expect(owners["app-data"] == RawMemory.heldBytes(for: data) + HeapBlock.objectBytes)
        #expect(withinTwoPercent(owners["app-data"], of: data), "app data: declared \(data) B, measured \(owners["app-data"] ?? 0) B")
        let declared = imported.declaredDirtyBytes
        let peak = result.metrics.peakRetainedBytes
        print("import \(imported.app.name): declared \(declared) B (data \(data) B), measured \(peak) B (app data \(owners["app-data"] ?? 0) B)")
        #expect(withinTwoPercent(peak, of: declared), "declared \(declared) B, measured \(peak) B")
        let clean = try #require(imported.app.clean?.bytes)
        let resident = try #require(result.metrics.cleanResidentBytesPeak)
        #expect(resident >= clean && resident < clean + 2 * 16384)
    }
}
