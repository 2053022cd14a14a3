import PressureLabHeap

/// A view's layer. Its backing store (the bitmap, width x height x 4 bytes) is a separate
/// allocation (pieces of exact size classes when it is large, so it measures its declared
/// size: docs/limits.md, "Measured against declared"), drawn when the view is first shown;
/// it can be purged and redrawn.
///
/// A `Layer` is a reference to the layer of one view of a tree (like ``View``): its state
/// lives in the tree, so every copy sees the same bitmap. UIKit's layer is an object of
/// about 48 bytes of its own; the bitmap, not the layer object, is what matters here.
public struct Layer {
    let tree: ViewTree
    let index: Int

    /// Bytes of the backing store when drawn (0: the layer draws nothing).
    public var backingBytes: Int { tree.withNode(index) { $0.backingBytes } }

    /// The bytes of a bitmap of `width` x `height` pixels, 4 bytes each.
    public static func bitmapBytes(width: Int, height: Int) -> Int { width * height * 4 }

    /// Whether the backing store is allocated (drawn and not purged).
    public var hasBackingStore: Bool { tree.withNode(index) { $0.backingStore != nil } }

    /// Whether the bitmap is in a freezer file (drawn, then frozen).
    public var isFrozen: Bool { tree.withNode(index) { $0.flags.contains(.backingFrozen) } }

    /// Whether showing the layer would draw: it has a bitmap to draw, none is held, and
    /// its view is still kept.
    public var needsDisplay: Bool {
        backingBytes > 0 && tree.withNode(index) { node in
            node.backingStore == nil && node.flags.isDisjoint(with: [.backingFrozen, .released])
        }
    }

    /// Draws the backing store if needed: allocates it and writes every byte.
    ///
    /// - Returns: true when it drew (false as well when `gate` refused the bitmap or the
    ///   host had no memory for it).
    @discardableResult
    public func displayIfNeeded(gate: MemoryGate? = nil, fill: ContentFill? = nil) -> Bool {
        guard needsDisplay else { return false }
        let bytes = backingBytes
        guard gate?.admit(bytes) ?? true else { return false }
        guard let bitmap = RawMemory.allocate(bytes, filledBy: fill, pattern: View.pattern(for: index) ^ 0xFF,
                                              salt: UInt64(index) &+ 0xB17) else {
            HeapBlock.noteHostFailure(bytes: bytes, gate: gate)
            return false
        }
        tree.withNode(index) { $0.backingStore = bitmap }
        return true
    }

    /// Frees the backing store; the next display redraws it.
    ///
    /// - Returns: true when there was one to free.
    @discardableResult
    public func purgeBackingStore() -> Bool {
        tree.withNode(index) { node in
            guard let backingStore = node.backingStore else { return false }
            backingStore.release()
            node.backingStore = nil
            return true
        }
    }

    func freeze(to file: any PageStore) -> Bool {
        let bytes = backingBytes
        return tree.withNode(index) { node in
            guard let backingStore = node.backingStore else { return true }
            guard PageOut.freeze(backingStore, count: bytes, to: file) else { return false }
            node.backingStore = nil
            node.flags.insert(.backingFrozen)
            return true
        }
    }

    /// Runs `move` with the bitmap's bytes if it is paged out (its bytes are next in the pool's region).
    func relocateFrozen(_ move: (Int) -> Bool) -> Bool {
        let bytes = backingBytes
        return tree.withNode(index) { node in
            node.flags.contains(.backingFrozen) && bytes > 0 ? move(bytes) : true
        }
    }

    func thaw(from file: any PageStore) -> Bool {
        let bytes = backingBytes
        return tree.withNode(index) { node in
            guard node.flags.contains(.backingFrozen) else { return true }
            guard let memory = PageOut.thaw(count: bytes, from: file) else { return false }
            node.backingStore = memory
            node.flags.remove(.backingFrozen)
            return true
        }
    }

    /// A checksum of the bitmap, or nil when none is held.
    public func backingStoreChecksum() -> UInt64? {
        let bytes = backingBytes
        return tree.withNode(index) { node in
            node.backingStore?.checksum(count: bytes)
        }
    }
}
