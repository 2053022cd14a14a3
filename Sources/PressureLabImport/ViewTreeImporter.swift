import PressureLab
import PressureLabHarness
import Foundation

/// A dumped view hierarchy as a screen (docs/importing.md, `views`): the views counted, the
/// shape said (depth, fanout by node), backing stores from the frames of the views that
/// draw, table and collection cells as a table screen.
package enum ViewTreeImporter {
    /// What a view is assumed to hold (the view and its layer objects): an assumption, not a
    /// measurement, said in the scenario's comment.
    package static let bytesPerView = 1024
    /// The display scale without `--scale`: 3, the iPhone XS's (Apple's iPhone XS tech specs:
    /// 458 ppi, 3x), the default profile's device.
    package static let defaultScale = 3.0

    /// The largest fanout the scenario reader takes (`tree: { fanout: }`): a wider mean is
    /// written as this, and said.
    package static let maximumFanout = 10_000

    /// Class names of UIKit views that draw their own content into a backing store.
    static let drawingClasses = ["Label", "TextView", "TextField", "ImageView"]

    /// Whether a view draws: a visible view of non-zero, positive size that is a label, a
    /// text view or field or an image view, or an app's own leaf view (a custom `draw(_:)`).
    static func draws(_ view: DumpedView, isLeaf: Bool) -> Bool {
        guard view.width > 0, view.height > 0 else { return false }
        if let decided = view.drawsOverride { return decided }
        if view.names.contains(where: { name in drawingClasses.contains { name.contains($0) } }) { return true }
        let system = ["UI", "_UI", "NS", "CA", "_"].contains { view.className.hasPrefix($0) }
        return isLeaf && !system
    }

    /// Whether a view is a table or collection cell (itself, not its content view).
    static func isCell(_ view: DumpedView) -> Bool {
        if let decided = view.isCellOverride { return decided }
        return view.names.contains { $0.hasSuffix("TableViewCell") || $0.hasSuffix("CollectionViewCell") || $0.hasSuffix("Cell") }
    }

    /// Bytes of a backing store for a frame: whole pixels at `scale`, 4 bytes a pixel.
    package static func backingBytes(_ view: DumpedView, scale: Double) -> Int {
        Int((view.width * scale).rounded(.up)) * Int((view.height * scale).rounded(.up)) * 4
    }

    /// The screen `name` from `views` (preorder), read from `text`; frames at `scale`.
    package static func screen(_ views: [DumpedView], name: String, scale: Double, text: DumpText,
                              unit: String = "pt") -> ImportedScenario.Screen {
        let count = views.count
        var childCount = [Int](repeating: 0, count: count)
        var subtreeEnd = [Int](repeating: count, count: count)
        var effectiveHidden = [Bool](repeating: false, count: count)
        var parentOf = [Int](repeating: -1, count: count)
        var stack: [Int] = []
        for index in 0..<count {
            while let top = stack.last, views[top].depth >= views[index].depth { subtreeEnd[top] = index; stack.removeLast() }
            if let parent = stack.last {
                childCount[parent] += 1
                parentOf[index] = parent
                effectiveHidden[index] = effectiveHidden[parent]
            }
            effectiveHidden[index] = effectiveHidden[index] || views[index].hidden
            stack.append(index)
        }
        let roots = views.filter { $0.depth == 0 }.count
        // Outermost cells and the views inside them.
        var inCell = [Bool](repeating: false, count: count)
        var cells: [Int] = []
        var index = 0
        while index < count {
            if isCell(views[index]) {
                cells.append(index)
                for inner in index..<subtreeEnd[index] { inCell[inner] = true }
                index = subtreeEnd[index]
            } else {
                index += 1
            }
        }
        var screen = ImportedScenario.Screen(name: name, views: 0, fanout: 1, bytesPerView: bytesPerView)
        let treeViews = (0..<count).filter { !inCell[$0] }
        screen.views = treeViews.count + (roots > 1 ? 1 : 0)
        // Each parent's children outside cells, counted in one pass (linear in the views: a
        // walk over each parent's subtree was quadratic in a deep tree).
        var treeChildCount = [Int](repeating: 0, count: count)
        for index in treeViews where parentOf[index] >= 0 { treeChildCount[parentOf[index]] += 1 }
        let treeChildren = treeViews.filter { childCount[$0] > 0 }.map { treeChildCount[$0] }
        let mean = treeChildren.isEmpty ? 1.0 : Double(treeChildren.reduce(0, +)) / Double(treeChildren.count)
        screen.fanout = max(1, Int(mean.rounded()))
        if screen.fanout > maximumFanout {
            screen.notes.append("Fanout \(screen.fanout) (the mean) is more than the \(maximumFanout) a scenario's tree may have: "
                + "written as \(maximumFanout); the view count is the dump's.")
            screen.fanout = maximumFanout
        }
        let depth = views.map(\.depth).max() ?? 0
        let shape = treeViews.prefix(64).map { String(childCount[$0]) }.joined(separator: " ")
        screen.treeOrigins = [
            "\(treeViews.count) views outside cells (\(span(views.first!, views.last!, text))), \(roots) window\(roots == 1 ? "" : "s")"
                + (roots > 1 ? " under one added root view" : "") + ", depth \(depth + (roots > 1 ? 1 : 0)); fanout by node (preorder"
                + (treeViews.count > 64 ? ", first 64" : "") + "): \(shape).",
            "The reader builds a balanced tree of that many views with fanout \(screen.fanout) (the mean of the views with subviews): "
                + "the count is the dump's, the shape is not.",
            "\(bytesPerView) B a view is assumed (a view and its layer objects), not measured.",
        ]
        var backing = ImportedScenario.Figure(bytes: 0, origins: [])
        var drawn = 0, skippedHidden = 0, skippedEmpty = 0
        for index in treeViews {
            if effectiveHidden[index] { skippedHidden += 1; continue }
            let view = views[index]
            if view.width <= 0 || view.height <= 0 { skippedEmpty += 1; continue }
            guard draws(view, isLeaf: childCount[index] == 0) else { continue }
            let bytes = backingBytes(view, scale: scale)
            drawn += 1
            backing.bytes += bytes
            if backing.origins.count < 24 {
                backing.origins.append("\(origin(view, text)) \(view.className) \(format(view.width))x\(format(view.height)) \(unit) = \(bytes) B")
            }
        }
        let kinds = unit == "pt" ? "labels, text views and fields, image views, app leaf views"
            : "TextView, ImageView, Button, EditText and their kinds, app leaf views"
        backing.origins.insert("Backing stores: \(drawn) views that draw (\(kinds)), "
            + "visible and of positive size; each \(unit == "pt" ? "w x h x scale^2 (\(format(scale)))" : "w x h px") x 4 B.", at: 0)
        if drawn > 23 { backing.origins.append("... and \(drawn - 23) more drawing views") }
        let hiddenBy = unit == "pt" ? "hidden = YES or alpha = 0" : "visible-to-user=\"false\""
        backing.origins.append("Not drawn: \(skippedHidden) hidden (\(hiddenBy), or inside one), \(skippedEmpty) of zero or negative size.")
        screen.backing = backing
        if !cells.isEmpty { screen.table = table(views, cells: cells, subtreeEnd: subtreeEnd, hidden: effectiveHidden, scale: scale, text: text) }
        return screen
    }

    /// The cells as a table: visible rows, rows from the scroll view's content height, and
    /// the mean cell (views, and bytes with its drawn backing).
    static func table(_ views: [DumpedView], cells: [Int], subtreeEnd: [Int], hidden: [Bool], scale: Double,
                      text: DumpText) -> ImportedScenario.Table {
        let visible = cells.filter { !hidden[$0] }
        let counted = visible.isEmpty ? cells : visible
        let cellViews = counted.map { subtreeEnd[$0] - $0 }
        let meanViews = max(1, Int((Double(cellViews.reduce(0, +)) / Double(counted.count)).rounded()))
        var cellBacking = 0
        for cell in counted {
            for inner in cell..<subtreeEnd[cell] where !hidden[inner] && draws(views[inner], isLeaf: inner + 1 == subtreeEnd[inner]) {
                cellBacking += backingBytes(views[inner], scale: scale)
            }
        }
        let meanBacking = cellBacking / counted.count
        let cellHeight = counted.map { views[$0].height }.reduce(0, +) / Double(counted.count)
        // The scroll view the cells scroll in: the nearest enclosing table or collection view
        // (by class or baseClass), not iOS 7 to 10's inner UITableViewWrapperView, whose own
        // contentSize is about its frame; else the nearest scroll view with a contentSize.
        let enclosing = ancestors(of: cells[0], in: views).filter { views[$0].contentHeight != nil }
        let owner = enclosing.first { views[$0].names.contains { $0.hasSuffix("TableView") || $0.hasSuffix("CollectionView") } }
            ?? enclosing.first { !views[$0].className.hasSuffix("WrapperView") } ?? enclosing.first
        var rows = counted.count
        var rowsOrigin = "rows: the \(counted.count) cells in the dump (\(views[cells[0]].isCellOverride == nil ? "no contentSize" : "uiautomator prints no item count"))"
        if let owner, let height = views[owner].contentHeight, cellHeight > 0 {
            rows = max(counted.count, min(100_000_000, Int((height / cellHeight).rounded())))
            rowsOrigin = "rows: contentSize height \(format(height)) / mean cell height \(format(cellHeight)) (\(text.origin(views[owner].line)))"
        }
        return ImportedScenario.Table(
            rows: rows, visibleRows: min(1000, counted.count), cellViews: min(1000, meanViews),
            cellBytes: meanViews * bytesPerView + meanBacking,
            origins: ["Table: \(counted.count) visible cells (\(cells.count - counted.count) hidden), first \(origin(views[cells[0]], text)); "
                      + rowsOrigin + ".",
                      "A cell: \(meanViews) views (the mean) x \(bytesPerView) B + \(meanBacking) B of backing stores (the mean drawn)."])
    }

    /// The views enclosing `index`, nearest first.
    static func ancestors(of index: Int, in views: [DumpedView]) -> [Int] {
        var result: [Int] = []
        var depth = views[index].depth
        var current = index
        while depth > 0, current > 0 {
            current -= 1
            if views[current].depth < depth {
                result.append(current)
                depth = views[current].depth
            }
        }
        return result
    }

    /// `FILE:LINE`, or `FILE:LINE:COLUMN` for a dump printed on one line.
    static func origin(_ view: DumpedView, _ text: DumpText) -> String {
        text.origin(view.line) + (view.column.map { ":\($0)" } ?? "")
    }

    /// `FILE:FIRST-LAST` lines, or `FILE:LINE:COLUMN-LINE:COLUMN` for a dump on one line.
    static func span(_ first: DumpedView, _ last: DumpedView, _ text: DumpText) -> String {
        guard let start = first.column, let end = last.column else { return "\(text.path):\(first.line)-\(last.line)" }
        return "\(text.path):\(first.line):\(start)-\(last.line):\(end)"
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
