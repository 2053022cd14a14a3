import PressureLabHeap
import Testing

/// The choice of where a run's own files go (docs/formats.md, "Storage"), from injected
/// free-space figures: no real tmpfs is looked at.
@Suite("Run storage: a tmpfs chosen by free space and room in the host's allowance, else the disk")
struct RunStorageTests {
    static let mebibyte = 1 << 20
    static func candidate(_ path: String, tmpfs: Bool = true, freeMiB: Int?) -> RunStorage.Candidate {
        RunStorage.Candidate(path: path, isTmpfs: tmpfs, freeBytes: freeMiB.map { $0 * mebibyte })
    }
    static let roomy = RunStorage.StorageNeed(bytes: 0, memoryRoomBytes: .max)

    @Test("auto takes the first tmpfs with room, skipping a small one, one that is not tmpfs and one that cannot tell")
    func autoByFreeSpace() throws {
        let runtime = Self.candidate("/run/user/1000", freeMiB: 64), shm = Self.candidate("/dev/shm", freeMiB: 24_000)
        #expect(try RunStorage.choose(request: .auto, candidates: [runtime, shm], disk: "/tmp", need: Self.roomy)
            == RunStorage(kind: .tmpfs, directory: "/dev/shm"))
        let bigRuntime = Self.candidate("/run/user/1000", freeMiB: 2_000)
        #expect(try RunStorage.choose(request: .auto, candidates: [bigRuntime, shm], disk: "/tmp", need: Self.roomy)
            == RunStorage(kind: .tmpfs, directory: "/run/user/1000"))
        // A container's /dev/shm of 64 MiB exists but has no room for the 256 MiB minimum.
        let small = Self.candidate("/dev/shm", freeMiB: 64)
        #expect(try RunStorage.choose(request: .auto, candidates: [small], disk: "/tmp", need: Self.roomy)
            == RunStorage(kind: .disk, directory: "/tmp"))
        let notTmpfs = Self.candidate("/run/user/1000", tmpfs: false, freeMiB: 100_000)
        let unknown = Self.candidate("/dev/shm", freeMiB: nil)
        #expect(try RunStorage.choose(request: .auto, candidates: [notTmpfs, unknown], disk: "/tmp", need: Self.roomy).kind
            == .disk)
        #expect(try RunStorage.choose(request: .auto, candidates: [], disk: "/tmp", need: Self.roomy).kind == .disk)
    }

    @Test("the need is the declared files' bytes or 256 MiB, and must fit the host's room beside the declared memory")
    func needAndRoom() throws {
        #expect(RunStorage.StorageNeed(bytes: 10, memoryRoomBytes: 0).bytes == RunStorage.StorageNeed.minimumBytes)
        let shm = Self.candidate("/dev/shm", freeMiB: 1_000)
        let large = RunStorage.StorageNeed(bytes: 1_500 * Self.mebibyte, memoryRoomBytes: .max)
        #expect(try RunStorage.choose(request: .auto, candidates: [shm], disk: "/tmp", need: large).kind == .disk)
        let fits = RunStorage.StorageNeed(bytes: 900 * Self.mebibyte, memoryRoomBytes: 900 * Self.mebibyte)
        #expect(try RunStorage.choose(request: .auto, candidates: [shm], disk: "/tmp", need: fits).kind == .tmpfs)
        // Files on tmpfs are memory: no room left in the host's allowance, no tmpfs.
        let cramped = RunStorage.StorageNeed(bytes: 900 * Self.mebibyte, memoryRoomBytes: 899 * Self.mebibyte)
        #expect(try RunStorage.choose(request: .auto, candidates: [shm], disk: "/tmp", need: cramped).kind == .disk)
        #expect(throws: RunStorage.Refusal.self) {
            try RunStorage.choose(request: .tmpfs, candidates: [shm], disk: "/tmp", need: cramped)
        }
    }

    @Test("disk never looks; tmpfs fails when no candidate has room")
    func requests() throws {
        let shm = Self.candidate("/dev/shm", freeMiB: 24_000)
        #expect(try RunStorage.choose(request: .disk, candidates: [shm], disk: "/var/tmp", need: Self.roomy)
            == RunStorage(kind: .disk, directory: "/var/tmp"))
        #expect(try RunStorage.choose(request: .tmpfs, candidates: [shm], disk: "/tmp", need: Self.roomy).kind == .tmpfs)
        #expect(throws: RunStorage.Refusal.self) {
            try RunStorage.choose(request: .tmpfs, candidates: [Self.candidate("/dev/shm", freeMiB: 64)], disk: "/tmp",
                                  need: Self.roomy)
        }
    }

    @Test("PRESSURELAB_STORAGE decides; unset, an explicit TMPDIR asks for the disk; candidates are XDG_RUNTIME_DIR, /dev/shm")
    func environment() throws {
        #expect(try RunStorage.request(in: [:]) == .auto)
        #expect(try RunStorage.request(in: ["TMPDIR": ""]) == .auto)
        #expect(try RunStorage.request(in: ["TMPDIR": "/scratch"]) == .disk)
        #expect(try RunStorage.request(in: ["TMPDIR": "/scratch", "PRESSURELAB_STORAGE": "auto"]) == .auto)
        #expect(try RunStorage.request(in: ["PRESSURELAB_STORAGE": "tmpfs"]) == .tmpfs)
        #expect(try RunStorage.request(in: ["PRESSURELAB_STORAGE": "disk"]) == .disk)
        #expect(throws: RunStorage.Refusal.self) { try RunStorage.request(in: ["PRESSURELAB_STORAGE": "ram"]) }
        #expect(RunStorage.candidatePaths(in: [:]) == ["/dev/shm"])
        #expect(RunStorage.candidatePaths(in: ["XDG_RUNTIME_DIR": "/run/user/7/"]) == ["/run/user/7", "/dev/shm"])
        #expect(RunStorage.candidatePaths(in: ["XDG_RUNTIME_DIR": "relative"]) == ["/dev/shm"])
    }
}
