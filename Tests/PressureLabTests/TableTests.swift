import PressureLab
import PressureLabHeap
import Testing

@Suite("Tables: cells for visible rows plus a reuse pool")
struct TableTests {
    /// One-time allocations happen before anything is measured (see ``runtimePathsWarmedUp``).
    init() { _ = runtimePathsWarmedUp }

    static let cell = try! ViewDescription.wide(count: 5, bytes: 6 * 1024 / 5)

    private func feed(rows: Int, visible: Int = 14, pool: Int = TableSpec.defaultReusePoolCapacity) throws
        -> (RuntimeContext, TableViewController, Window)
    {
        let runtime = try makeRuntime(.iOS5, screens: [
            ScreenSpec(name: "feed", view: try .single(bytes: 2048, backing: 256 << 10),
                       table: TableSpec(rows: rows, visibleRows: visible, cell: Self.cell, reusePoolCapacity: pool)),
            ScreenSpec(name: "post", view: try .single(bytes: 512)),
        ])
        let table = try #require(try runtime.makeController(screen: "feed") as? TableViewController)
        let window = Window()
        try window.show(table)
        return (runtime, table, window)
    }

    @Test("100,000 rows scrolled end to end allocate cells only up to visible + pool (counts and bytes)")
    func scrollEndToEnd() throws {
        let (runtime, table, window) = try feed(rows: 100_000)
        defer { withExtendedLifetime(window) {} }
        runtime.trace.isEnabled = false
        #expect(table.cellsAllocated == 14)
        let oneCell = expectedTreeBytes(Self.cell)
        var scrolled = 0
        let scroll = Heap.measure {
            while table.scroll(by: 1) != 0 { scrolled += 1 }
        }
        #expect(scrolled == 100_000 - 14)
        #expect(table.firstVisibleRow == 100_000 - 14)
        #expect(table.cellsAllocated <= 14 + TableSpec.defaultReusePoolCapacity)
        #expect(table.cellsReused >= scrolled - TableSpec.defaultReusePoolCapacity)
        #expect(table.liveCellCount <= 14 + TableSpec.defaultReusePoolCapacity)
        // During 99,986 rows of scrolling the heap grows by at most the pool's worth of new
        // cells, and what is allocated at all is transient bookkeeping far below a cell a row.
        print("scroll: \(scrolled) rows, \(table.cellsAllocated) cells built, \(table.cellsReused) reused, "
            + "\(scroll.delta.allocated) B allocated, net \(scroll.delta.net) B; one cell \(oneCell) B")
        #expect(scroll.delta.net <= TableSpec.defaultReusePoolCapacity * oneCell + 4096)
        #expect(scroll.delta.allocated / scrolled < oneCell / 20)
    }

    @Test("scrolling back up, and jumping, reuse cells too")
    func scrollBothWays() throws {
        let (_, table, window) = try feed(rows: 1000, visible: 10, pool: 3)
        defer { withExtendedLifetime(window) {} }
        table.scroll(by: 500)
        table.scroll(by: -7)
        table.scroll(by: -3)
        table.scroll(by: 4)
        #expect(table.firstVisibleRow == 494)
        #expect(table.visibleCells.count == 10)
        #expect(table.cellsAllocated == 10)
        #expect(table.scroll(by: -10_000) == -494)
        #expect(table.scroll(by: -1) == 0)
    }

    @Test("a short table shows all its rows and cannot scroll")
    func shortTable() throws {
        let (_, table, window) = try feed(rows: 3, visible: 14)
        defer { withExtendedLifetime(window) {} }
        #expect(table.visibleCells.count == 3)
        #expect(table.scroll(by: 5) == 0)
    }

    @Test("unloading the table's view (iOS 5) frees its cells; they come back when it reappears")
    func unloadFreesCells() throws {
        let (runtime, table, window) = try feed(rows: 500)
        let post = try runtime.makeController(screen: "post")
        try window.transition(from: table, to: post)
        let before = table.measuredBytes[.viewTree]!
        table.receiveMemoryWarning()
        #expect(!table.isViewLoaded)
        #expect(table.liveCellCount == 0)
        #expect(abs(table.measuredBytes[.viewTree]!) <= 64)
        #expect(before >= 14 * expectedTreeBytes(Self.cell))
        try window.transition(from: post, to: table)
        #expect(table.visibleCells.count == 14)
    }
}
