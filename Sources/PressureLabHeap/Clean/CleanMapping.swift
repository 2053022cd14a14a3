#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// Clean file-backed memory, really mapped: a file of code or resources on a disk file
/// system, mapped read-only with `mmap`, its pages brought in by touching them and counted
/// with `mincore` (resident pages, measured, never computed), and dropped as the kernel drops
/// clean pages under pressure. The one door to `mmap`, `mincore`, `madvise` and
/// `posix_fadvise`.
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
        _ = posix_fadvise(descriptor.rawValue, 0, off_t(mappedBytes), POSIX_FADV_DONTNEED)
    }

    deinit {
        munmap(base, mappedBytes)
        try? descriptor.close()
    }

    /// Touches every page of `range` (all of the file by default): a read of one byte a page,
    /// which faults in what is not resident. Returns a checksum of the bytes read, so that the
    /// reads are not optimised away.
    @discardableResult
    public func touch(_ range: Range<Int>? = nil) -> UInt64 {
        let range = (range ?? 0..<byteCount).clamped(to: 0..<byteCount)
        var sum: UInt64 = 0
        var offset = range.lowerBound / Self.pageBytes * Self.pageBytes
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        while offset < range.upperBound {
            sum = sum &* 31 &+ UInt64(bytes.advanced(by: offset).pointee)
            offset += Self.pageBytes
        }
        return sum
    }

    /// Bytes of the file resident now (`mincore`: pages in memory, whoever brought them in),
    /// whole pages.
    public func residentBytes() -> Int {
        let pages = mappedBytes / Self.pageBytes
        var vector = [UInt8](repeating: 0, count: pages)
        let result = vector.withUnsafeMutableBufferPointer { mincore(base, mappedBytes, $0.baseAddress) }
        guard result == 0 else { return 0 }
        var resident = 0
        for flag in vector where flag & 1 != 0 { resident += 1 }
        return resident * Self.pageBytes
    }

    /// Drops the file's pages, as the kernel drops clean pages under pressure: unmaps them
    /// from this process (`MADV_DONTNEED`) and drops them from the page cache
    /// (`POSIX_FADV_DONTNEED`). Touching them again reads them back (a refault).
    public func drop() {
        _ = madvise(base, mappedBytes, MADV_DONTNEED)
        _ = posix_fadvise(descriptor.rawValue, 0, off_t(mappedBytes), POSIX_FADV_DONTNEED)
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
