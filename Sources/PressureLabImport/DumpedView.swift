import PressureLab
import PressureLabHarness

/// One view of a dumped hierarchy, in preorder: its depth, class, frame and line.
package struct DumpedView: Sendable, Equatable {
    package var depth: Int
    /// The class as printed (`UILabel`, `MyApp.FeedCell`), and UIKit's `baseClass` when given.
    package var className: String
    package var baseClass: String?
    /// The frame's size in points (UIKit) or pixels (Android); negative as printed.
    package var width: Double
    package var height: Double
    /// `hidden = YES` or `alpha = 0`: nothing of it is drawn.
    package var hidden: Bool
    package var line: Int
    /// A scroll view's content height (`contentSize: {w, h}`), when printed.
    package var contentHeight: Double?
    /// The column of the view in its line, for dumps printed on one line (uiautomator's).
    package var column: Int?
    /// Whether it draws, or is a cell, when the reader decides (uiautomator's classes); nil:
    /// UIKit's rules in ``ViewTreeImporter``.
    package var drawsOverride: Bool?
    package var isCellOverride: Bool?

    package init(depth: Int, className: String, baseClass: String? = nil, width: Double, height: Double, hidden: Bool, line: Int,
                contentHeight: Double? = nil, column: Int? = nil, drawsOverride: Bool? = nil, isCellOverride: Bool? = nil) {
        self.depth = depth
        self.className = className
        self.baseClass = baseClass
        self.width = width
        self.height = height
        self.hidden = hidden
        self.line = line
        self.contentHeight = contentHeight
        self.column = column
        self.drawsOverride = drawsOverride
        self.isCellOverride = isCellOverride
    }

    /// The class and base class, for matching (`TableViewCell`, `Label`).
    var names: [String] { [className] + (baseClass.map { [$0] } ?? []) }
}
