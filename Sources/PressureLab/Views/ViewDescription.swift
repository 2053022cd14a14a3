/// The shape and sizes of a view tree: the analogue of a nib.
///
/// Nodes are stored flat, in preorder (a node, then each of its subtrees in turn), each
/// with its own storage bytes, its layer's backing-store bytes and its number of
/// children. A description is written to a file in a ``ViewBundle`` and read back
/// by `loadView`, which is what makes a view reload cost real I/O and decoding.
///
/// ```swift
/// let detail = try ViewDescription.tree(depth: 3, fanout: 4, bytes: 2048, rootBacking: 9 << 20)
/// detail.viewCount        // 85
/// detail.declaredBytes    // 85 * 2048 + 9 MiB
/// ```
public struct ViewDescription: Sendable, Equatable {
    /// One view of the tree.
    public struct Node: Sendable, Equatable {
        /// Bytes of the view's own storage.
        public var bytes: Int
        /// Bytes of the backing store of the view's layer (0: the layer draws nothing).
        public var backingBytes: Int
        /// How many subviews follow this node (in preorder).
        public var childCount: Int

        /// A node of `bytes`, a backing store of `backingBytes`, and `childCount` subviews after it.
        public init(bytes: Int, backingBytes: Int = 0, childCount: Int = 0) {
            self.bytes = bytes
            self.backingBytes = backingBytes
            self.childCount = childCount
        }
    }

    /// The views in preorder; the first is the root.
    public let nodes: [Node]
    /// For each view, the index just past its subtree (its subtree is `index..<end`).
    let subtreeEnds: [Int32]

    /// Creates a description from preorder nodes, checking sizes and structure.
    ///
    /// - Throws: ``ViewDescriptionError`` naming the first bad node.
    public init(nodes: [Node]) throws(ViewDescriptionError) {
        try ViewDescription.validate(nodes)
        self.init(validatedNodes: nodes)
    }

    /// Nodes already validated (by the decoder).
    init(validatedNodes: [Node]) {
        self.nodes = validatedNodes
        self.subtreeEnds = ViewDescription.subtreeEnds(of: validatedNodes)
        var payload = 0, backing = 0
        for index in validatedNodes.indices {
            payload = payload.addingSaturating(validatedNodes[index].bytes)
            backing = backing.addingSaturating(validatedNodes[index].backingBytes)
        }
        self.payloadBytes = payload
        self.backingBytes = backing
    }

    /// Where each subtree ends, from a reverse pass that adds up subtree sizes.
    private static func subtreeEnds(of nodes: [Node]) -> [Int32] {
        var ends = [Int32](repeating: 0, count: nodes.count)
        var sizes: [Int] = []  // subtree sizes of the nodes after the current one, innermost last
        for index in stride(from: nodes.count - 1, through: 0, by: -1) {
            var size = 1
            for _ in 0..<nodes[index].childCount { size += sizes.removeLast() }
            sizes.append(size)
            ends[index] = Int32(truncatingIfNeeded: index + size)
        }
        return ends
    }

    /// The number of views in the tree.
    public var viewCount: Int { nodes.count }

    /// The bytes of the views' own storage (saturating: a hostile size clamps to `Int.max`).
    /// Added up once, when the description is made: every view load asks for it.
    public let payloadBytes: Int

    /// The bytes of every layer's backing store, drawn when the tree is first shown.
    public let backingBytes: Int

    /// Everything the tree declares: payload plus backing stores (saturating).
    public var declaredBytes: Int { payloadBytes.addingSaturating(backingBytes) }

    /// Everything building and drawing the tree allocates: payload, backing stores and the
    /// tree's bookkeeping (saturating).
    public var worstCaseBytes: Int {
        declaredBytes.addingSaturating(ViewTree.allocationBytes(viewCount: viewCount))
    }

    /// Throws unless every size is non-negative and the child counts form exactly one tree.
    static func validate(_ nodes: [Node]) throws(ViewDescriptionError) {
        guard !nodes.isEmpty else { throw .empty }
        guard nodes.count <= maximumViewCount else { throw .tooManyViews(limit: maximumViewCount) }
        var open = 1  // subtrees still expected
        for (index, node) in nodes.enumerated() {
            if node.bytes < 0 { throw .negativeSize(view: index, field: "bytes", value: node.bytes) }
            if node.backingBytes < 0 {
                throw .negativeSize(view: index, field: "backing", value: node.backingBytes)
            }
            if node.childCount < 0 {
                throw .negativeSize(view: index, field: "children", value: node.childCount)
            }
            guard open > 0 else { throw .malformedTree(view: index, reason: "view is outside the tree") }
            // Checked before adding: a hostile child count (up to Int.max) must not overflow.
            guard node.childCount <= nodes.count - index - 1 else {
                throw .malformedTree(view: index,
                                     reason: "declares \(node.childCount) children but only \(nodes.count - index - 1) views follow")
            }
            open += node.childCount - 1
            guard open <= nodes.count - index - 1 else {
                throw .malformedTree(view: index,
                                     reason: "declares \(node.childCount) children but only \(nodes.count - index - 1) views follow")
            }
        }
        guard open == 0 else { throw .malformedTree(view: nodes.count - 1, reason: "\(open) subtrees are missing") }
    }

    /// Throws when the tree would take more than `limit` bytes (a share of the host's memory).
    public func checkFits(in limit: Int) throws(ViewDescriptionError) {
        let declared = declaredBytes
        guard declared <= limit else { throw .tooLargeForHost(declaredBytes: declared, limitBytes: limit) }
    }
}
