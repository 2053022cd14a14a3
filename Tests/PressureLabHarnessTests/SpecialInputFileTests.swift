import Foundation
@testable import PressureLab
@testable import PressureLabHarness
import PressureLabHeap
import PressureLabSweep
import SystemPackage
import Testing
import TestSupport

/// Inputs that are not regular files (a FIFO, a device, a directory) or are too large:
/// refused at once by every reader, naming the file.
@Suite("Input files that are not regular files, or too large: refused at once by every reader", .serialized)
struct SpecialInputFileTests {
    @Test("a FIFO, a device, a directory or an oversized file is refused at once by every reader")
    func specialFiles() throws {
        let directory = try Executable.temporaryDirectory("special")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("pipe.yaml").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let oversized = directory.appendingPathComponent("big.yaml").path
        #expect(FileManager.default.createFile(atPath: oversized, contents: Data(count: (4 << 20) + 1)))
        for path in [fifo, "/dev/zero", directory.path] {
            #expect(throws: InputFile.Problem.self) { _ = try InputKind.scenario.contents(of: path) }
        }
        #expect(throws: InputFile.Problem.tooLarge(bytes: (4 << 20) + 1, maximum: 4 << 20)) {
            _ = try InputKind.scenario.contents(of: oversized)
        }
        #expect(throws: InputFile.Problem.notRegular("a FIFO")) { _ = try InputKind.profile.contents(of: fifo) }
        #expect(throws: InputFile.Problem.notRegular("a character device")) { _ = try InputKind.baseline.contents(of: "/dev/zero") }
        // Each reader says so, naming the file.
        let scenario = ScenarioTexts.failure { () throws(ScenarioError) in _ = try ScenarioLoader().load(path: fifo) }
        #expect(scenario == "\(fifo): cannot read the file: not a regular file (a FIFO)")
        let profile = ScenarioTexts.failure { () throws(ScenarioError) in _ = try ProfileLoader().load(path: "/dev/zero") }
        #expect(profile == "/dev/zero: cannot read the profile: not a regular file (a character device)")
        let sweep = ScenarioTexts.failure { () throws(SweepError) in _ = try SweepFile.load(path: fifo) }
        #expect(sweep == "\(fifo): cannot read the file: not a regular file (a FIFO)")
        let baseline = ScenarioTexts.failure { () throws(GateError) in _ = try Baseline.read(from: fifo) }
        #expect(baseline == "\(fifo): the baseline is unreadable: not a regular file (a FIFO)")
        let thresholds = ScenarioTexts.failure { () throws(GateError) in _ = try Thresholds.read(from: "/dev/zero") }
        #expect(thresholds == "/dev/zero: invalid thresholds: cannot read the file: not a regular file (a character device)")
        let results = try Executable.run(["report", fifo, "--markdown", "-"])
        #expect(results.status == 1 && results.stderr.contains("not a regular file (a FIFO)"))
    }
}
