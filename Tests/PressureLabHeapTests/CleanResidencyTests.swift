import Foundation
import PressureLabHeap
import SystemPackage
import Testing

/// A clean mapping's residency, measured at the cost of what changed: after a touch and after
/// a drop, and again only when the last measurement is older than the eviction check.
@Suite("Clean mapping residency")
struct CleanResidencyTests {
    static func mapping(bytes: Int, name: String) throws -> CleanMapping {
        let path = FilePath(NSTemporaryDirectory() + "pressurelab-residency-\(getpid())-\(name)")
        return try CleanMapping.create(at: path, bytes: bytes, seed: 11)
    }

    @Test("the kernel's count (cachestat where it exists) agrees with mincore's page by page: none, half, all, none")
    func callsAgree() throws {
        let page = CleanMapping.pageBytes, bytes = 64 * page
        let mapping = try Self.mapping(bytes: bytes, name: "agree")
        defer { HostFiles.remove(mapping.path) }
        // A second view of the same file, counted by mincore directly.
        let fd = open(mapping.path.string, O_RDONLY)
        defer { close(fd) }
        let base = try #require(mmap(nil, bytes, PROT_READ, MAP_SHARED, fd, 0))
        defer { munmap(base, bytes) }
        func mincorePages() -> Int {
            var vector = [UInt8](repeating: 0, count: bytes / page)
            _ = vector.withUnsafeMutableBufferPointer { mincore(base, bytes, $0.baseAddress) }
            return vector.filter { $0 & 1 != 0 }.count
        }
        #expect(mapping.measureResidentBytes() == 0 && mincorePages() == 0)
        mapping.touch(0..<(bytes / 2))
        #expect(mapping.residentBytes() == bytes / 2)
        #expect(mincorePages() * page == bytes / 2)
        mapping.touch()
        #expect(mapping.residentBytes() == bytes && mincorePages() * page == bytes)
        mapping.drop()
        #expect(mapping.residentBytes() == 0 && mincorePages() == 0)
        let kernel = try #require(CleanMapping.residencyCall)
        // This project's CI machines run Linux 6.5 or later, where cachestat exists.
        print("residency measured with \(kernel.rawValue)")
    }

    @Test("between changes a read returns the last measurement; a change here, or the eviction check, measures again")
    func measuredWhenChanged() throws {
        let page = CleanMapping.pageBytes, bytes = 32 * page
        let mapping = try Self.mapping(bytes: bytes, name: "changed")
        defer { HostFiles.remove(mapping.path) }
        mapping.evictionCheckNanoseconds = .max
        #expect(mapping.residentBytes() == 0)
        // Something else (the host, another mapping of the file) brings the file in: nothing
        // here changed it, so the last measurement stands...
        let other = try CleanMapping(mapping: mapping.path, bytes: bytes)
        other.touch()
        #expect(mapping.residentBytes() == 0)
        // ...until the eviction check comes due (here: at every read)...
        mapping.evictionCheckNanoseconds = 0
        #expect(mapping.residentBytes() == bytes)
        // ...or the mapping itself changes the pages: after the other drops them, a touch of
        // eight pages reads those eight.
        mapping.evictionCheckNanoseconds = .max
        other.drop()
        #expect(mapping.residentBytes() == bytes)
        mapping.touch(0..<(8 * page))
        #expect(mapping.residentBytes() == 8 * page)
        mapping.drop()
        #expect(mapping.residentBytes() == 0)
    }
}
