/// A table view controller: many rows, but cells only for the visible rows plus a small
/// reuse pool. Scrolling moves cells that leave the screen to the pool and takes cells
/// for rows that enter from it (`dequeueReusableCell`), allocating only when it is empty.
///
/// Cells are views built from the cell's description (read from the bundle once, when
/// the table's view loads, as a registered cell nib is); their bytes belong to the
/// controller's view tree.
public final class TableViewController: ViewController {
    /// The table's rows and cells.
    public let table: TableSpec
    /// The first row on screen.
    public private(set) var firstVisibleRow = 0
    /// Cells of the rows on screen, top first.
    public private(set) var visibleCells: [View] = []
    /// Cells waiting for reuse.
    public private(set) var reusePool: [View] = []
    /// Cells built since the controller was made.
    public private(set) var cellsAllocated = 0
    /// Cells taken from the reuse pool since the controller was made.
    public private(set) var cellsReused = 0
    private var cellDescription: ViewDescription?

    public required init(screen: ScreenSpec, runtime: RuntimeContext) {
        precondition(screen.table != nil, "screen '\(screen.name)' is not a table")
        table = screen.table!
        super.init(screen: screen, runtime: runtime)
    }

    deinit {
        runtime.ledger.measure(owner: owner(.viewTree)) { dropCells() }
    }

    /// The number of rows on screen (fewer than `visibleRows` for a short table).
    public var visibleRowCount: Int { min(table.visibleRows, table.rows) }

    /// Cells alive: on screen and in the pool.
    public var liveCellCount: Int { visibleCells.count + reusePool.count }

    public override func loadView() throws {
        try super.loadView()
        do {
            let cell = try runtime.bundle.readDescription(for: TableSpec.cellDescriptionName(for: screen.name))
            runtime.countDescriptionRead(cell)
            cellDescription = cell
        } catch {
            setView(nil)
            throw RuntimeError.viewLoadFailed(controller: id.description, cause: error)
        }
    }

    public override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        reloadDataIfNeeded()
    }

    public override func forEachAdditionalView(_ body: (View) -> Void) {
        for cell in visibleCells { cell.forEachInTree(body) }
        for cell in reusePool { cell.forEachInTree(body) }
    }

    public override func didReleaseView() {
        dropCells()
        cellDescription = nil
    }

    /// Fills the visible rows with cells if the table shows none.
    public func reloadDataIfNeeded() {
        guard visibleCells.isEmpty, isViewLoaded, cellDescription != nil else { return }
        runtime.ledger.measure(owner: owner(.viewTree)) {
            visibleCells.reserveCapacity(visibleRowCount)
            reusePool.reserveCapacity(visibleRowCount + table.reusePoolCapacity)
            for _ in 0..<visibleRowCount { visibleCells.append(dequeueCell()) }
        }
        let laidOut = visibleCells.count * (cellDescription?.viewCount ?? 0)
        runtime.count { $0.viewsLaidOut += laidOut }
    }

    /// Scrolls by `rows` (negative: up), clamped to the table. Cells of rows that leave
    /// go to the reuse pool (or are freed when it is full); rows that enter take a cell
    /// from the pool, or a new one when it is empty.
    ///
    /// - Returns: the rows actually scrolled.
    @discardableResult
    public func scroll(by rows: Int) -> Int {
        let lastFirstRow = max(0, table.rows - visibleRowCount)
        let target = min(max(firstVisibleRow + rows, 0), lastFirstRow)
        let moved = target - firstVisibleRow
        guard moved != 0 else { return 0 }
        reloadDataIfNeeded()
        let count = visibleCells.count
        guard count > 0 else {
            firstVisibleRow = target
            return moved
        }
        runtime.ledger.measure(owner: owner(.viewTree)) {
            // One layout pass, as UITableView's: cells that leave are enqueued first, rows
            // that enter dequeue them, and the pool is trimmed to its capacity at the end.
            let leaving = min(abs(moved), count)
            if moved > 0 {
                reusePool.append(contentsOf: visibleCells.prefix(leaving))
                visibleCells.removeFirst(leaving)
                for _ in 0..<leaving { visibleCells.append(dequeueCell()) }
            } else {
                reusePool.append(contentsOf: visibleCells.suffix(leaving))
                visibleCells.removeLast(leaving)
                var entering: [View] = []
                entering.reserveCapacity(leaving)
                for _ in 0..<leaving { entering.append(dequeueCell()) }
                visibleCells.insert(contentsOf: entering, at: 0)
            }
            if reusePool.count > table.reusePoolCapacity {
                reusePool.removeFirst(reusePool.count - table.reusePoolCapacity)
            }
        }
        firstVisibleRow = target
        return moved
    }

    /// Takes a cell from the pool (configuring it writes its storage again) or builds one.
    private func dequeueCell() -> View {
        if let cell = reusePool.popLast() {
            cellsReused += 1
            cell.prepareForReuse(fill: runtime.contents?[.view])
            return cell
        }
        cellsAllocated += 1
        return View.build(from: cellDescription!, gate: runtime.memoryGate, fill: runtime.contents?[.view])
    }

    private func dropCells() {
        visibleCells = []
        reusePool = []
    }
}
