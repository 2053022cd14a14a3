/// Swap to a file on flash, as Linux swaps anonymous pages out when memory runs short
/// (`kswapd`; the Pixel 3 sets swappiness 100 in `init.hardware.rc`), and as Fleet's phone was
/// set up (`configure-flash-swap.sh`: a 2 GiB swap file, zram off). When the device wants
/// room and nothing is left to compress, it swaps out one region at a time (``SwapSpace``):
/// a controller's memory, or an app's app-wide data, of the least recently used suspended
/// app, its hidden controllers first, what was on screen next, its app-wide data last (the
/// order Linux's LRU lists would age them in, an estimate: PressureLab does not track each
/// page's accesses). A region comes back when it is touched: the app-wide data as the app
/// resumes, each controller's memory when it is shown or released (docs/fidelity.md, "Swap by
/// region, not by page"). The device asks it when it wants room, and Linux's reclaim
/// (``LinuxKernel``) when the scan balance takes anonymous pages.
final class LinuxSwapFile {
    /// The swap file, region by region.
    let space: SwapSpace

    /// A swap file of `capacityBytes`.
    convenience init(capacityBytes: Int) {
        self.init(space: SwapSpace(capacityBytes: capacityBytes))
    }

    /// The swap file `model` has, nil without one: on the kernel's books a swap-in reads
    /// 2^page-cluster pages at a time (``LinuxMemoryInputs/swapReadPages``), else a region
    /// with one read.
    convenience init?(model: DeviceModel) {
        guard let bytes = model.swapFileBytes else { return nil }
        self.init(space: SwapSpace(capacityBytes: bytes, readPages: model.kernel.map { ($0.swapReadPages, model.pageBytes) }))
    }

    /// The swap file `space` (built by the device from its model).
    init(space: SwapSpace) {
        self.space = space
    }

    /// The next app of `device` to swap from: suspended, not frozen, in front or `sparing`,
    /// holding a region not yet swapped out or compressed; least recently used first. Nil when
    /// the file is full.
    func candidate(sparing: Device.InstalledApp?, on device: Device) -> Device.InstalledApp? {
        guard space.freeBytes > 0 else { return nil }
        var candidate: Device.InstalledApp?
        for installed in device.apps where installed.app.state == .suspended && !installed.isFrozen && installed !== sparing
            && installed !== device.foreground && installed.app.hasRegionToSwap {
            if candidate.map({ installed.useOrder < $0.useOrder }) ?? true { candidate = installed }
        }
        return candidate
    }

    /// Adds the file to the swap a policy reads (`SwapTotal`, `SwapFree`).
    func readSwap(into state: inout DeviceSnapshot) {
        state.swapTotalBytes += space.capacityBytes
        state.swapFreeBytes += max(0, space.capacityBytes - space.usedBytes)
    }

    /// Swaps one region of a suspended app out to the file and frees it. False when it could
    /// not (nothing to swap, the space is full, a write failed: nothing is lost).
    func swapOut(_ installed: Device.InstalledApp, on device: Device) -> Bool {
        guard installed.app.state == .suspended, !installed.isFrozen else { return false }
        let before = space.bytesOut
        guard installed.app.swapOutOneRegion(into: space) else { return false }
        device.metrics.swapOuts += 1
        device.metrics.swappedOutBytes += space.bytesOut - before
        return true
    }
}

extension TraceEventKind {
    /// A region of an app's memory went to the swap file, or came back.
    public static let swappedOut = TraceEventKind("swappedOut")
    /// The app's memory was read back from the swap file.
    public static let swappedIn = TraceEventKind("swappedIn")
}
