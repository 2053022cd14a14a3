/// A screen's declaration: what one of its controllers builds and holds.
///
/// Registering a screen with a ``RuntimeContext`` writes its view description (and its
/// model file) into the bundle; every controller of the screen loads from there.
public struct ScreenSpec: Sendable, Equatable {
    /// The screen's name (`[a-z0-9-]+` in scenarios); controllers are `name#instance`.
    public var name: String
    /// The view tree (with the backing stores of its layers).
    public var view: ViewDescription
    /// How many subviews the controller holds strongly (the first ones in preorder
    /// after the root), connected when the view loads, as a nib connects outlets.
    public var outlets: Int
    /// Whether the controller releases its outlets when its view goes (in `viewDidUnload`,
    /// or under iPhone OS 2.2 in its `setView:` override). False models the classic leak.
    public var releasesOutlets: Bool
    /// Purgeable cache bytes, filled when the view appears.
    public var cacheBytes: Int
    /// Recreatable model bytes, read from the model file when the view loads.
    public var modelBytes: Int
    /// The manual unload idiom some iOS 6 apps wrote in `didReceiveMemoryWarning`.
    public var manualUnload: ManualUnloadIdiom
    /// For a table screen: its rows and cells (controllers are ``TableViewController``s).
    public var table: TableSpec?

    /// A screen with each field given; see the properties.
    public init(name: String, view: ViewDescription, outlets: Int = 0, releasesOutlets: Bool = true,
                cacheBytes: Int = 0, modelBytes: Int = 0, manualUnload: ManualUnloadIdiom = .none,
                table: TableSpec? = nil) {
        self.name = name
        self.view = view
        self.outlets = outlets
        self.releasesOutlets = releasesOutlets
        self.cacheBytes = cacheBytes
        self.modelBytes = modelBytes
        self.manualUnload = manualUnload
        self.table = table
    }

    /// Checks sizes and counts; names the screen and the field.
    public func validate() throws(RuntimeError) {
        guard !name.isEmpty, name.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 })
        else { throw .invalidScreen(screen: name, reason: "the name must match [a-z0-9-]+") }
        if outlets < 0 { throw .invalidScreen(screen: name, reason: "outlets is \(outlets); it must be 0 or more") }
        if outlets > view.viewCount - 1 {
            throw .invalidScreen(screen: name,
                                 reason: "outlets is \(outlets) but the tree has only \(view.viewCount - 1) subviews")
        }
        if cacheBytes < 0 { throw .invalidScreen(screen: name, reason: "cache is \(cacheBytes) bytes; it must be 0 or more") }
        if modelBytes < 0 { throw .invalidScreen(screen: name, reason: "model is \(modelBytes) bytes; it must be 0 or more") }
        if let table {
            if table.rows < 0 { throw .invalidScreen(screen: name, reason: "rows is \(table.rows); it must be 0 or more") }
            if table.visibleRows < 1 {
                throw .invalidScreen(screen: name, reason: "visible_rows is \(table.visibleRows); it must be 1 or more")
            }
            if table.reusePoolCapacity < 0 {
                throw .invalidScreen(screen: name, reason: "the reuse pool capacity is \(table.reusePoolCapacity); it must be 0 or more")
            }
        }
    }

    /// Everything one controller of this screen declares when loaded and shown (saturating).
    public var declaredBytes: Int { [view.declaredBytes, cacheBytes, modelBytes].saturatingSum() }

    /// Everything one controller of this screen can allocate: its declared bytes, its tree's
    /// bookkeeping, and for a table the cells alive at once (visible rows plus the reuse
    /// pool, each a whole cell tree). Saturating.
    public var worstCaseBytes: Int {
        var total = [view.worstCaseBytes, cacheBytes, modelBytes].saturatingSum()
        if let table {
            let cells = min(table.visibleRows, table.rows).addingSaturating(table.reusePoolCapacity)
            total = total.addingSaturating(cells.multipliedSaturating(by: table.cell.worstCaseBytes))
        }
        return total
    }
}

/// A table screen's rows and cells.
public struct TableSpec: Sendable, Equatable {
    /// Rows in the table.
    public var rows: Int
    /// Rows on screen at once: the table keeps cells for these only, plus its reuse pool.
    public var visibleRows: Int
    /// The view tree of one cell.
    public var cell: ViewDescription
    /// Cells that scrolled off and wait for reuse (`dequeueReusableCell`).
    public var reusePoolCapacity: Int

    /// The reuse pool UIKit keeps in practice: a couple of cells beyond the visible ones.
    public static let defaultReusePoolCapacity = 2

    /// A table of `rows` rows, `visibleRows` on screen, each cell built from `cell`.
    public init(rows: Int, visibleRows: Int, cell: ViewDescription,
                reusePoolCapacity: Int = TableSpec.defaultReusePoolCapacity) {
        self.rows = rows
        self.visibleRows = visibleRows
        self.cell = cell
        self.reusePoolCapacity = reusePoolCapacity
    }

    /// The name the cell's description is stored under in the bundle.
    static func cellDescriptionName(for screen: String) -> String { "\(screen).cell" }
}

/// The manual unload idiom of iOS 6 apps, in `didReceiveMemoryWarning`.
public enum ManualUnloadIdiom: String, Sendable, Equatable, Codable {
    /// The app does not unload its view by hand.
    case none
    /// `if isViewLoaded && view.window == nil { view = nil }`: correct.
    case checkingIsViewLoaded
    /// `if view.window == nil { view = nil }`: loads an unloaded view just to release it,
    /// so memory rises while the system asks for less (the anti-pattern).
    case withoutCheckingIsViewLoaded
}
