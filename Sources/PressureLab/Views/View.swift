import PressureLabHeap

/// A view: its own storage (real, written heap bytes), a layer, and subviews.
///
/// Views are built from a ``ViewDescription`` by `build(from:)`, as one tree whose memory
/// is kept flat (one array of per-view records): there is no object per view, so building
/// and freeing a tree costs little more than the raw allocations of its payload. A `View`
/// is a reference to one view of a tree, cheap to copy; it keeps the tree object alive.
/// Its payload lives until the tree's owner releases the root (a controller does when its
/// view is released or replaced; a tree no controller owns keeps its payload while any
/// `View` of it lives), except the subtrees outlets hold, which survive the rest of the tree
/// as a retained subview outlives its superview in UIKit. A view whose memory was freed
/// reports ``isReleased``.
///
/// Bookkeeping per tree, measured on Linux x86-64 with jemalloc: one allocation of a
/// 40-byte header and 40 bytes per view, size-class rounded; see
/// ``expectedBookkeepingBytes(for:)``.
public struct View: Hashable {
    let tree: ViewTree
    /// The view's position in its description, in preorder (0 is the root).
    public let index: Int

    init(tree: ViewTree, index: Int) {
        self.tree = tree
        self.index = index
    }

    public static func == (lhs: View, rhs: View) -> Bool { lhs.tree === rhs.tree && lhs.index == rhs.index }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(tree))
        hasher.combine(index)
    }

    /// The bytes a tree costs beyond its payload and bitmaps: its one bookkeeping
    /// allocation (header plus 40 bytes a view), size-class rounded. The measured bytes of a
    /// built tree are its payload (size-class rounded) plus this.
    public static func expectedBookkeepingBytes(for description: ViewDescription) -> Int {
        Heap.sizeClass(for: ViewTree.allocationBytes(viewCount: description.viewCount))
    }

    /// The bytes the views' own storage takes once jemalloc rounds each to its size class.
    public static func allocatedPayloadBytes(for description: ViewDescription) -> Int {
        description.nodes.reduce(0) { $0 + Heap.sizeClass(for: $1.bytes) }
    }

    static func pattern(for index: Int) -> UInt8 { UInt8(truncatingIfNeeded: index &* 31 &+ 0xA5) }

    /// Bytes of the view's own storage.
    public var bytes: Int { tree.withNode(index) { $0.bytes } }

    /// The view's layer, with its backing store.
    public var layer: Layer { Layer(tree: tree, index: index) }

    /// The view's subviews, in order.
    public var subviews: [View] {
        var children: [View] = []
        var child = index + 1
        let end = tree.subtreeEnd(of: index)
        while child < end {
            children.append(View(tree: tree, index: child))
            child = tree.subtreeEnd(of: child)
        }
        return children
    }

    /// The views of this view's subtree, as positions in the tree (preorder).
    var subtreeIndices: Range<Int> { index..<tree.subtreeEnd(of: index) }

    /// The identity of the view's tree (orders views of different trees).
    var treeIdentity: ObjectIdentifier { ObjectIdentifier(tree) }

    /// Whether `other` is this view or one of its descendants.
    func contains(_ other: View) -> Bool { tree === other.tree && subtreeIndices.contains(other.index) }

    /// The views of `views` whose subtrees no other view of `views` (or `covered`) already
    /// contains, in tree and preorder order: a walk over each of their subtrees visits every
    /// view of the union once. Outlets are the first subviews in preorder, so they nest (in a
    /// chain, each inside the one before): walking each outlet's subtree would cost outlets x
    /// depth, where this costs the views once.
    static func outermost(_ views: [View], outside covered: View? = nil) -> [View] {
        let sorted = views.sorted { ($0.treeIdentity, $0.index) < ($1.treeIdentity, $1.index) }
        var result: [View] = []
        for view in sorted {
            if let covered, covered.contains(view) { continue }
            if let last = result.last, last.contains(view) { continue }
            result.append(view)
        }
        return result
    }

    /// Whether nothing keeps the view any more (its tree's root was released and no outlet
    /// holds it): its storage and bitmap are freed for good.
    public var isReleased: Bool { tree.withNode(index) { $0.flags.contains(.released) } }

    /// Whether the view's storage is in a freezer file.
    public var isFrozen: Bool { tree.withNode(index) { $0.flags.contains(.storageFrozen) } }

    /// Writes the storage to `file` and frees it. Returns false on a write error.
    func freezeStorage(to file: any PageStore) -> Bool {
        let bytes = self.bytes
        return tree.withNode(index) { node in
            guard let storage = node.storage else { return true }
            guard PageOut.freeze(storage, count: bytes, to: file) else { return false }
            node.storage = nil
            node.flags.insert(.storageFrozen)
            return true
        }
    }

    /// Runs `move` with the storage's bytes if it is paged out (its bytes are next in the pool's region).
    func relocateFrozenStorage(_ move: (Int) -> Bool) -> Bool {
        let bytes = self.bytes
        return tree.withNode(index) { node in
            node.flags.contains(.storageFrozen) && bytes > 0 ? move(bytes) : true
        }
    }

    /// Reads the storage back from `file`.
    func thawStorage(from file: any PageStore) -> Bool {
        let bytes = self.bytes
        return tree.withNode(index) { node in
            guard node.flags.contains(.storageFrozen) else { return true }
            guard let memory = PageOut.thaw(count: bytes, from: file) else { return false }
            node.storage = memory
            node.flags.remove(.storageFrozen)
            return true
        }
    }

    /// Rewrites the view's storage, as configuring a reused table cell does.
    public func prepareForReuse(fill: ContentFill? = nil) {
        let bytes = self.bytes
        let pattern = View.pattern(for: index)
        let salt = UInt64(index)
        tree.withNode(index) { node in
            guard let storage = node.storage else { return }
            if let fill {
                storage.fill(count: bytes, with: fill, salt: salt)
            } else {
                storage.fill(count: bytes, pattern: pattern)
            }
        }
    }

    /// A checksum of the view's own storage.
    public func storageChecksum() -> UInt64 {
        let bytes = self.bytes
        return tree.withNode(index) { node in
            node.storage?.checksum(count: bytes) ?? RawMemory.checksumOfNothing
        }
    }
}

extension View {
    /// Builds the tree a description declares; every byte of every view is written.
    ///
    /// The returned root owns the tree: its payload lives until the tree is released (by
    /// the controller whose view it is) or the last reference to the tree is gone. Backing
    /// stores are not drawn here: they are drawn when the tree is first shown.
    /// - Complexity: O(views + payload bytes), no recursion; one allocation besides the
    ///   payload.
    /// - Parameters:
    ///   - description: the tree to build, as decoded from a view description file.
    ///   - gate: the app's memory gate: the payload is admitted as one allocation;
    ///     refused, the views are built without storage (the app is being killed).
    ///   - fill: realistic contents for the payload; nil: a constant pattern.
    public static func build(from description: ViewDescription, gate: MemoryGate? = nil, fill: ContentFill? = nil) -> View {
        View(tree: ViewTree.build(description, gate: gate, fill: fill), index: 0)
    }

    /// Visits the view and every view below it, in preorder, without recursion.
    public func forEachInTree(_ body: (View) throws -> Void) rethrows {
        for position in subtreeIndices { try body(View(tree: tree, index: position)) }
    }

    /// Frees the backing stores of the tree, skipping the subtrees rooted at `spared` views.
    ///
    /// - Returns: the number of backing stores freed.
    @discardableResult
    public func purgeBackingStoresInTree(sparing spared: [View]) -> Int {
        // Spared subtrees in preorder: one sweep skips each (and any nested in it).
        let skipped = spared.lazy.filter { $0.tree === tree }.map(\.subtreeIndices).sorted { $0.lowerBound < $1.lowerBound }
        var purged = 0
        var position = index
        let end = tree.subtreeEnd(of: index)
        var nextSkip = 0
        while position < end {
            while nextSkip < skipped.count, skipped[nextSkip].upperBound <= position { nextSkip += 1 }
            if nextSkip < skipped.count, skipped[nextSkip].contains(position) {
                position = skipped[nextSkip].upperBound
                continue
            }
            if Layer(tree: tree, index: position).purgeBackingStore() { purged += 1 }
            position += 1
        }
        return purged
    }

    /// The number of views in the tree rooted here.
    public var treeCount: Int { subtreeIndices.count }

    /// The views of the tree, in preorder.
    public var treeInPreorder: [View] { subtreeIndices.map { View(tree: tree, index: $0) } }
}
