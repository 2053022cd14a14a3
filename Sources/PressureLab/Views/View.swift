#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PressureLabHeap

/// A view: its own storage (real, written heap bytes), a layer, and subviews.
///
/// Views are built from a ``ViewDescription`` by ``build(from:)``. Freeing a tree never
/// recurses, so chains of any depth are safe; a subview that something else still
/// holds (an outlet) survives with its own subtree.
///
/// Bookkeeping per view, measured on Linux x86-64 with jemalloc: the view object with
/// its inline layer (64 B) and a slot in its parent's subview array (8 B, plus the
/// array's 32-byte header once per parent, size-class rounded); see
/// ``expectedBookkeepingBytes(for:)``.
public final class View {
    // Field order keeps the object at 64 bytes with its header.
    private var storage: UnsafeMutableRawPointer?
    /// The view's subviews, in order.
    public internal(set) var subviews: [View]
    /// Bytes of the view's own storage.
    public let bytes: Int
    /// The view's layer, with its backing store.
    public var layer: Layer
    private let storedIndex: Int32

    /// The view's position in its description, in preorder (0 is the root).
    public var index: Int { Int(storedIndex) }

    /// Heap bytes of one view object with its inline layer (header and fields,
    /// size-class rounded), x86-64.
    public static let objectBytes = 64
    /// Bytes of a Swift array's heap header, before its elements.
    static let arrayHeaderBytes = 32

    /// The bytes a tree costs beyond its payload: per view its view and layer objects,
    /// per parent a subview array (header plus 8 bytes a child, size-class rounded).
    /// The measured bytes of a built tree are its payload (size-class rounded) plus this.
    public static func expectedBookkeepingBytes(for description: ViewDescription) -> Int {
        var bytes = description.viewCount * objectBytes
        for node in description.nodes where node.childCount > 0 {
            bytes += Heap.sizeClass(for: arrayHeaderBytes + 8 * node.childCount)
        }
        return bytes
    }

    /// The bytes the views' own storage takes once jemalloc rounds each to its size class.
    public static func allocatedPayloadBytes(for description: ViewDescription) -> Int {
        description.nodes.reduce(0) { $0 + Heap.sizeClass(for: $1.bytes) }
    }

    init(index: Int, bytes: Int, backingBytes: Int) {
        self.storedIndex = Int32(truncatingIfNeeded: index)
        self.bytes = bytes
        let pattern = View.pattern(for: index)
        self.storage = HeapBlock.allocateTouched(bytes, pattern: pattern)
        self.layer = Layer(backingBytes: backingBytes, pattern: pattern ^ 0xFF)
        self.subviews = []
    }

    deinit {
        free(storage)
        guard !subviews.isEmpty else { return }
        // Dismantle without recursion: detach the children of every view that dies here.
        var pending = subviews
        subviews = []
        while var view = pending.popLast() {
            if isKnownUniquelyReferenced(&view), !view.subviews.isEmpty {
                pending.append(contentsOf: view.subviews)
                view.subviews = []
            }
        }
    }

    static func pattern(for index: Int) -> UInt8 { UInt8(truncatingIfNeeded: index &* 31 &+ 0xA5) }

    /// Whether the view's storage is in a freezer file.
    public var isFrozen: Bool { bytes > 0 && storage == nil }

    /// Writes the storage to `file` and frees it. Returns false on a write error.
    func freezeStorage(to file: FreezerFile) -> Bool {
        guard !isFrozen else { return true }
        guard PageOut.freeze(storage, count: bytes, to: file) else { return false }
        storage = nil
        return true
    }

    /// Reads the storage back from `file`.
    func thawStorage(from file: FreezerFile) -> Bool {
        guard isFrozen else { return true }
        guard let pointer = PageOut.thaw(count: bytes, from: file) else { return false }
        storage = pointer
        return true
    }

    /// Rewrites the view's storage, as configuring a reused table cell does.
    public func prepareForReuse() {
        guard let storage else { return }
        memset(storage, Int32(View.pattern(for: index)), bytes)
    }

    /// A checksum of the view's own storage.
    public func storageChecksum() -> UInt64 {
        HeapBlock.checksum(UnsafeRawBufferPointer(start: storage, count: storage == nil ? 0 : bytes))
    }
}

extension View {
    /// Builds the tree a description declares; every byte of every view is written.
    ///
    /// Backing stores are not drawn here: they are drawn when the tree is first shown.
    /// - Complexity: O(views + payload bytes), no recursion.
    public static func build(from description: ViewDescription) -> View {
        let nodes = description.nodes
        // Reverse preorder: every node's children are built before it, and the first
        // child is on top of the stack when its parent is made.
        var built: [View] = []
        built.reserveCapacity(min(nodes.count, 1024))
        for index in stride(from: nodes.count - 1, through: 0, by: -1) {
            let node = nodes[index]
            let view = View(index: index, bytes: node.bytes, backingBytes: node.backingBytes)
            if node.childCount > 0 {
                var children: [View] = []
                children.reserveCapacity(node.childCount)
                for _ in 0..<node.childCount { children.append(built.removeLast()) }
                view.subviews = children
            }
            built.append(view)
        }
        return built[0]
    }

    /// Visits the view and every view below it, in preorder, without recursion.
    public func forEachInTree(_ body: (View) throws -> Void) rethrows {
        var pending: [View] = [self]
        while let view = pending.popLast() {
            try body(view)
            for child in view.subviews.reversed() { pending.append(child) }
        }
    }

    /// Frees the backing stores of the tree, skipping the subtrees rooted at `spared` views.
    ///
    /// - Returns: the number of backing stores freed.
    @discardableResult
    public func purgeBackingStoresInTree(sparing spared: [View]) -> Int {
        var purged = 0
        var pending: [View] = [self]
        while let view = pending.popLast() {
            if !spared.isEmpty, spared.contains(where: { $0 === view }) { continue }
            if view.layer.purgeBackingStore() { purged += 1 }
            pending.append(contentsOf: view.subviews)
        }
        return purged
    }

    /// The number of views in the tree rooted here.
    public var treeCount: Int {
        var count = 0
        forEachInTree { _ in count += 1 }
        return count
    }

    /// The views of the tree, in preorder.
    public var treeInPreorder: [View] {
        var views: [View] = []
        forEachInTree { views.append($0) }
        return views
    }
}
