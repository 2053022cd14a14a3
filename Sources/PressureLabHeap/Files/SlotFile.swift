import SystemPackage

/// A file of fixed-size slots, each written and read at its place, and given back to be
/// written over: the swap file's bytes (docs/limits.md, "Freezer and swap files").
///
/// Linux hands out a swap file's slots by clusters of 256 pages (`SWAPFILE_CLUSTER` in the
/// Pixel 3's 4.9 kernel, `include/linux/swap.h`, read by `scan_swap_map` in `mm/swapfile.c`)
/// within a file of fixed size, whose freed slots are written again; here a slot is one such
/// cluster of 4 KiB pages, 1 MiB, and the file grows a slot at a time to the most it holds at
/// once. The slot given back last is taken first (Linux takes free clusters in order), so the
/// file's pages stay in the page cache and a region written to them is a copy into pages the
/// kernel already holds: a file made and removed for every region made the kernel take fresh
/// pages for each, about 12 times the cost on a virtual machine whose host takes back the pages
/// its guest frees (virtio-balloon's free page reporting).
///
/// Reads and writes go through the page cache (`pread`, `pwrite`); the file is created empty
/// (owner read and write only) and grows a slot at a time when no slot is free.
public final class SlotFile {
    /// Bytes in a slot: 256 pages of 4 KiB (`SWAPFILE_CLUSTER`).
    public static let slotBytes = 256 * 4096

    /// The file's path.
    public let path: FilePath
    private var descriptor: FileDescriptor?
    /// Slots given back, the last given taken first.
    private var freeSlots: [Int] = []
    /// Slots the file has been given (its length, in slots, at most).
    public private(set) var slotCount = 0

    /// Creates (or truncates) the file at `path`, open to read and write.
    public init(path: FilePath) throws(FileError) {
        self.path = path
        do {
            descriptor = try FileDescriptor.open(path, .readWrite, options: [.create, .truncate, .closeOnExec],
                                                 permissions: [.ownerReadWrite], retryOnInterrupt: true)
        } catch {
            throw FileError(.open, path, (error as? Errno) ?? .ioError)
        }
    }

    deinit { close() }

    /// Slots written and not given back.
    public var slotsInUse: Int { slotCount - freeSlots.count }

    /// A slot to write: the last one given back, else a new one at the end of the file.
    public func takeSlot() -> Int {
        if let slot = freeSlots.popLast() { return slot }
        slotCount += 1
        return slotCount - 1
    }

    /// Gives `slot` back, to be written over.
    public func give(_ slot: Int) {
        freeSlots.append(slot)
    }

    /// Writes all of `bytes` (at most a slot) at the start of `slot` (`pwrite`, retried on a
    /// short write or a signal).
    public func write(_ bytes: UnsafeRawBufferPointer, toSlot slot: Int) throws(FileError) {
        guard let descriptor, bytes.count <= Self.slotBytes else { throw FileError(.write, path, .badFileDescriptor) }
        do {
            try HostFiles.writeAll(descriptor, bytes, at: slot * Self.slotBytes)
        } catch {
            throw FileError(.write, path, error)
        }
    }

    /// Fills `buffer` (at most a slot) from the start of `slot` (`pread`, retried on a short
    /// read or a signal); a slot that ends first fails with `EIO`.
    public func read(into buffer: UnsafeMutableRawBufferPointer, fromSlot slot: Int) throws(FileError) {
        guard let descriptor, buffer.count <= Self.slotBytes else { throw FileError(.read, path, .badFileDescriptor) }
        do {
            try HostFiles.readAll(descriptor, into: buffer, at: slot * Self.slotBytes)
        } catch {
            throw FileError(.read, path, error)
        }
    }

    /// Closes the file (it stays where it is: its owner removes it). Closing twice is fine.
    public func close() {
        guard let descriptor else { return }
        self.descriptor = nil
        try? descriptor.close()
    }
}
