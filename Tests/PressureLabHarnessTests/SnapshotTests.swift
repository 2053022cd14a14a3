import Foundation
import Testing
import TestSupport

/// Table and Markdown output for one small scenario, against committed snapshots.
/// Durations vary from run to run, so both sides have them replaced by `<t>`, the
/// "dominated" column (which compares reload times) removed, and runs of spaces collapsed;
/// every byte count, count and name must match exactly.
/// Record new snapshots with `PRESSURELAB_RECORD_SNAPSHOTS=1 swift test --filter Snapshot`.
@Suite("Snapshots of the table and Markdown output", .serialized)
struct SnapshotTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    static func normalized(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(line)
                .replacingOccurrences(of: #"[0-9]+(\.[0-9]+)? (ns|us|ms)"#, with: "<t>", options: .regularExpression)
                .replacingOccurrences(of: #"-{2,}"#, with: "--", options: .regularExpression)
                .replacingOccurrences(of: #"runs in [0-9.]+ s"#, with: "runs in <t>", options: .regularExpression)
                .replacingOccurrences(of: "~~", with: "")
                .replacingOccurrences(of: #"\| (yes)? ?\|$"#, with: "|", options: .regularExpression)
                .replacingOccurrences(of: #" +yes$"#, with: "", options: .regularExpression)
                .replacingOccurrences(of: #" {2,}"#, with: " ", options: .regularExpression)
                .trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }

    @Test("table (the columns that decide), table --wide (every column) and markdown", arguments: ["table", "table-wide", "markdown"])
    func snapshot(variant: String) throws {
        let format = variant == "table-wide" ? ["--format", "table", "--wide"] : ["--format", variant]
        let outcome = try Executable.run(["compare", Executable.small, "--policy", "keep-all", "--policy", "ios3",
                                          "--policy", "ios6"] + format)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let file = Self.directory.appendingPathComponent("small.\(variant).txt")
        if ProcessInfo.processInfo.environment["PRESSURELAB_RECORD_SNAPSHOTS"] == "1" {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try outcome.stdout.write(to: file, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(Self.normalized(outcome.stdout) == Self.normalized(expected))
    }
}
