import Foundation
import Testing

/// Our command line, `custom-lab`, as a user runs it: our policies listed beside the
/// built-ins, and a sweep that names them run in worker processes that know them too.
@Suite("Our command line")
struct CommandLineTests {
    /// The built `custom-lab` beside the test bundle (`swift test` builds it).
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("custom-lab")
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test func listsOurPolicies() throws {
        let listed = try Self.run(["list", "policies"])
        #expect(listed.status == 0)
        #expect(listed.output == "cleanup: keep-all, ios2, ios3, ios6, aggressive, lru, cost-aware, drop-models-first\n"
            + "termination: none, jetsam, lmk, largest-first, freeze, lmk-without-lmkd, fleet, oldest-first\n")
    }

    @Test func sweepsWithWorkers() throws {
        let sweep = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("sweep.yaml").path
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("custom-lab-sweep-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let swept = try Self.run(["sweep", sweep, "--jobs", "2", "--output", output])
        #expect(swept.status == 0)
        let results = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + "/results.json")))
        let runs = (results as? [String: Any])?["runs"] as? [[String: Any]] ?? []
        #expect(runs.count == 8)
        #expect(Set(runs.compactMap { $0["policy"] as? String }) == ["drop-models-first", "ios6"])
        #expect(Set(runs.compactMap { $0["termination"] as? String }) == ["oldest-first", "jetsam"])
    }
}
