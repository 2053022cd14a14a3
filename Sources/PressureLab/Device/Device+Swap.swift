/// Swap to a file on flash, as Linux swaps anonymous pages out when memory runs short
/// (`kswapd`; the Pixel 3 sets swappiness 100 in `init.hardware.rc`), and as Fleet's phone was
/// set up (`configure-flash-swap.sh`: a 2 GiB swap file, zram off). The device swaps out a
/// suspended app's memory, least recently used first, when it wants room and nothing is left
/// to compress, within the swap file's size; the app's next launch reads it back (a hot launch
/// that costs storage reads). Whole apps go out, as the freezer writes them: Linux swaps
/// pages, not apps (docs/fidelity.md, departures).
extension Device {
    /// Bytes of the swap file in use now.
    public var swappedBytes: Int { apps.reduce(0) { $0 + $1.swappedBytes } }

    /// The next app to swap out: suspended, not swapped out, frozen or in front, least recently
    /// used first; nil without a swap file or when it is full.
    func swapCandidate(sparing: InstalledApp?) -> InstalledApp? {
        guard let capacity = model.swapFileBytes, swappedBytes < capacity else { return nil }
        return apps.filter {
            $0.app.state == .suspended && $0.swappedBytes == 0 && !$0.isFrozen && !$0.isCompressed && $0 !== sparing && $0 !== foreground
                && $0.bytes > 0 && swappedBytes.addingSaturating($0.bytes) <= capacity
        }.min { $0.useOrder < $1.useOrder }
    }

    /// Writes a suspended app's memory to the swap file and frees it. False when it could not.
    @discardableResult
    func swapOut(_ installed: InstalledApp) -> Bool {
        guard installed.app.state == .suspended, installed.swappedBytes == 0, !installed.isFrozen else { return false }
        guard let written = pageOut(installed, to: swapFile, name: installed.name + ".swap") else { return false }
        installed.swappedBytes = max(1, written.storageBytes)
        metrics.swapOuts += 1
        metrics.swappedOutBytes += written.storageBytes
        installed.app.runtime.trace.record(app: installed.name, controller: nil, .swappedOut)
        return true
    }

    /// Reads a swapped-out app's memory back (its launch is a hot one).
    func swapIn(_ installed: InstalledApp) throws {
        let read = try swapFile.thaw(installed.app, name: installed.name + ".swap")
        installed.app.runtime.count { work in
            work.storageReadBytes += read.storageBytes
            work.storageReads += 1
        }
        installed.swappedBytes = 0
        installed.app.runtime.trace.record(app: installed.name, controller: nil, .swappedIn)
    }
}

extension TraceEventKind {
    /// An app's memory went to the swap file, or came back.
    public static let swappedOut = TraceEventKind("swappedOut")
    public static let swappedIn = TraceEventKind("swappedIn")
}
