import Foundation
import PressureLabHarness
import Testing

/// ART's Java heap in the background as the bundled experiments model it (docs/fidelity.md,
/// "Background footprints by mechanism"; scripts/generate_fleet.py, `java_in_background`).
@Suite("ART's Java heap in the background, by its sizing rule")
struct BackgroundJavaHeapTests {
    static func model(_ app: String, in file: String) throws -> Int {
        let scenario = try ScenarioLoader().load(path: "\(CompressedPoolTests.packageRoot)/scenarios/experiments/\(file)")
        let spec = try #require(scenario.apps.first { $0.name == app })
        return try #require(spec.screens.first).modelBytes
    }

    @Test("the released Java heap is what GrowForUtilization leaves (U 0.75, min free 512 KiB, max free 8 MiB; multiplier 3 in front, 1 behind), a print taken as live plus half the headroom")
    func releasedByTheSizingRule() throws {
        // Twitter printed 38,040 kB of Java heap in front: over 36 MiB, so its headroom in front is
        // the cap, 8 MiB x 3 = 24 MiB, and live = 38,040 - 12,288 = 25,752 kB. Behind, the headroom
        // is min(25,752 / 3, 8,192) = 8,192 kB: it keeps 25,752 + 4,096 = 29,848 kB and releases
        // 8,192 kB.
        #expect(try Self.model("twitter", in: "fleet-18.yaml") == 8_192 * 1024)
        // YouTube printed 30,480 kB: live + live / 2 = 30,480, live 20,320 kB; behind it keeps
        // 20,320 + 20,320 / 3 / 2 = 23,706.7 -> 23,707 kB and releases 6,773 kB.
        #expect(try Self.model("youtube", in: "fleet-18.yaml") == 6_773 * 1024)
        // The Pixel 4 runs take the same rule on the same prints.
        #expect(try Self.model("youtube", in: "pixel4-rounds.yaml") == 6_773 * 1024)
        // Twitch, from its own log: 35 MB live in front (35,840 + 12,288 = 48,128 kB as a print
        // catches it, live plus half of 24 MiB), 24 MB live behind (24,576 + 4,096 = 28,672 kB kept).
        #expect(try Self.model("twitch", in: "fleet-18.yaml") == (35 * 1024 + 12_288 - 28_672) * 1024)
    }
}
