import Foundation
@testable import PressureLabHarness
import Testing
import TestSupport

@Suite("Output that fits a terminal and says what it is")
struct TerminalTableTests {
    static func row(scenario: String, policy: String, mean: Int, device: UInt64?, dominated: Bool = false) -> ComparisonRow {
        ComparisonRow(scenario: scenario, policy: policy, termination: "jetsam", peakBytes: 2 * mean, meanBytes: mean,
                      finalBytes: mean / 2, kills: 12_345, limitKills: 1_234, crashes: 5_678, coldLaunches: 678, viewReloads: 9, reloadTimeNs: 1_500_000,
                      viewReloadP50: 10, viewReloadP99: 20, reloadDeviceTimeNs: device, viewReloadDeviceP50: nil,
                      coldLaunchDeviceP50: nil, coldLaunchP50: 30, dataLossBytes: 0, dominated: dominated, meanDeltaPercent: 0)
    }

    @Test("the default table has the columns that decide (every kind of death) and fits 120 characters, long names cut")
    func narrow() {
        let rows = [Self.row(scenario: String(repeating: "s", count: 60), policy: String(repeating: "p", count: 40),
                             mean: 3_000 << 20, device: 98_765_432_100),
                    Self.row(scenario: "small", policy: "ios6", mean: 1 << 20, device: 1_234_567, dominated: true)]
        let table = ResultFormatter.table(rows)
        let lines = table.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= ResultFormatter.narrowTableColumns }, "\(lines.map(\.count))")
        #expect(lines[0] == "scenario                policy              mean         peak         kills  limit  oom   cold  reload device  dominated")
        #expect(lines[2].hasPrefix(String(repeating: "s", count: 21) + "…  " + String(repeating: "p", count: 17) + "…"))
        #expect(lines[2].hasSuffix("3000.00 MiB  6000.00 MiB  12345   1234  5678   678    98765.43 ms"))
        #expect(lines[3].hasSuffix("1.00 MiB     2.00 MiB  12345   1234  5678   678      1234.6 us  yes"))
        // Without device time in every row, host time, said in the header.
        let host = ResultFormatter.table([Self.row(scenario: "a", policy: "ios6", mean: 1 << 20, device: nil)])
        #expect(host.hasPrefix("scenario  policy  mean      peak      kills  limit  oom   cold  reload host  dominated"))
        #expect(host.contains("1500.0 us"))
        // --wide: every column, as before.
        #expect(ResultFormatter.table(rows, wide: true).hasPrefix("scenario"))
        #expect(ResultFormatter.table(rows, wide: true).contains("view reload p50 device / host"))
    }

    @Test("--output writes the results file: a name that is not .json is bad usage (exit 64) pointing at --format and report --markdown")
    func outputExtension() throws {
        let directory = try Executable.temporaryDirectory("output-extension")
        defer { try? FileManager.default.removeItem(at: directory) }
        let markdown = directory.appendingPathComponent("r.md").path
        let refused = try Executable.run(["run", Executable.small, "--policy", "ios6", "--output", markdown, "--format", "markdown"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--output writes the results file (JSON) and must be named .json (got \(markdown)); "
            + "for a table, CSV or Markdown on standard output use --format, and for a Markdown report of a results file use "
            + "'pressurelab report RESULTS.json --markdown FILE'"))
        #expect(!FileManager.default.fileExists(atPath: markdown))
        let bare = try Executable.run(["run", Executable.small, "--policy", "ios6", "--output", directory.appendingPathComponent("results").path])
        #expect(bare.status == 64)
        let json = directory.appendingPathComponent("R.JSON").path
        let accepted = try Executable.run(["run", Executable.small, "--policy", "ios6", "--output", json])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(FileManager.default.fileExists(atPath: json))
    }
}
