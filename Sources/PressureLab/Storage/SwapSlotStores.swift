import PressureLabHeap

/// Writes one swap region into the swap file's slots (``SlotFile``), block after block: its
/// bytes fill a slot, then the next one taken. Small blocks are gathered in a staging slot
/// outside the measured heap (``PageBuffers``) and written a slot at a time; a whole slot or
/// more with nothing staged is written from the block itself.
///
/// When a write fails, nothing more is written; what was given before it is in the slots
/// written and in the staging slot, and ``reader()`` reads exactly that back: nothing freed is
/// lost.
///
/// Its writes run inside the measured scope of the memory's owner; the list of slots it keeps
/// grows outside it (``OwnerLedger/unattributed(_:)``), charged to no one.
final class SwapSlotWriter: PageStore {
    private let file: SlotFile
    private let ledger: OwnerLedger<MemoryOwner>
    /// The slots written, in the region's order.
    private(set) var slots: [Int] = []
    /// A slot taken whose write failed, given back with the others.
    private var spoiledSlot: Int?
    private var staging: UnsafeMutableRawPointer?
    private var stagingBytes = 0
    /// Bytes in ``staging``: the region's bytes after those in ``slots``.
    private var staged = 0
    /// Bytes given by writes that returned true: the region's length.
    private(set) var bytes = 0
    private var failed = false

    /// Nothing is read back through a writer.
    var gate: MemoryGate? { nil }

    /// A writer into `file`'s slots for memory measured by `ledger`.
    init(file: SlotFile, ledger: OwnerLedger<MemoryOwner>) {
        self.file = file
        self.ledger = ledger
        slots.reserveCapacity(64)
    }

    deinit {
        if let staging { PageBuffers.give(staging, bytes: stagingBytes) }
    }

    /// Writes `memory`'s first `count` bytes, piece after piece.
    func write(_ memory: RawMemory, count: Int) -> Bool {
        memory.pieces(count: count).allSatisfy { write(UnsafeRawBufferPointer($0)) }
    }

    /// A writer is not read.
    func read(into memory: RawMemory, count: Int) -> Bool { false }

    /// Takes all of `source` (staged or written); false, and nothing of it counts, when a slot
    /// could not be written.
    func write(_ source: UnsafeRawBufferPointer) -> Bool {
        guard !failed, let base = source.baseAddress else { return !failed }
        var done = 0
        while done < source.count {
            if staged == 0, source.count - done >= SlotFile.slotBytes {
                guard put(UnsafeRawBufferPointer(start: base + done, count: SlotFile.slotBytes)) else { return fail() }
                done += SlotFile.slotBytes
                continue
            }
            guard let staging = stagingSlot() else { return fail() }
            let count = min(SlotFile.slotBytes - staged, source.count - done)
            staging.advanced(by: staged).copyMemory(from: base + done, byteCount: count)
            staged += count
            done += count
            if staged == SlotFile.slotBytes {
                guard put(UnsafeRawBufferPointer(start: staging, count: staged)) else { return fail() }
                staged = 0
            }
        }
        bytes += source.count
        return true
    }

    /// Writes the staged tail to a slot of its own; false when it could not.
    func finish() -> Bool {
        guard !failed else { return false }
        guard staged > 0, let staging else { return true }
        guard put(UnsafeRawBufferPointer(start: staging, count: staged)) else { return fail() }
        staged = 0
        return true
    }

    /// Reads back the region's ``bytes``: from the slots, then (after a failed write) from the
    /// staging slot, which the reader takes over.
    func reader() -> SwapSlotReader {
        let reader = SwapSlotReader(file: file, slots: slots, bytes: bytes)
        if let staging {
            reader.adoptTail(staging, capacity: stagingBytes, count: staged)
            self.staging = nil
            staged = 0
        }
        return reader
    }

    /// Gives every slot taken back to the file (the region was never kept).
    func giveBack() {
        for slot in slots { file.give(slot) }
        if let spoiledSlot { file.give(spoiledSlot) }
        slots.removeAll()
        spoiledSlot = nil
    }

    private func put(_ chunk: UnsafeRawBufferPointer) -> Bool {
        let slot = file.takeSlot()
        guard (try? file.write(chunk, toSlot: slot)) != nil else {
            spoiledSlot = slot
            return false
        }
        if slots.count < slots.capacity {
            slots.append(slot)
        } else {
            ledger.unattributed { slots.append(slot) }
        }
        return true
    }

    private func fail() -> Bool {
        failed = true
        return false
    }

    private func stagingSlot() -> UnsafeMutableRawPointer? {
        if let staging { return staging }
        var size = SlotFile.slotBytes
        staging = PageBuffers.take(&size)
        stagingBytes = size
        return staging
    }
}

/// Reads a swap region back from its slots, in the order it was written (and, after a failed
/// write, the bytes its writer still held).
final class SwapSlotReader: PageStore {
    private let file: SlotFile
    private let slots: [Int]
    /// The region's bytes, and those given out.
    private let bytes: Int
    private var position = 0
    /// One slot read ahead for reads smaller than a slot, outside the measured heap.
    private var buffer: UnsafeMutableRawPointer?
    private var bufferBytes = 0
    /// The slot ``buffer`` holds, or -1.
    private var bufferedIndex = -1
    /// A failed writer's staged bytes, which follow the slots.
    private var tail: UnsafeMutableRawPointer?
    private var tailCapacity = 0
    private var tailCount = 0

    /// The gate of the app whose memory is read back (reading allocates).
    var gate: MemoryGate?

    init(file: SlotFile, slots: [Int], bytes: Int) {
        self.file = file
        self.slots = slots
        self.bytes = bytes
    }

    deinit {
        if let buffer { PageBuffers.give(buffer, bytes: bufferBytes) }
        if let tail { PageBuffers.give(tail, bytes: tailCapacity) }
    }

    fileprivate func adoptTail(_ staging: UnsafeMutableRawPointer, capacity: Int, count: Int) {
        tail = staging
        tailCapacity = capacity
        tailCount = count
    }

    /// A reader does not write.
    func write(_ memory: RawMemory, count: Int) -> Bool { false }

    /// Reads exactly `count` bytes into `memory`, piece after piece; false past the region's
    /// end or when a slot could not be read.
    func read(into memory: RawMemory, count: Int) -> Bool {
        memory.pieces(count: count).allSatisfy { read(into: $0) }
    }

    private func read(into destination: UnsafeMutableRawBufferPointer) -> Bool {
        guard let target = destination.baseAddress else { return true }
        guard destination.count <= bytes - position else { return false }
        var done = 0
        while done < destination.count {
            let index = position / SlotFile.slotBytes, offset = position % SlotFile.slotBytes
            let inSlot = min(SlotFile.slotBytes, bytes - index * SlotFile.slotBytes)
            let count = min(inSlot - offset, destination.count - done)
            if index >= slots.count {
                // After the slots: the failed writer's staged bytes.
                guard let tail, offset + count <= tailCount else { return false }
                (target + done).copyMemory(from: tail + offset, byteCount: count)
            } else if offset == 0, count == inSlot {
                // A whole slot goes straight to its place.
                let whole = UnsafeMutableRawBufferPointer(start: target + done, count: count)
                guard (try? file.read(into: whole, fromSlot: slots[index])) != nil else { return false }
            } else {
                guard let slotBytes = buffered(index, count: inSlot) else { return false }
                (target + done).copyMemory(from: slotBytes + offset, byteCount: count)
            }
            done += count
            position += count
        }
        return true
    }

    /// The slot at `index` read into the buffer (its first `count` bytes).
    private func buffered(_ index: Int, count: Int) -> UnsafeMutableRawPointer? {
        if bufferedIndex == index, let buffer { return buffer }
        if buffer == nil {
            var size = SlotFile.slotBytes
            buffer = PageBuffers.take(&size)
            bufferBytes = size
        }
        guard let buffer, (try? file.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: count), fromSlot: slots[index])) != nil else {
            bufferedIndex = -1
            return nil
        }
        bufferedIndex = index
        return buffer
    }
}
