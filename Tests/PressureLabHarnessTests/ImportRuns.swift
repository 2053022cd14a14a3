import Foundation
import PressureLab
import PressureLabHarness
import PressureLabHeap
import Testing

/// What the importer tests share: running an imported scenario and the bytes its parts
/// should measure (jemalloc's size class of each declared block, and the views' bookkeeping).
enum ImportRuns {
    /// Runs the imported scenario (keep-all, no termination) and gives the run and the peak
    /// owners' bytes by controller (`app-data`, `main#1`, ...).
    static func run(_ imported: ImportedScenario, path: String) throws -> (result: RunResult, owners: [String: Int]) {
        let scenario = try ScenarioLoader().parse(try Importers.render(imported), path: path)
        let result = try ScenarioRunner().run(scenario, policy: .keepAll, termination: .none)
        let owners = Dictionary(uniqueKeysWithValues: try #require(result.peakOwners).map { ($0.controller, $0.retainedBytes) })
        return (result, owners)
    }

    /// The bytes a table screen holds on screen: its tree (payload, the root's backing,
    /// bookkeeping) and its visible cells.
    static func tableScreenBytes(_ screen: ImportedScenario.Screen) throws -> Int {
        let table = try #require(screen.table), backing = try #require(screen.backing?.bytes)
        let tree = try ViewDescription.balanced(count: screen.views, fanout: screen.fanout, bytes: screen.bytesPerView, rootBacking: backing)
        let cell = try ViewDescription.wide(count: table.cellViews, bytes: table.cellBytes / table.cellViews)
        return screen.views * Heap.sizeClass(for: screen.bytesPerView) + Heap.sizeClass(for: backing) + View.expectedBookkeepingBytes(for: tree)
            + table.visibleRows * (table.cellViews * Heap.sizeClass(for: table.cellBytes / table.cellViews) + View.expectedBookkeepingBytes(for: cell))
    }

    /// An imported app's figures as measured: its data one block in its size class; the whole
    /// never under what was declared and over by jemalloc's size classes only (4 a doubling:
    /// at most 25%); its clean memory resident to the page (16 KiB at most, twice).
    static func expectAppFigures(_ imported: ImportedScenario, _ result: RunResult, owners: [String: Int]) throws {
        let data = try #require(imported.app.data?.bytes)
        #expect(owners["app-data"] == Heap.sizeClass(for: data) + HeapBlock.objectBytes)
        let declared = imported.declaredDirtyBytes
        #expect(result.metrics.peakRetainedBytes >= declared && result.metrics.peakRetainedBytes <= declared + declared / 4)
        let clean = try #require(imported.app.clean?.bytes)
        let resident = try #require(result.metrics.cleanResidentBytesPeak)
        #expect(resident >= clean && resident < clean + 2 * 16384)
    }
}
