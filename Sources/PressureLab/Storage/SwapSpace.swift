import PressureLabHeap
import SystemPackage

/// A swap file on flash, region by region: Linux swaps anonymous pages out by its LRU
/// lists when memory runs short (`mm/vmscan.c`, `shrink_lruvec` over the inactive anon list;
/// `kswapd`), and faults each page back in when it is touched (`mm/memory.c`,
/// `do_swap_page`). PressureLab pages out a *region* at a time (one controller's memory, or
/// one app's app-wide data, as the compressor does: ``CompressedPool``), the least recently
/// used app's first, and reads a region back when it is touched: an app that comes back
/// reads what it shows, not all it had (docs/fidelity.md, "Swap by region, not by page").
///
/// A region is a real file (`<bundle>/<name>.swap.<n>`), written without `fsync` (Linux
/// writes swap asynchronously) and read back when touched; its bytes count as storage
/// writes and reads of the app, for device time. The device holds one space; every runtime
/// of its apps knows it.
public final class SwapSpace {
    /// The most bytes the space holds (the swap file's size).
    public let capacityBytes: Int
    /// Bytes in the space now, and at most.
    public private(set) var usedBytes = 0
    /// (The most it held.)
    public private(set) var peakBytes = 0
    /// Regions written and read back.
    public private(set) var regionsOut = 0
    /// (Regions read back.)
    public private(set) var regionsIn = 0
    /// Bytes written in all.
    public private(set) var bytesOut = 0
    private var nextRegion = 0

    /// Pages one read brings back (2^`vm.page-cluster` on the kernel's books, with the page
    /// size; nil: a region is read back with one read).
    public let readPages: (pages: Int, pageBytes: Int)?

    /// An empty swap space of `capacityBytes`; `readPages`: how many pages of `pageBytes` a
    /// swap-in reads at once (a page fault reads 2^`vm.page-cluster` pages, `swapin_readahead`),
    /// nil for one read a region.
    public init(capacityBytes: Int, readPages: (pages: Int, pageBytes: Int)? = nil) {
        self.capacityBytes = capacityBytes
        self.readPages = readPages
    }

    /// Room left, bytes.
    public var freeBytes: Int { max(0, capacityBytes - usedBytes) }

    /// Writes one region of `runtime`'s memory: `pageOut` writes it into a new file and frees
    /// it. Nil when nothing was held, the space is full, or a write failed (then `pageIn` has
    /// read back what was written: nothing is lost).
    func swapOut(_ name: String, of runtime: RuntimeContext, pageOut: (any PageStore) -> Bool,
                 pageIn: (any PageStore) -> Bool) -> SwapRegion? {
        guard freeBytes > 0 else { return nil }
        nextRegion += 1
        let path = "\(runtime.bundle.directory)/\(name).swap.\(nextRegion)"
        guard let file = try? FreezerFile(path: path, mode: .write) else { return nil }
        let ok = pageOut(file) && file.finish()
        file.close()
        let written = file.bytesTransferred
        guard ok, written > 0, written <= freeBytes else {
            if written > 0, let back = try? FreezerFile(path: path, mode: .read) {
                // What the file had staged but could not write is read after its bytes.
                back.adoptUnwritten(of: file)
                back.gate = runtime.memoryGate
                _ = pageIn(back)
                back.close()
            }
            HostFiles.remove(FilePath(path))
            return nil
        }
        runtime.count { work in
            work.storageWriteBytes += written
            work.storageWrites += 1
        }
        usedBytes += written
        peakBytes = max(peakBytes, usedBytes)
        runtime.swappedBytes += written
        regionsOut += 1
        bytesOut += written
        return SwapRegion(path: path, bytes: written)
    }

    /// Reads a region of `runtime` back with `pageIn` (a page fault: counted as a storage
    /// read) and removes its file; false when it could not be read.
    func swapIn(_ region: SwapRegion, of runtime: RuntimeContext, pageIn: (any PageStore) -> Bool) -> Bool {
        defer { release(region, of: runtime) }
        guard let file = try? FreezerFile(path: region.path, mode: .read) else { return false }
        file.gate = runtime.memoryGate
        let ok = pageIn(file)
        file.close()
        // A touched page faults and reads its cluster (the Pixels' page-cluster 0: itself
        // alone, one 4 KiB read at a time); the region is read whole (docs/fidelity.md, "Swap
        // by region, not by page"), so every page of it faults.
        let reads = readPages.map { read in
            max(1, (region.bytes + read.pages * read.pageBytes - 1) / max(1, read.pages * read.pageBytes))
        } ?? 1
        runtime.count { work in
            work.storageReadBytes += region.bytes
            work.storageReads += reads
        }
        regionsIn += 1
        return ok
    }

    /// Drops a region without reading it (its process died).
    func discard(_ region: SwapRegion, of runtime: RuntimeContext) {
        release(region, of: runtime)
    }

    private func release(_ region: SwapRegion, of runtime: RuntimeContext) {
        HostFiles.remove(FilePath(region.path))
        usedBytes -= region.bytes
        runtime.swappedBytes -= region.bytes
    }
}

/// One region in the swap space: its file and its bytes there.
final class SwapRegion {
    let path: String
    let bytes: Int
    init(path: String, bytes: Int) {
        self.path = path
        self.bytes = bytes
    }
}
