import Dispatch
@testable import PressureLabHeap
import Testing

/// The door's scoped accessors and locks (docs/architecture.md, "Unsafe code").
@Suite("The door: memory lent by closures, shared values behind a lock, errors thrown")
struct DoorTests {
    @Test("Heap.requireJemalloc() throws a HeapError instead of ending the process (and passes here)")
    func requireJemallocThrows() {
        // The typed `throws(HeapError)` is what this checks at compile time: the error is caught
        // as a HeapError without a cast.
        let outcome = Result<Void, HeapError> { () throws(HeapError) in try Heap.requireJemalloc() }
        #expect((try? outcome.get()) != nil)
    }

    @Test("ByteOutput gives the bytes written, in order, including those written through write(upTo:)")
    func byteOutputWrites() {
        let bytes = ByteOutput.bytes(capacity: 9) { out in
            out.byte(UInt8(ascii: "["))
            out.append("ab")
            out.write(upTo: 5) { buffer in
                buffer[0] = UInt8(ascii: "c")
                buffer[1] = UInt8(ascii: "d")
                return 2
            }
            out.byte(UInt8(ascii: "]"))
            #expect(out.count == 6)
        }
        #expect(bytes == Array("[abcd]".utf8))
        #expect(ByteOutput.bytes(capacity: 0) { _ in }.isEmpty)
    }

    @Test("ByteOutput traps on a byte written past its capacity, before writing it")
    func byteOutputChecksItsCapacity() async {
        await #expect(processExitsWith: .failure) {
            _ = ByteOutput.bytes(capacity: 2) { out in out.append("abc") }
        }
    }

    @Test("a stored page stream read through StoredPageBuffer gives back the blocks written")
    func storedPagesReadBack() throws {
        let sizes = Array(repeating: 256, count: 40) + [5000]
        let originals = try sizes.enumerated().map { try PageStreamTests.block($1, salt: UInt64($0)) }
        defer { originals.forEach { $0.release() } }
        var writer = PageStreamWriter(codec: .lz4, pageBytes: 4096)
        var file: [UInt8] = []
        let keep: (UnsafeRawBufferPointer) -> Bool = { page in file.append(contentsOf: page); return true }
        var appended = 0
        for (size, memory) in zip(sizes, originals) where writer.append(memory, count: size, emit: keep) { appended += 1 }
        let finished = writer.finish(emit: keep)
        #expect(appended == sizes.count && finished)
        var reader = PageStreamReader(codec: .lz4, pageBytes: 4096)
        var stored = StoredPageBuffer()
        var offset = 0
        let read: (UnsafeMutableRawBufferPointer) -> Bool = { buffer in
            guard offset + buffer.count <= file.count else { return false }
            file.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + buffer.count])) }
            offset += buffer.count
            return true
        }
        for (size, original) in zip(sizes, originals) {
            let copy = try #require(RawMemory.allocate(size))
            defer { copy.release() }
            let ok = reader.read(into: copy, count: size, stored: &stored, reading: read)
            #expect(ok)
            #expect(copy.checksum(count: size) == original.checksum(count: size))
        }
        #expect(offset == file.count)
        // Past the end: no page, so the read fails instead of trapping.
        let extra = try #require(RawMemory.allocate(256))
        defer { extra.release() }
        let pastTheEnd = reader.read(into: extra, count: 256, stored: &stored, reading: read)
        #expect(!pastTheEnd)
    }

    @Test("Locked: concurrent changes are all kept")
    func lockedKeepsEveryChange() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 1000) { _ in counter.withLock { $0 += 1 } }
        #expect(counter.withLock { $0 } == 1000)
    }
}
