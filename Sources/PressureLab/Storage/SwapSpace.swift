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
/// The space is a real file, one for the device (`pressurelab-swap-XXXXXX/swapfile` in the
/// run's storage), of 1 MiB slots (`SlotFile`): a region is written into slots, without
/// `fsync` (Linux writes swap asynchronously), read back from them when touched, and its slots
/// are then written over by later regions, as a swap file's are. Its bytes count as storage
/// writes and reads of the app, for device time. The device holds one space; every runtime of
/// its apps knows it.
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
    /// The file, made at the first region written; nil until then, or when it could not be.
    private var file: SlotFile?
    private var directory: String?

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

    deinit {
        file = nil
        if let directory { TemporaryFiles.removeTree(directory) }
    }

    /// The swap file's slots holding regions now.
    var slotsInUse: Int { file?.slotsInUse ?? 0 }

    /// The file, made at the first call (in a directory of its own in the run's storage).
    private func slotFile() -> SlotFile? {
        if let file { return file }
        guard directory == nil, let made = try? TemporaryFiles.makeDirectory(prefix: "pressurelab-swap") else { return nil }
        directory = made
        file = try? SlotFile(path: FilePath("\(made)/swapfile"))
        return file
    }

    /// Room left, bytes.
    public var freeBytes: Int { max(0, capacityBytes - usedBytes) }

    /// Writes one region of `runtime`'s memory: `pageOut` writes it into the file's slots and
    /// frees it. Nil when nothing was held, the space is full, or a write failed (then `pageIn`
    /// has read back what was written: nothing is lost).
    func swapOut(of runtime: RuntimeContext, pageOut: (any PageStore) -> Bool,
                 pageIn: (any PageStore) -> Bool) -> SwapRegion? {
        guard freeBytes > 0, let file = slotFile() else { return nil }
        let writer = SwapSlotWriter(file: file, ledger: runtime.ledger)
        let ok = pageOut(writer) && writer.finish()
        let written = writer.bytes
        guard ok, written > 0, written <= freeBytes else {
            if written > 0 {
                let back = writer.reader()
                back.gate = runtime.memoryGate
                _ = pageIn(back)
            }
            writer.giveBack()
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
        return SwapRegion(slots: writer.slots, bytes: written)
    }

    /// Reads a region of `runtime` back with `pageIn` (a page fault: counted as a storage
    /// read) and gives its slots back; false when it could not be read.
    func swapIn(_ region: SwapRegion, of runtime: RuntimeContext, pageIn: (any PageStore) -> Bool) -> Bool {
        defer { release(region, of: runtime) }
        guard let file else { return false }
        let reader = SwapSlotReader(file: file, slots: region.slots, bytes: region.bytes)
        reader.gate = runtime.memoryGate
        let ok = pageIn(reader)
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
        for slot in region.slots { file?.give(slot) }
        usedBytes -= region.bytes
        runtime.swappedBytes -= region.bytes
    }
}

/// One region in the swap space: its slots in the file, in order, and its bytes there.
final class SwapRegion {
    let slots: [Int]
    let bytes: Int
    init(slots: [Int], bytes: Int) {
        self.slots = slots
        self.bytes = bytes
    }
}
