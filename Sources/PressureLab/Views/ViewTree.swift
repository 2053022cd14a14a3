import PressureLabHeap

/// The memory of one built view tree: for every view its own storage and its layer's
/// backing store, kept in one allocation with the tree's header (no object per view).
///
/// What keeps a view's memory allocated:
/// - the tree's root, until its owner lets go of it (``releaseRoot()``; a controller
///   does when its view is released or replaced);
/// - holds on subtrees (``SubtreeHold``: a controller's outlets), which keep the views
///   of their subtree after the root is released, as a retained subview outlives its
///   superview in UIKit.
///
/// Memory that nothing keeps any more is freed at once. Whatever is still allocated is
/// freed when the tree object itself goes (the last ``View`` referring to it is gone).
final class ViewTree: ManagedBuffer<ViewTree.Header, ViewTree.Node> {
    struct Header {
        /// The number of views.
        let count: Int
        /// The first view of each held subtree, one entry per hold; nil until the first hold,
        /// so that freeing a tree nothing ever held releases no array (an empty array's
        /// release is a runtime call, a fifth of the instructions of a one-view tree's free).
        var holds: [Int32]? = nil
        /// Whether the tree's owner still holds the root (and so every view).
        var rootHeld = true
        /// Whether a controller owns the tree (its view is the root).
        var claimed = false
    }

    /// One view: its declared sizes, where its subtree ends, and its live memory.
    struct Node {
        var storage: RawMemory?
        var backingStore: RawMemory?
        /// Bytes of the view's own storage.
        let bytes: Int
        /// Bytes of the layer's bitmap when drawn.
        let backingBytes: Int
        /// The index just past the view's subtree (its subtree is `index..<subtreeEnd`).
        let subtreeEnd: Int32
        var flags: Flags
    }

    struct Flags: OptionSet {
        let rawValue: UInt8
        /// The view's storage is in a freezer file.
        static let storageFrozen = Flags(rawValue: 1)
        /// The layer's bitmap is in a freezer file.
        static let backingFrozen = Flags(rawValue: 2)
        /// Nothing keeps the view any more: its memory is freed for good.
        static let released = Flags(rawValue: 4)
    }

    /// Builds the tree `description` declares: every view's storage is allocated and
    /// written. Bitmaps are drawn later, when the tree is shown.
    ///
    /// The payload is admitted by `gate` as one allocation; when it is refused (the app is
    /// being killed) or the host has no memory, the views are built without storage.
    ///
    /// - Complexity: O(views + payload bytes); one allocation besides the payload.
    static func build(_ description: ViewDescription, gate: MemoryGate? = nil, fill: ContentFill? = nil) -> ViewTree {
        let count = description.nodes.count
        let admitted = gate?.admit(description.payloadBytes) ?? true
        let tree = unsafeDowncast(ViewTree.create(minimumCapacity: count) { _ in Header(count: count) }, to: ViewTree.self)
        let failed = tree.withNodes { nodes in
            description.nodes.withUnsafeBufferPointer { declared in
                description.subtreeEnds.withUnsafeBufferPointer { ends in
                    if !admitted {
                        initializeWithoutStorage(nodes, declared: declared, ends: ends)
                        return 0
                    }
                    if let fill { return initializeFilled(nodes, declared: declared, ends: ends, fill: fill) }
                    return initializeTouched(nodes, declared: declared, ends: ends)
                }
            }
        }
        if failed > 0 { HeapBlock.noteHostFailure(bytes: failed, gate: gate) }
        return tree
    }

    /// The views' records without storage (the payload was refused).
    @inline(never)
    private static func initializeWithoutStorage(_ nodes: UnsafeMutablePointer<Node>, declared: UnsafeBufferPointer<ViewDescription.Node>,
                                                 ends: UnsafeBufferPointer<Int32>) {
        for index in declared.indices {
            (nodes + index).initialize(to: Node(storage: nil, backingStore: nil, bytes: declared[index].bytes,
                                                backingBytes: declared[index].backingBytes, subtreeEnd: ends[index], flags: []))
        }
    }

    /// The views' records, each view's storage written with `fill`'s contents. Returns the
    /// bytes of a view the host had no memory for (0 when none).
    @inline(never)
    private static func initializeFilled(_ nodes: UnsafeMutablePointer<Node>, declared: UnsafeBufferPointer<ViewDescription.Node>,
                                         ends: UnsafeBufferPointer<Int32>, fill: ContentFill) -> Int {
        var failed = 0
        for index in declared.indices {
            let bytes = declared[index].bytes
            // What `RawMemory.allocate(_:filledBy:pattern:salt:)` does with a fill, without its
            // optional: binding it retained and released the fill once a view.
            let storage = RawMemory.allocate(bytes)
            storage?.fill(count: bytes, with: fill, salt: UInt64(index))
            if storage == nil, bytes > 0 { failed = bytes }
            (nodes + index).initialize(to: Node(storage: storage, backingStore: nil, bytes: bytes,
                                                backingBytes: declared[index].backingBytes, subtreeEnd: ends[index], flags: []))
        }
        return failed
    }

    /// The views' records, each view's storage written with its pattern: the path of every
    /// tree built without realistic contents, kept to one `malloc` and one `memset` a view and
    /// the record's stores. A record is written before its view's allocation, so that little
    /// is kept across the calls. Returns the bytes of a view the host had no memory for (0
    /// when none).
    @inline(__always)
    private static func initializeTouched(_ nodes: UnsafeMutablePointer<Node>, declared: UnsafeBufferPointer<ViewDescription.Node>,
                                          ends: UnsafeBufferPointer<Int32>) -> Int {
        var failed = 0
        for index in declared.indices {
            let node = nodes + index
            node.initialize(to: Node(storage: nil, backingStore: nil, bytes: declared[index].bytes,
                                     backingBytes: declared[index].backingBytes, subtreeEnd: ends[index], flags: []))
            let bytes = node.pointee.bytes
            let storage = bytes < RawMemory.pieceMinimum
                ? (bytes > 0 ? RawMemory.allocateSmall(bytes, touchedWith: View.pattern(for: index)) : nil)
                : allocateLarge(bytes, index: index)
            if let storage {
                node.pointee.storage = storage
            } else if bytes > 0 {
                failed = bytes
            }
        }
        return failed
    }

    /// A view's storage of ``RawMemory/pieceMinimum`` bytes or more, written with its pattern
    /// (kept out of the loop above).
    @inline(never)
    private static func allocateLarge(_ bytes: Int, index: Int) -> RawMemory? {
        RawMemory.allocate(bytes, touchedWith: View.pattern(for: index))
    }

    deinit {
        let count = self.count
        withNodes { nodes in
            for index in 0..<count {
                nodes[index].storage?.release()
                nodes[index].backingStore?.release()
            }
            nodes.deinitialize(count: count)
        }
    }

    /// Heap bytes of a tree of `viewCount` views besides its payload and bitmaps, before
    /// jemalloc rounds it to a size class: object header, tree header (40 bytes together),
    /// one 40-byte node per view.
    static func allocationBytes(viewCount: Int) -> Int {
        let objectHeader = 16
        let headerEnd = objectHeader + MemoryLayout<Header>.size
        let alignment = MemoryLayout<Node>.alignment
        let nodesOffset = (headerEnd + alignment - 1) / alignment * alignment
        return nodesOffset + viewCount * MemoryLayout<Node>.stride
    }

    // MARK: - Views

    /// Reads or changes the header, reached without the dynamic exclusivity check that
    /// `header` costs on every access (a tree is used by one thread at a time). The header is
    /// lent to `body` only; no pointer to it leaves (docs/architecture.md, "Unsafe code").
    /// `body` must not reach the header again (through another call on this tree).
    @inline(__always)
    private func withHeader<Result>(_ body: (inout Header) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointerToHeader { header in try body(&header.pointee) }
    }

    /// Lends the views' records to `body`, the same way: the pointer is valid inside `body`
    /// only.
    @inline(__always)
    private func withNodes<Result>(_ body: (UnsafeMutablePointer<Node>) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointerToElements(body)
    }

    /// The number of views.
    var count: Int { withHeader { $0.count } }

    /// Reads or changes one view.
    @inline(__always)
    func withNode<Result>(_ index: Int, _ body: (inout Node) throws -> Result) rethrows -> Result {
        precondition(index >= 0 && index < count, "view \(index) is outside a tree of \(count)")
        return try withNodes { nodes in try body(&nodes[index]) }
    }

    /// The index just past the subtree of `index`.
    @inline(__always)
    func subtreeEnd(of index: Int) -> Int { Int(withNode(index) { $0.subtreeEnd }) }

    // MARK: - What keeps the memory

    /// Whether the root is still held (so no view of the tree is released yet).
    var isRootHeld: Bool { withHeader { $0.rootHeld } }

    /// Whether a controller owns the tree.
    var isClaimed: Bool { withHeader { $0.claimed } }

    /// A controller takes the tree as its view's.
    func claim() { withHeader { $0.claimed = true } }

    /// The root's owner lets go: every view that no hold keeps is freed now.
    func releaseRoot() {
        let wasHeld = withHeader { header in
            defer { header.rootHeld = false }
            return header.rootHeld
        }
        guard wasHeld else { return }
        freeUnheld(in: 0..<count)
    }

    /// Makes room for `count` more holds at once (a controller connecting its outlets).
    func reserveHolds(_ count: Int) {
        withHeader { header in
            header.holds = header.holds ?? []
            header.holds!.reserveCapacity(header.holds!.count + count)
        }
    }

    /// Keeps the subtree of `index` (until the matching ``unhold(_:)``).
    func hold(_ index: Int) {
        precondition(index >= 0 && index < count, "view \(index) is outside a tree of \(count)")
        withHeader { header in
            if header.holds == nil { header.holds = [] }
            header.holds!.append(Int32(truncatingIfNeeded: index))
        }
    }

    /// Drops one hold on the subtree of `index`; frees what nothing else keeps.
    func unhold(_ index: Int) {
        let rootHeld: Bool? = withHeader { header in
            guard let position = header.holds?.firstIndex(of: Int32(truncatingIfNeeded: index)) else { return nil }
            header.holds!.remove(at: position)
            return header.rootHeld
        }
        guard rootHeld == false, !isHeld(index) else { return }
        freeUnheld(in: index..<subtreeEnd(of: index))
    }

    /// Drops one hold on each of `indices` at once, then frees what nothing keeps: one pass
    /// over the tree instead of a search of every remaining hold per index.
    func unholdAll(_ indices: [Int]) {
        guard !indices.isEmpty else { return }
        let removing = indices.map { Int32(truncatingIfNeeded: $0) }.sorted()
        let held = (withHeader { $0.holds } ?? []).sorted()
        var kept: [Int32] = []
        kept.reserveCapacity(max(0, held.count - removing.count))
        var next = 0
        for start in held {
            while next < removing.count, removing[next] < start { next += 1 }  // not held: nothing to drop
            if next < removing.count, removing[next] == start {
                next += 1
            } else {
                kept.append(start)
            }
        }
        let rootHeld = withHeader { header in
            header.holds = kept
            return header.rootHeld
        }
        if !rootHeld { freeUnheld(in: 0..<count) }
    }

    /// Whether a hold keeps `index` (it starts a held subtree or lies inside one).
    func isHeld(_ index: Int) -> Bool {
        (withHeader { $0.holds } ?? []).contains { start in Int(start) <= index && index < subtreeEnd(of: Int(start)) }
    }

    /// Frees the views of `range` that no hold keeps (held subtrees are skipped whole).
    private func freeUnheld(in range: Range<Int>) {
        var heldStarts: [Int] = []
        for start in withHeader({ $0.holds }) ?? [] where range.contains(Int(start)) { heldStarts.append(Int(start)) }
        heldStarts.sort()
        var next = range.lowerBound
        for start in heldStarts where start >= next {
            freeViews(next..<start)
            next = subtreeEnd(of: start)
        }
        freeViews(next..<range.upperBound)
    }

    private func freeViews(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        withNodes { nodes in
            for index in range {
                nodes[index].storage?.release()
                nodes[index].backingStore?.release()
                nodes[index].storage = nil
                nodes[index].backingStore = nil
                nodes[index].flags = .released
            }
        }
    }
}
