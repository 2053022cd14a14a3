/// Paging a controller's memory out to a freezer file and back (the freezer).
extension ViewController {
    /// Every view the controller holds: its tree, outlet subtrees, additional views (a
    /// table's cells), each once, in a fixed order.
    final func forEachHeldView(_ body: (View) -> Void) {
        let root = viewIfLoaded
        root?.forEachInTree(body)
        // Outlets lie inside the loaded tree, or inside one another: each subtree once.
        for outlet in View.outermost(outlets, outside: root) { outlet.forEachInTree(body) }
        forEachAdditionalView(body)
    }

    /// The heap blocks the controller holds, in a fixed order.
    final var heldBlocks: [HeapBlock] {
        [cache, model].compactMap { $0 } + userData
    }

    /// Writes bitmaps, view storage and blocks to `file` and frees them (measured).
    final func freezeMemory(to file: any PageStore) -> Bool {
        pageMemory(layer: { $0.freeze(to: file) }, storage: { $0.freezeStorage(to: file) },
                   block: { $0.freeze(to: file) }, endGroup: file.endGroup)
    }

    /// Reads back what ``freezeMemory(to:)`` wrote, in the same order (measured).
    final func thawMemory(from file: any PageStore) -> Bool {
        pageMemory(layer: { $0.thaw(from: file) }, storage: { $0.thawStorage(from: file) },
                   block: { $0.thaw(from: file) })
    }

    /// Moves the controller's region of the compressed pool to the freezer's `file` as it is
    /// (compressed pages), block by block in the order it was written, each page freed under
    /// its owner:
    /// afterwards the controller's memory is frozen, and ``thawMemory(from:)`` reads it back.
    /// False when a write failed (the memory is then split between pool and file: the app
    /// must die).
    final func relocateCompressedMemory(to file: CompressingPageStore) -> Bool {
        guard let region = compressedMemory else { return true }
        let move = { (count: Int) in region.moveBlock(count: count, to: file) }
        let ok = pageMemory(layer: { $0.relocateFrozen(move) }, storage: { $0.relocateFrozenStorage(move) },
                            block: { $0.relocateFrozen(move) })
        compressedMemory = nil
        runtime.compressedPool?.relocated(region, of: runtime)
        return ok
    }

    /// Runs one direction of paging over everything held, in the fixed order that freezing
    /// and thawing share: bitmaps, view storage, then blocks, each measured under its
    /// category, each scope one group of writes (`endGroup` ends it inside the scope).
    /// Stops at the first failure.
    private func pageMemory(layer: (Layer) -> Bool, storage: (View) -> Bool, block: (HeapBlock) -> Bool,
                            endGroup: () -> Bool = { true }) -> Bool {
        var ok = true
        runtime.ledger.measure(owner: owner(.backingStore)) {
            forEachHeldView { view in if ok { ok = layer(view.layer) } }
            if ok { ok = endGroup() }
        }
        runtime.ledger.measure(owner: owner(.viewTree)) {
            forEachHeldView { view in if ok { ok = storage(view) } }
            if ok { ok = endGroup() }
        }
        for (category, heldBlock) in categorizedBlocks where ok {
            runtime.ledger.measure(owner: owner(category)) { ok = block(heldBlock) && endGroup() }
        }
        return ok
    }

    /// Checksums of everything the controller holds (for byte-identical round trips).
    public final var memoryChecksums: [UInt64] {
        pageInIfCompressed()
        var sums: [UInt64] = []
        forEachHeldView { view in
            sums.append(view.storageChecksum())
            sums.append(view.layer.backingStoreChecksum() ?? 0)
        }
        for block in heldBlocks { sums.append(block.checksum()) }
        return sums
    }

    private var categorizedBlocks: [(MemoryCategory, HeapBlock)] {
        var blocks: [(MemoryCategory, HeapBlock)] = []
        if let cache { blocks.append((.cache, cache)) }
        if let model { blocks.append((.model, model)) }
        for block in userData { blocks.append((.userData, block)) }
        return blocks
    }
}
