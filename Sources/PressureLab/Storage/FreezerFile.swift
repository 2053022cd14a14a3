import PressureLabHeap
import SystemPackage

/// Where paged-out memory goes, block after block, to be read back in the same order: the
/// freezer's file, the swap file's slots, or the in-RAM compressed pool.
package protocol PageStore: AnyObject {
    /// Takes the first `count` bytes of `memory` (the caller frees it after).
    func write(_ memory: RawMemory, count: Int) -> Bool
    /// Gives back exactly `count` bytes into `memory`, in the order they were written.
    func read(into memory: RawMemory, count: Int) -> Bool
    /// The gate of the app whose memory is read back (reading allocates).
    var gate: MemoryGate? { get }
    /// Ends a group of writes: what one owner writes in one measured scope. A store that
    /// packs blocks into shared pages compresses the group's last page here, inside that
    /// scope (``CompressedMemoryStore``); false when it could not be kept.
    func endGroup() -> Bool
}

extension PageStore {
    /// Stores that write block by block have nothing to end.
    package func endGroup() -> Bool { true }
}

/// A file that frozen memory is written to, block after block, and read back from in the
/// same order (the freezer's). Reads and writes are real I/O, through the
/// host's door, without the page cache's copy where the file system allows it
/// (``UnbufferedFile``: `O_DIRECT` in aligned 1 MiB chunks).
package final class FreezerFile: PageStore {
    let path: String
    private let file: UnbufferedFile
    /// Bytes written (or read) so far.
    var bytesTransferred: Int { file.bytesTransferred }
    /// The gate of the app whose memory is read back (thawing allocates).
    package var gate: MemoryGate?

    package enum Mode { case write, read }

    package init(path: String, mode: Mode) throws(RuntimeError) {
        self.path = path
        do {
            file = try UnbufferedFile(path: FilePath(path), mode: mode == .write ? .write : .read)
        } catch {
            throw .bundle(path: path, reason: "cannot open the freezer file: \(error.reason)")
        }
    }

    /// Closes the file (a writer's staged bytes are written first; ``finish()`` says whether
    /// they could be).
    package func close() { file.close() }

    /// Writes `memory`'s first `count` bytes, piece after piece.
    package func write(_ memory: RawMemory, count: Int) -> Bool {
        memory.pieces(count: count).allSatisfy { write(UnsafeRawBufferPointer($0)) }
    }

    /// Reads exactly `count` bytes into `memory`, piece after piece.
    package func read(into memory: RawMemory, count: Int) -> Bool {
        memory.pieces(count: count).allSatisfy { read(into: $0) }
    }

    /// Writes `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool { (try? file.write(bytes)) != nil }

    /// Fills `buffer` from the file.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Bool { (try? file.read(into: buffer)) != nil }

    /// Puts every byte written in the file; false when it could not (a reader of the file then
    /// takes what was not written with ``adoptUnwritten(of:)``).
    func finish() -> Bool { (try? file.finish()) != nil }

    /// Puts every byte written in the file and flushes it to the device.
    func sync() -> Bool { (try? file.sync()) != nil }

    /// Reads, after this file's bytes that `writer` (a failed writer of the same file) put in
    /// it, the bytes it had taken and not written: everything it took comes back.
    func adoptUnwritten(of writer: FreezerFile) { file.adoptUnwritten(of: writer.file) }
}

/// Moves an allocation's bytes to a freezer file (or the pool) and back.
enum PageOut {
    /// Writes `count` bytes and frees them; false when the write failed (nothing is freed).
    static func freeze(_ memory: RawMemory?, count: Int, to file: any PageStore) -> Bool {
        guard let memory, count > 0 else { return true }
        guard file.write(memory, count: count) else { return false }
        memory.release()
        return true
    }

    /// Allocates `count` bytes and reads them back; nil when the memory or the read fails.
    static func thaw(count: Int, from file: any PageStore) -> RawMemory? {
        guard count > 0 else { return nil }
        guard file.gate?.admit(count) ?? true else { return nil }
        guard let memory = RawMemory.allocate(count) else {
            HeapBlock.noteHostFailure(bytes: count, gate: file.gate)
            return nil
        }
        guard file.read(into: memory, count: count) else {
            memory.release()
            return nil
        }
        return memory
    }
}
