import PressureLab
import PressureLabHarness
import PressureLabTesting
import Testing
import TestSupport
import XCTest

/// The test product: expectations that fail at the caller's line, in Swift Testing and XCTest.
@Suite("Footprint expectations for users' tests")
struct FootprintTests {
    static let run: RunResult = try! Footprint.run(scenarioAt: Executable.small, policy: .ios6)

    @Test("within the limit: nothing is reported; over it: scenario, policy, figure, measured, allowed and the excess")
    func violations() throws {
        #expect(Footprint.expect(Self.run, .peakRetainedBytes, atMost: 64 << 20))
        #expect(Footprint.expect(Self.run, .dataLossBytes, atMost: 0))
        #expect(Footprint.violation(of: .kills, in: Self.run, atMost: 100) == nil)
        let violation = try #require(Footprint.violation(of: .peakRetainedBytes, in: Self.run, atMost: 1 << 20))
        let peak = Self.run.metrics.peakRetainedBytes, over = peak - (1 << 20)
        let percent = String(format: "%.1f", Double(over) / Double(1 << 20) * 100)
        let expected = "small under ios6 / jetsam: peakRetainedBytes measured \(peak) B (\(Units.mebibytes(peak))), "
            + "allowed at most 1048576 B (1.00 MiB), over by \(over) B (\(Units.mebibytes(over))) (\(percent)%)"
        #expect(violation.description == expected)
    }

    @Test("a failure is recorded at the caller's file and line")
    func reportedAtTheCaller() {
        let line = #line + 2
        withKnownIssue {
            Footprint.expect(Self.run, .peakRetainedBytes, atMost: 1 << 20)
        } matching: { issue in
            issue.sourceLocation?.line == line && issue.sourceLocation?.fileName == "FootprintTests.swift"
                && issue.comments.contains { $0.rawValue.hasPrefix("small under ios6 / jetsam: peakRetainedBytes measured ") }
        }
    }

    @Test("a host-time figure is refused, saying why, whatever its value")
    func hostTimeRefused() throws {
        let refusal = try #require(Footprint.violation(of: .viewReloadP99, in: Self.run, atMost: Int.max))
        #expect(refusal.description.hasPrefix("small under ios6 / jetsam: viewReloadLatencyNs.p99: host time (measured on this machine, "
            + "different on every run) cannot be expected in a test"))
        #expect(refusal.description.contains("coldLaunchDeviceNs.p50"))
        withKnownIssue { Footprint.expect(Self.run, .reloadTimeNs, atMost: Int.max) }
        #expect(Footprint.expect(Self.run, .coldLaunchDeviceP50, atMost: 10_000_000_000))
    }
}

/// The same expectations under XCTest: the failure is XCTest's, at the caller's line.
final class FootprintXCTests: XCTestCase {
    private var recorded: [(description: String, file: String, line: Int)] = []

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        recorded.append((description, filePath, lineNumber))
    }

    func testFailureAtTheCallersLine() {
        let line = #line + 1
        let passed = Footprint.expect(FootprintTests.run, .peakRetainedBytes, atMost: 1 << 20)
        XCTAssertFalse(passed)
        guard recorded.count == 1 else { return XCTFail("expected one recorded failure, got \(recorded.count)") }
        recorded.removeAll { entry in
            entry.line == line && entry.file.hasSuffix("FootprintTests.swift")
                && entry.description.contains("small under ios6 / jetsam: peakRetainedBytes measured ")
        }
        if !recorded.isEmpty { super.recordFailure(withDescription: "the failure was not at the caller's line: \(recorded)", inFile: #filePath, atLine: #line, expected: true) }
    }
}
