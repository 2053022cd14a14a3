import CustomPolicies
import Foundation
import PressureLabTesting
import Testing

/// Growth per cycle with PressureLab's test product (docs/gating.md, "Growth per cycle"): the
/// bundled leaking-drafts keeps a 64 KiB draft and its 32 B block a cycle, measured exactly.
@Suite("Growth per cycle")
struct GrowthGateTests {
    @Test func leakingDraftsGrowsByItsLeak() throws {
        let run = try Footprint.run(bundled: "leaking-drafts")
        Footprint.expect(run, .growthPerCycleBytes, atMost: 65_568)
        #expect(run.metrics.growthPerCycleBytes == 65_568)
    }

    @Test func steadyDraftsDoesNotGrow() throws {
        let run = try Footprint.run(bundled: "steady-drafts", policy: Cleanup(DropModelsFirst()))
        Footprint.expect(run, .growthPerCycleBytes, atMost: 0)
    }
}
