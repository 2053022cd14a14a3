#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLZ4
import CZstd

/// The codecs' working state, kept per thread and reused page after page, so that a page
/// costs its compression and nothing more: LZ4's 16 KiB match table (which the stateless
/// entry clears on every call, a `memset` four times the size of a 4 KiB page and 64 times
/// that of a view's 256 B block) and Zstandard's compression and decompression contexts
/// (which the stateless entries allocate and free on every call).
///
/// The output does not change: `LZ4_compress_fast_extState_fastReset` reuses the table only
/// where stale entries can never be matched, and gives the bytes `LZ4_compress_default`
/// gives (lz4.h, "LZ4_compress_fast_extState_fastReset"); a reused Zstandard context
/// compresses each page with the parameters of a fresh one (`ZSTD_compressCCtx`). The tests
/// compare both with the stateless entries byte for byte (`CodecWorkspaceTests`).
///
/// The state, and the record of it, live in anonymous mappings, not in jemalloc: they are
/// the simulator's, not a simulated app's, and must not appear in the measured scope they
/// happen to be made in (the first compression of a thread is inside some owner's scope).
struct CodecWorkspace {
    /// What a thread's workspace holds, in the first page of its own mapping.
    private struct Record {
        var lz4State: UnsafeMutableRawPointer
        var lz4Bytes: Int
        var zstdCompression: (context: OpaquePointer, mapping: UnsafeMutableRawPointer, bytes: Int)?
        var zstdDecompression: (context: OpaquePointer, mapping: UnsafeMutableRawPointer, bytes: Int)?
        /// A buffer that a block is compressed into before its exact-size copy is allocated.
        var scratch: (address: UnsafeMutableRawPointer, bytes: Int)?
        /// Page buffers given back (``givePage(_:bytes:)``), kept for the next ``takePage(_:)``:
        /// ``spareSlots`` slots in the same mapping, after LZ4's state. (A slot array, not a
        /// tuple: a generic call over a tuple type makes its runtime metadata, an allocation
        /// in whatever measured scope comes first.)
        var spares: UnsafeMutablePointer<Spare>
    }

    /// Page buffers kept for reuse, at most.
    private static let spareSlots = 4

    /// One page buffer kept for reuse (none when `address` is nil).
    private struct Spare {
        var address: UnsafeMutableRawPointer?
        var bytes = 0
    }

    private let record: UnsafeMutablePointer<Record>

    /// The most bytes the scratch buffer grows to: a larger block's worst case is allocated
    /// for it alone (its compression costs far more than the allocation).
    static let scratchLimit = 1 << 20

    /// LZ4's state (`LZ4_stream_t`), initialised once.
    var lz4State: UnsafeMutableRawPointer { record.pointee.lz4State }

    private init(record: UnsafeMutablePointer<Record>) { self.record = record }

    /// A new workspace, nil when the host has no memory for it.
    private static func make() -> CodecWorkspace? {
        let lz4Bytes = Int(LZ4_sizeofState())
        guard let mapping = map(recordBytes + lz4Bytes + sparesBytes) else { return nil }
        let state = mapping + recordBytes
        guard LZ4_initStream(state, lz4Bytes) != nil else {
            munmap(mapping, recordBytes + lz4Bytes + sparesBytes)
            return nil
        }
        let spares = (state + lz4Bytes).bindMemory(to: Spare.self, capacity: spareSlots)
        spares.initialize(repeating: Spare(), count: spareSlots)
        let record = mapping.bindMemory(to: Record.self, capacity: 1)
        record.initialize(to: Record(lz4State: state, lz4Bytes: lz4Bytes, spares: spares))
        return CodecWorkspace(record: record)
    }

    /// Unmaps everything the workspace holds (its thread ended).
    private func destroy() {
        let held = record.pointee
        if let zstd = held.zstdCompression { munmap(zstd.mapping, zstd.bytes) }
        if let zstd = held.zstdDecompression { munmap(zstd.mapping, zstd.bytes) }
        if let scratch = held.scratch { munmap(scratch.address, scratch.bytes) }
        for slot in 0..<Self.spareSlots {
            if let address = held.spares[slot].address { munmap(address, held.spares[slot].bytes) }
        }
        munmap(UnsafeMutableRawPointer(record), Self.recordBytes + held.lz4Bytes + Self.sparesBytes)
    }

    /// The record's bytes at the start of the mapping, rounded up so that LZ4's state after
    /// it is 16-byte aligned.
    private static let recordBytes = (MemoryLayout<Record>.stride + 15) & ~15

    /// The spare slots' bytes, after LZ4's state.
    private static let sparesBytes = spareSlots * MemoryLayout<Spare>.stride

    /// A scratch buffer of at least `bytes` (at most ``scratchLimit``), valid until the next
    /// call on this thread; nil when more is asked or the host has no memory for it.
    func scratch(_ bytes: Int) -> UnsafeMutableRawPointer? {
        guard bytes <= Self.scratchLimit else { return nil }
        if let scratch = record.pointee.scratch {
            if scratch.bytes >= bytes { return scratch.address }
            munmap(scratch.address, scratch.bytes)
            record.pointee.scratch = nil
        }
        // Whole 64 KiB steps, so that a run of growing blocks remaps rarely.
        let size = (max(bytes, 1) + 0xFFFF) & ~0xFFFF
        guard let address = Self.map(size) else { return nil }
        record.pointee.scratch = (address, size)
        return address
    }

    /// A page buffer of at least `bytes`, outside the measured heap, owned by the caller until
    /// it gives it back with ``givePage(_:bytes:)`` (on any thread); nil when the host has no
    /// memory for it. `bytes` is set to the buffer's size.
    ///
    /// A packed stream holds one while a page is partly written or read (``PageStreamWriter``,
    /// ``PageStreamReader``); the buffers are reused, so a group of blocks costs no mapping.
    func takePage(_ bytes: inout Int) -> UnsafeMutableRawPointer? {
        let spares = record.pointee.spares
        for slot in 0..<Self.spareSlots {
            guard let address = spares[slot].address, spares[slot].bytes >= bytes else { continue }
            bytes = spares[slot].bytes
            spares[slot] = Spare()
            return address
        }
        bytes = Self.pageRounded(bytes)
        return Self.map(bytes)
    }

    /// Takes back a buffer from ``takePage(_:)`` for reuse (unmapped when four are kept).
    func givePage(_ address: UnsafeMutableRawPointer, bytes: Int) {
        let spares = record.pointee.spares
        for slot in 0..<Self.spareSlots where spares[slot].address == nil {
            spares[slot] = Spare(address: address, bytes: bytes)
            return
        }
        munmap(address, bytes)
    }

    /// `bytes` rounded up to whole 4 KiB host pages.
    private static func pageRounded(_ bytes: Int) -> Int { (max(bytes, 1) + 0xFFF) & ~0xFFF }

    /// A page buffer from the calling thread's workspace, or mapped for the caller when the
    /// thread has none (see ``takePage(_:)``).
    static func takePage(_ bytes: inout Int) -> UnsafeMutableRawPointer? {
        if let workspace = current { return workspace.takePage(&bytes) }
        bytes = pageRounded(bytes)
        return map(bytes)
    }

    /// Gives a page buffer back to the calling thread's workspace (or unmaps it).
    static func givePage(_ address: UnsafeMutableRawPointer, bytes: Int) {
        if let workspace = current { workspace.givePage(address, bytes: bytes) } else { munmap(address, bytes) }
    }

    /// Zstandard's compression context at level 1, nil when the host has no memory for it.
    func zstdCompressionContext() -> OpaquePointer? {
        if let zstd = record.pointee.zstdCompression { return zstd.context }
        let bytes = ZSTD_estimateCCtxSize(1)
        guard let mapping = Self.map(bytes) else { return nil }
        guard let context = ZSTD_initStaticCCtx(mapping, bytes) else {
            munmap(mapping, bytes)
            return nil
        }
        record.pointee.zstdCompression = (context, mapping, bytes)
        return context
    }

    /// Zstandard's decompression context, nil when the host has no memory for it.
    func zstdDecompressionContext() -> OpaquePointer? {
        if let zstd = record.pointee.zstdDecompression { return zstd.context }
        let bytes = ZSTD_estimateDCtxSize()
        guard let mapping = Self.map(bytes) else { return nil }
        guard let context = ZSTD_initStaticDCtx(mapping, bytes) else {
            munmap(mapping, bytes)
            return nil
        }
        record.pointee.zstdDecompression = (context, mapping, bytes)
        return context
    }

    private static func map(_ bytes: Int) -> UnsafeMutableRawPointer? {
        guard let address = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              address != MAP_FAILED else { return nil }
        return address
    }

    /// The calling thread's workspace, made on its first use and unmapped when the thread
    /// ends; nil when the host has no memory for it (the codecs then use their stateless
    /// entries).
    static var current: CodecWorkspace? {
        if let stored = pthread_getspecific(threadKey) {
            return CodecWorkspace(record: stored.assumingMemoryBound(to: Record.self))
        }
        guard let made = make() else { return nil }
        pthread_setspecific(threadKey, UnsafeMutableRawPointer(made.record))
        return made
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { stored in
            #if canImport(Darwin)
            CodecWorkspace(record: stored.assumingMemoryBound(to: Record.self)).destroy()
            #else
            if let stored { CodecWorkspace(record: stored.assumingMemoryBound(to: Record.self)).destroy() }
            #endif
        }
        precondition(status == 0, "a thread-specific key for the codecs' workspace")
        return key
    }()
}
