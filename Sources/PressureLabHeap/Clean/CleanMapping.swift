#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CHostCalls
import SystemPackage

/// Clean file-backed memory, really mapped: a file of code or resources on a disk file
/// system, mapped read-only with `mmap`, its pages brought in by touching them and counted
/// in the page cache (resident pages, measured, never computed), and dropped as the kernel
/// drops clean pages under pressure. The one door to `mmap`, `mincore`, `cachestat`,
/// `madvise` and `posix_fadvise`.
///
/// Measured at the cost of what changed: the resident bytes are measured after each touch and
/// each drop (what changes them here), and again when the last measurement is older than
/// ``evictionCheckNanoseconds`` (the host may evict clean pages on its own); every read in
/// between returns that measurement. The measurement is one `cachestat(2)` call for the whole
/// file where the kernel has it (Linux 6.5 and later), else `mincore` page by page
/// (``residencyCall``).
///
/// Checked on Linux: `MADV_DONTNEED` alone leaves a clean file's pages in the page cache
/// (`mincore` still counts them), so ``drop()`` also asks the kernel to drop them from the
/// cache (`POSIX_FADV_DONTNEED`); a freshly written file is resident before anyone touches
/// it, so ``create(at:bytes:seed:)`` flushes it and drops it from the cache; the mapping is
/// `MADV_RANDOM` so that a touch does not read ahead of what it touches.
///
/// The file lives on a disk file system (`$TMPDIR` by default, never tmpfs, where nothing
/// could be dropped): ``isOnTmpfs(_:)`` tells.
public final class CleanMapping {
    /// The mapped file.
    public let path: FilePath
    /// Its size, bytes.
    public let byteCount: Int
    /// The host's page size, bytes.
    public static let pageBytes = Int(sysconf(Int32(_SC_PAGESIZE)))
    private let descriptor: FileDescriptor
    private let base: UnsafeMutableRawPointer
    private let mappedBytes: Int

    /// Writes `bytes` bytes of seeded contents to a new file at `path` (streamed, a chunk at a
    /// time), flushes it, drops it from the page cache and maps it. Nothing is resident then.
    public static func create(at path: FilePath, bytes: Int, seed: UInt64) throws(FileError) -> CleanMapping {
        precondition(bytes > 0, "a mapping has bytes")
        let file = try SequentialFile(creating: path)
        let chunkBytes = 1 << 20
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: min(chunkBytes, bytes), alignment: 8)
        defer { chunk.deallocate() }
        var state = seed &+ 0x9E37_79B9_7F4A_7C15
        var written = 0
        do throws(FileError) {
            while written < bytes {
                let count = min(chunk.count, bytes - written)
                // Code and resources: a seeded pattern, different on every page.
                for word in stride(from: 0, to: count & ~7, by: 8) {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    chunk.storeBytes(of: state, toByteOffset: word, as: UInt64.self)
                }
                try file.write(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
                written += count
            }
            try file.sync()
            try file.closeReportingFailure()
        } catch {
            file.close()
            HostFiles.remove(path)
            throw error
        }
        return try CleanMapping(mapping: path, bytes: bytes)
    }

    /// Maps an existing file of `bytes` bytes read-only, and drops it from the page cache.
    public init(mapping path: FilePath, bytes: Int) throws(FileError) {
        self.path = path
        self.byteCount = bytes
        do {
            descriptor = try FileDescriptor.open(path, .readOnly)
        } catch {
            throw FileError(.open, path, error as? Errno ?? .ioError)
        }
        mappedBytes = (bytes + Self.pageBytes - 1) / Self.pageBytes * Self.pageBytes
        guard let address = mmap(nil, mappedBytes, PROT_READ, MAP_SHARED, descriptor.rawValue, 0), address != MAP_FAILED else {
            let error = Errno(rawValue: errno)
            try? descriptor.close()
            throw FileError(.open, path, error)
        }
        base = address
        _ = madvise(base, mappedBytes, MADV_RANDOM)
        // Reads through the descriptor read what they ask for, no more (no readahead past a
        // touched range), in requests as large as the device takes (`FMODE_RANDOM`).
        _ = posix_fadvise(descriptor.rawValue, 0, 0, POSIX_FADV_RANDOM)
        _ = posix_fadvise(descriptor.rawValue, 0, off_t(mappedBytes), POSIX_FADV_DONTNEED)
    }

    /// Called once the mapping is unmapped (its owner let it go): whoever handed the file out
    /// may hand it out again.
    public var onUnmap: (@Sendable () -> Void)?

    deinit {
        munmap(base, mappedBytes)
        try? descriptor.close()
        onUnmap?()
    }

    /// How often a mapping is measured again by default when nothing here changed it: the
    /// host's own eviction of clean pages is seen within this much host time (250 ms).
    public static let defaultEvictionCheckNanoseconds: UInt64 = 250_000_000

    /// How often this mapping is measured again when nothing here changed it (host time).
    public var evictionCheckNanoseconds = CleanMapping.defaultEvictionCheckNanoseconds

    /// The kernel call that measures residency.
    public enum ResidencyCall: String, Sendable {
        /// `cachestat(2)`: the page cache's count for the whole file, in one call.
        case cachestat
        /// `mincore(2)`: one byte a page, filled by looking up every page.
        case mincore
    }

    /// The call this process measures with: `cachestat` where the kernel has it, else `mincore`
    /// (decided once, by trying `cachestat` on a file of the process's own); nil before the
    /// process's first measure.
    public static var residencyCall: ResidencyCall? { decidedResidencyCall.withLock { $0 } }

    /// ``residencyCall``, behind a lock: any thread may measure first.
    private static let decidedResidencyCall = Locked<ResidencyCall?>(nil)

    /// The last measurement (bytes) and when it was taken (``MonotonicClock``).
    private var measuredBytes = 0
    private var measuredAt: UInt64 = 0
    private var hasMeasured = false

    /// Touches every page of `range` (all of the file by default), then measures what is
    /// resident. What is not resident is first read back (`readBack(_:)`): really read from
    /// the file, every read asked for before any is waited for, and all of it in the page cache
    /// and mapped when the call returns. Then a read of one byte a page (which faults only where
    /// the read-back could not map) makes a checksum of the bytes read, returned so that the
    /// reads are not optimised away.
    @discardableResult
    public func touch(_ range: Range<Int>? = nil) -> UInt64 {
        let range = (range ?? 0..<byteCount).clamped(to: 0..<byteCount)
        var offset = range.lowerBound / Self.pageBytes * Self.pageBytes
        if !range.isEmpty, !hasMeasured || measuredBytes < mappedBytes { readBack(offset..<range.upperBound) }
        var sum: UInt64 = 0
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        while offset < range.upperBound {
            sum = sum &* 31 &+ UInt64(bytes.advanced(by: offset).pointee)
            offset += Self.pageBytes
        }
        _ = measureResidentBytes()
        return sum
    }

    /// `MADV_POPULATE_READ` (Linux 5.14 and later; 22 in the kernel's headers, spelt here
    /// for C libraries older than the call).
    static let populateRead: Int32 = 22

    /// Whether this kernel has `MADV_POPULATE_READ`: asked once, on an empty range (a kernel
    /// refuses advice it does not know, `EINVAL`, before it looks at the range).
    static let populatesReads = madvise(UnsafeMutableRawPointer(bitPattern: pageBytes), 0, populateRead) == 0

    /// Bytes a `POSIX_FADV_WILLNEED` call asks for (128 KiB, the kernel's default readahead
    /// window: a call reads at most the device's window, `force_page_cache_ra`).
    static let readAheadBytes = 128 << 10

    /// Reads `range` (its start page-aligned) of the file back into the page cache and maps
    /// it, synchronously: every window of it is asked for first (`POSIX_FADV_WILLNEED`: the
    /// kernel issues the reads as large requests and does not wait for them), then
    /// `MADV_POPULATE_READ` faults each page in, waiting for its read, and returns when every
    /// page is in the page cache and mapped: nothing is still being read when the touch
    /// measures, or when a drop drops. (Without the windows asked for first, each fault would
    /// read its own 4 KiB page: the mapping is `MADV_RANDOM`.) Where the kernel has no
    /// `MADV_POPULATE_READ`, or the call fails, `readIntoPageCache(_:)`: `pread`s, done when
    /// they return. Host-side only: what the model counts is the residency measured before
    /// and after the touch.
    private func readBack(_ range: Range<Int>) {
        if Self.populatesReads {
            var offset = range.lowerBound
            while offset < range.upperBound {
                let count = min(Self.readAheadBytes, range.upperBound - offset)
                _ = posix_fadvise(descriptor.rawValue, off_t(offset), off_t(count), POSIX_FADV_WILLNEED)
                offset += count
            }
            let end = min(mappedBytes, (range.upperBound + Self.pageBytes - 1) / Self.pageBytes * Self.pageBytes)
            if madvise(base.advanced(by: range.lowerBound), end - range.lowerBound, Self.populateRead) == 0 { return }
        }
        readIntoPageCache(range)
    }

    /// Bytes the simulator reads at once to bring a range into the page cache without
    /// `MADV_POPULATE_READ` (1 MiB): the kernel reads each with requests as large as the device
    /// takes, instead of a 4 KiB read a fault.
    static let readChunkBytes = 1 << 20

    /// Reads `range` of the file into the page cache with large `pread`s, each done when it
    /// returns (the bytes read are thrown away: the touch's faults then find the pages there).
    private func readIntoPageCache(_ range: Range<Int>) {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: min(Self.readChunkBytes, range.count), alignment: Self.pageBytes)
        defer { chunk.deallocate() }
        var offset = range.lowerBound
        while offset < range.upperBound {
            let count = min(chunk.count, range.upperBound - offset)
            let read = pread(descriptor.rawValue, chunk.baseAddress, count, off_t(offset))
            if read <= 0 { break }
            offset += read
        }
    }

    /// Bytes of the file resident now (pages in memory, whoever brought them in), whole
    /// pages: the last measurement, taken after the last touch or drop, or again now when it is
    /// older than ``evictionCheckNanoseconds``.
    public func residentBytes() -> Int {
        if hasMeasured, MonotonicClock.now() &- measuredAt < evictionCheckNanoseconds { return measuredBytes }
        return measureResidentBytes()
    }

    /// Measures the bytes of the file resident now, with ``residencyCall``.
    @discardableResult
    public func measureResidentBytes() -> Int {
        let call = Self.residencyCall ?? decideResidencyCall()
        let pages: Int
        switch call {
        case .cachestat: pages = cachedPages() ?? minCorePages()
        case .mincore: pages = minCorePages()
        }
        measuredBytes = min(pages, mappedBytes / Self.pageBytes) * Self.pageBytes
        measuredAt = MonotonicClock.now()
        hasMeasured = true
        return measuredBytes
    }

    /// The file's pages in the page cache (`cachestat`), or nil when the call fails.
    private func cachedPages() -> Int? {
        var cached: UInt64 = 0
        guard pressurelab_cachestat(descriptor.rawValue, 0, UInt64(mappedBytes), &cached) == 0 else { return nil }
        return Int(clamping: cached)
    }

    /// The mapping's resident pages, page by page (`mincore`).
    private func minCorePages() -> Int {
        let pages = mappedBytes / Self.pageBytes
        var vector = [UInt8](repeating: 0, count: pages)
        let result = vector.withUnsafeMutableBufferPointer { mincore(base, mappedBytes, $0.baseAddress) }
        guard result == 0 else { return 0 }
        var resident = 0
        for flag in vector where flag & 1 != 0 { resident += 1 }
        return resident
    }

    /// Tries `cachestat` on this mapping's file: the call for the whole process from now on
    /// (the first thread to decide does; another that tried meanwhile takes its decision).
    private func decideResidencyCall() -> ResidencyCall {
        let call: ResidencyCall = cachedPages() != nil ? .cachestat : .mincore
        return Self.decidedResidencyCall.withLock { decided in
            if decided == nil { decided = call }
            return decided!
        }
    }

    /// Drops the file's pages, as the kernel drops clean pages under pressure: unmaps them
    /// from this process (`MADV_DONTNEED`) and drops them from the page cache
    /// (`POSIX_FADV_DONTNEED`), then measures what is left. Touching them again reads them
    /// back (a refault).
    public func drop() {
        _ = madvise(base, mappedBytes, MADV_DONTNEED)
        _ = posix_fadvise(descriptor.rawValue, 0, off_t(mappedBytes), POSIX_FADV_DONTNEED)
        _ = measureResidentBytes()
    }

    /// Whether `directory` is on tmpfs or ramfs (memory: nothing there can be dropped): the
    /// file system of the longest mount point in `/proc/self/mounts` that contains it.
    public static func isOnTmpfs(_ directory: FilePath) -> Bool {
        guard let real = HostFiles.realPath(directory)?.string,
              let mounts = try? HostFiles.contents(of: "/proc/self/mounts") else { return false }
        // Read on the bytes, not as `Character` lines: every run asks for each storage candidate.
        let path = Array(real.utf8), space = UInt8(ascii: " ")
        var best: (length: Int, type: ArraySlice<UInt8>)?
        for line in mounts.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: space)
            guard fields.count >= 3 else { continue }
            let point = fields[1], type = fields[2]
            // The point itself, or a directory under it ("/" contains every path).
            let contains = path.starts(with: point)
                && (path.count == point.count || point.last == UInt8(ascii: "/") || path[point.count] == UInt8(ascii: "/"))
            if contains, point.count >= (best?.length ?? -1) { best = (point.count, type) }
        }
        return best.map { $0.type.elementsEqual("tmpfs".utf8) || $0.type.elementsEqual("ramfs".utf8) } ?? false
    }
}
