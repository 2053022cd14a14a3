/// Ready-made tree shapes: one view, deep chains, wide rows, full trees, exact counts.
extension ViewDescription {
    /// A single view.
    public static func single(bytes: Int, backing: Int = 0) throws(ViewDescriptionError) -> ViewDescription {
        try ViewDescription(nodes: [Node(bytes: bytes, backingBytes: backing)])
    }

    /// A full tree: `depth` levels below the root, each view with `fanout` children.
    ///
    /// `tree(depth: 0, ...)` is a single view; `tree(depth: 3, fanout: 4, ...)` has 85.
    public static func tree(depth: Int, fanout: Int, bytes: Int, rootBacking: Int = 0)
        throws(ViewDescriptionError) -> ViewDescription
    {
        guard depth >= 0 else { throw .negativeSize(view: 0, field: "depth", value: depth) }
        guard fanout >= 0 else { throw .negativeSize(view: 0, field: "fanout", value: fanout) }
        var count = 1, level = 1
        for _ in 0..<depth {
            let (next, overflow) = level.multipliedReportingOverflow(by: fanout)
            guard !overflow, count + next <= ViewDescription.maximumViewCount else {
                throw .tooManyViews(limit: ViewDescription.maximumViewCount)
            }
            level = next
            count += level
        }
        var nodes: [Node] = []
        nodes.reserveCapacity(count)
        func append(level: Int) {
            nodes.append(Node(bytes: bytes, childCount: level < depth ? fanout : 0))
            if level < depth { for _ in 0..<fanout { append(level: level + 1) } }
        }
        append(level: 0)
        nodes[0].backingBytes = rootBacking
        return try ViewDescription(nodes: nodes)
    }

    /// A chain: each view has one subview; `count` views in all.
    public static func deep(count: Int, bytes: Int, rootBacking: Int = 0) throws(ViewDescriptionError) -> ViewDescription {
        guard count >= 1 else { throw .negativeSize(view: 0, field: "count", value: count) }
        try checkCount(count)
        var nodes = [Node](repeating: Node(bytes: bytes, childCount: 1), count: count)
        nodes[count - 1].childCount = 0
        nodes[0].backingBytes = rootBacking
        return try ViewDescription(nodes: nodes)
    }

    /// A root with `count - 1` direct subviews.
    public static func wide(count: Int, bytes: Int, rootBacking: Int = 0) throws(ViewDescriptionError) -> ViewDescription {
        guard count >= 1 else { throw .negativeSize(view: 0, field: "count", value: count) }
        try checkCount(count)
        var nodes = [Node](repeating: Node(bytes: bytes), count: count)
        nodes[0].childCount = count - 1
        nodes[0].backingBytes = rootBacking
        return try ViewDescription(nodes: nodes)
    }

    /// Exactly `count` views, filled level by level with up to `fanout` children each.
    public static func balanced(count: Int, fanout: Int, bytes: Int, rootBacking: Int = 0)
        throws(ViewDescriptionError) -> ViewDescription
    {
        guard count >= 1 else { throw .negativeSize(view: 0, field: "count", value: count) }
        guard fanout >= 1 else { throw .negativeSize(view: 0, field: "fanout", value: fanout) }
        try checkCount(count)
        // Breadth-first numbering: view i's children are fanout*i+1 ... fanout*i+fanout.
        func childCount(_ index: Int) -> Int {
            max(0, min(fanout, count - (fanout * index + 1)))
        }
        var nodes: [Node] = []
        nodes.reserveCapacity(count)
        var stack = [0]
        while let index = stack.popLast() {
            let children = childCount(index)
            nodes.append(Node(bytes: bytes, childCount: children))
            for child in stride(from: fanout * index + children, through: fanout * index + 1, by: -1) {
                stack.append(child)
            }
        }
        nodes[0].backingBytes = rootBacking
        return try ViewDescription(nodes: nodes)
    }

    /// The most views a description may have (the file format and the host set no
    /// lower bound; this keeps a typo from building a billion views).
    public static let maximumViewCount = 10_000_000

    private static func checkCount(_ count: Int) throws(ViewDescriptionError) {
        guard count <= maximumViewCount else { throw .tooManyViews(limit: maximumViewCount) }
    }
}
