import ArgumentParser
import PressureLabHarness
import PressureLabHeap

/// Prints the allocator, its options and a heap snapshot.
struct HeapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "heap",
        abstract: "Show the allocator (jemalloc version and options), the host's limits and a heap snapshot."
    )

    func run() throws {
        try requireJemalloc()
        let info = try Heap.allocatorInfo()
        let snapshot = try Heap.snapshot()
        let host = HostMemory.current()
        try StandardOutput.print("allocator: \(info.name) (\(info.version))")
        for (name, value) in info.options.sorted(by: { $0.key < $1.key }) {
            try StandardOutput.print("  \(name) = \(value)")
        }
        try StandardOutput.print("host: physical \(Units.mebibytes(host.physicalBytes)), cgroup limit "
            + (host.cgroupLimitBytes.map { Units.mebibytes($0) } ?? "none")
            + ", safe limit for a simulation \(Units.mebibytes(host.safeLimit()))")
        try StandardOutput.print("heap: \(snapshot)")
    }
}
