import Foundation
import PressureLabHeap
import SystemPackage
import Testing

@Suite("Clean mapped memory: mmap, touch, mincore, drop")
struct CleanMappingTests {
    static func path(_ name: String) -> FilePath {
        FilePath(NSTemporaryDirectory() + "pressurelab-clean-\(getpid())-\(name)")
    }

    @Test("a new mapping is not resident; a touch brings exactly its pages in; a drop takes them out (mincore)")
    func residency() throws {
        let path = Self.path("residency")
        defer { HostFiles.remove(path) }
        #expect(!CleanMapping.isOnTmpfs(FilePath(NSTemporaryDirectory())))
        let bytes = 1 << 20
        let mapping = try CleanMapping.create(at: path, bytes: bytes, seed: 1)
        #expect(mapping.residentBytes() == 0)
        mapping.touch()
        #expect(mapping.residentBytes() == bytes)
        mapping.drop()
        #expect(mapping.residentBytes() == 0)
        // A partial touch: its pages, within a page (no read-ahead: MADV_RANDOM).
        mapping.touch(0..<(256 << 10))
        let resident = mapping.residentBytes()
        #expect(resident >= 256 << 10 && resident <= (256 << 10) + CleanMapping.pageBytes, "\(resident)")
    }

    @Test("dropping and touching again reads the same bytes (a refault), and the file holds the declared size")
    func refault() throws {
        let path = Self.path("refault")
        defer { HostFiles.remove(path) }
        let mapping = try CleanMapping.create(at: path, bytes: 300_000, seed: 7)
        let first = mapping.touch()
        mapping.drop()
        #expect(mapping.touch() == first)
        #expect(try HostFiles.size(of: path) == 300_000)
        #expect(mapping.residentBytes() == (300_000 + CleanMapping.pageBytes - 1) / CleanMapping.pageBytes * CleanMapping.pageBytes)
    }

    @Test("the read-back is done when the touch returns: exactly the touched pages resident, every time, and a drop drops them all")
    func readBackIsSynchronous() throws {
        let path = Self.path("readback")
        defer { HostFiles.remove(path) }
        let page = CleanMapping.pageBytes
        let bytes = 8 << 20 + 1234
        let mapping = try CleanMapping.create(at: path, bytes: bytes, seed: 3)
        let whole = mapping.touch()
        let pages = (bytes + page - 1) / page
        // From the page holding byte 5,000 to the page holding the range's last byte.
        let partial = 5_000..<(3 << 20) + 17, partialPages = ((3 << 20) + 17 + page - 1) / page - 5_000 / page
        for _ in 0..<8 {
            mapping.drop()
            #expect(mapping.measureResidentBytes() == 0)
            #expect(mapping.touch() == whole)
            #expect(mapping.measureResidentBytes() == pages * page)
            mapping.drop()
            #expect(mapping.measureResidentBytes() == 0)
            mapping.touch(partial)
            #expect(mapping.measureResidentBytes() == partialPages * page)
        }
    }

    @Test("tmpfs is recognised (nothing could be dropped there)")
    func tmpfs() {
        #expect(CleanMapping.isOnTmpfs("/dev/shm") == FileManager.default.fileExists(atPath: "/dev/shm"))
    }
}
