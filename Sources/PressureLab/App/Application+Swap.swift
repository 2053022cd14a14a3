/// An app's memory in the device's swap file, region by region (``SwapSpace``).
extension Application {
    /// Whether the app-wide data is in the swap file.
    public var isAppDataSwapped: Bool { swappedAppData != nil }

    /// Whether a region of the app's memory is still resident (neither swapped out nor
    /// compressed) with something in it.
    var hasRegionToSwap: Bool {
        controllers.contains { $0.canSwapOut } || processes.contains { canSwapOut(process: $0) }
            || (appData != nil && swappedAppData == nil && compressedAppData == nil)
    }

    /// Swaps out the next region, in the order an LRU would age them: hidden controllers
    /// first, then those that were on screen, then the secondary processes' memory (each
    /// process's anonymous pages are on the same LRU lists as the main one's: no process is
    /// exempt from reclaim, 4.9 `mm/vmscan.c`; their place in the order is an estimate), the
    /// app-wide data last. False when none could go.
    func swapOutOneRegion(into space: SwapSpace) -> Bool {
        let visible = Set(window.visibleControllers.map(ObjectIdentifier.init))
        let ordered = controllers.filter { !visible.contains(ObjectIdentifier($0)) } + controllers.filter { visible.contains(ObjectIdentifier($0)) }
        for controller in ordered where controller.canSwapOut {
            if controller.swapOutMemory(into: space) { return true }
        }
        for spec in processes where canSwapOut(process: spec) {
            guard let region = space.swapOut(of: runtime, pageOut: { freezeProcessMemory(spec, to: $0) },
                                             pageIn: { thawProcessMemory(spec, from: $0) }) else { continue }
            swappedProcessMemory[spec.name] = region
            recordApp(TraceEventKind("swappedOut:\(spec.name)"))
            return true
        }
        guard appData != nil, swappedAppData == nil, compressedAppData == nil else { return false }
        swappedAppData = space.swapOut(of: runtime, pageOut: freezeAppData(to:), pageIn: thawAppData(from:))
        if swappedAppData != nil { recordApp(.swappedOut) }
        return swappedAppData != nil
    }

    /// Reads the app-wide data back from the swap file if it is there; false when it could not.
    func swapInAppData() -> Bool {
        guard let region = swappedAppData else { return true }
        swappedAppData = nil
        guard let space = runtime.swapSpace else { return false }
        recordApp(.swappedIn)
        return space.swapIn(region, of: runtime, pageIn: thawAppData(from:))
    }

    /// Whether a secondary process runs with memory resident (not in the swap file).
    func canSwapOut(process spec: ProcessSpec) -> Bool {
        processMemory[spec.name] != nil && swappedProcessMemory[spec.name] == nil
    }

    /// Reads every secondary process's memory back from the swap file (the app is in use again:
    /// its renderer draws, its services run; counted as storage reads); false when a region could
    /// not be read.
    func swapInSecondaryProcesses() -> Bool {
        var ok = true
        for spec in processes {
            guard let region = swappedProcessMemory.removeValue(forKey: spec.name), let space = runtime.swapSpace else { continue }
            recordApp(TraceEventKind("swappedIn:\(spec.name)"))
            let read = space.swapIn(region, of: runtime, pageIn: { thawProcessMemory(spec, from: $0) })
            ok = ok && read
        }
        return ok
    }

    /// Writes a secondary process's memory to `file` and frees it (measured under its owner).
    private func freezeProcessMemory(_ spec: ProcessSpec, to file: any PageStore) -> Bool {
        guard let block = processMemory[spec.name] else { return true }
        var ok = true
        runtime.ledger.measure(owner: processOwner(spec)) { ok = block.freeze(to: file) && file.endGroup() }
        return ok
    }

    /// Reads back what ``freezeProcessMemory(_:to:)`` wrote (measured under its owner).
    private func thawProcessMemory(_ spec: ProcessSpec, from file: any PageStore) -> Bool {
        guard let block = processMemory[spec.name] else { return true }
        var ok = true
        runtime.ledger.measure(owner: processOwner(spec)) { ok = block.thaw(from: file) }
        return ok
    }

    /// Drops a secondary process's region without reading it (the process died).
    func discardSwappedProcessMemory(_ spec: ProcessSpec) {
        guard let region = swappedProcessMemory.removeValue(forKey: spec.name) else { return }
        runtime.swapSpace?.discard(region, of: runtime)
    }

    /// Drops the app-wide data's region without reading it (the process died).
    func discardSwappedAppData() {
        guard let region = swappedAppData else { return }
        swappedAppData = nil
        runtime.swapSpace?.discard(region, of: runtime)
    }
}

extension ViewController {
    /// Whether the controller holds memory that is neither swapped out nor compressed.
    final var canSwapOut: Bool {
        swappedMemory == nil && compressedMemory == nil && (viewIfLoaded != nil || !outlets.isEmpty || !heldBlocks.isEmpty)
    }

    /// Writes the controller's memory to a region of the swap file and frees it; false when
    /// it could not (nothing is lost).
    final func swapOutMemory(into space: SwapSpace) -> Bool {
        guard canSwapOut else { return false }
        swappedMemory = space.swapOut(of: runtime, pageOut: freezeMemory(to:), pageIn: thawMemory(from:))
        if swappedMemory != nil { record(.swappedOut) }
        return swappedMemory != nil
    }

    /// Reads the controller's memory back from the swap file (a page fault, counted as a
    /// storage read). A region that cannot be read ends the process at the step's end.
    final func swapInMemory() {
        guard let region = swappedMemory else { return }
        swappedMemory = nil
        let ok = runtime.swapSpace?.swapIn(region, of: runtime, pageIn: thawMemory(from:)) ?? false
        record(.swappedIn)
        if !ok { runtime.memoryGate.recordLostMemory(bytes: region.bytes) }
    }

    /// Drops the controller's swapped region without reading it (its process died).
    final func discardSwappedMemory() {
        guard let region = swappedMemory else { return }
        swappedMemory = nil
        runtime.swapSpace?.discard(region, of: runtime)
    }
}

extension ViewController {
    /// Whether the controller's memory is in the swap file.
    public final var isSwappedOut: Bool { swappedMemory != nil }
}
