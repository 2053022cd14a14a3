import PressureLabHarness
import Testing

/// The free pages a device-experiment worker keeps after a step: what the apps leave of the
/// budget, plus 512 MiB, so that the apps' bytes and the spare add up to the bound
/// docs/limits.md states.
@Suite("Spare heap allowance: the budget the apps leave, plus 512 MiB")
struct SpareHeapAllowanceTests {
    @Test("apps holding the whole budget leave 512 MiB of spare; holding less, the rest of the budget besides")
    func allowance() {
        let budget = 2_149 << 20
        #expect(DeviceExperiment.spareHeapAllowance(budgetBytes: budget, usedBytes: budget) == 512 << 20)
        #expect(DeviceExperiment.spareHeapAllowance(budgetBytes: budget, usedBytes: budget + (64 << 20)) == 512 << 20)
        #expect(DeviceExperiment.spareHeapAllowance(budgetBytes: budget, usedBytes: 1_000 << 20) == (512 + 1_149) << 20)
        for used in stride(from: 0, through: budget + (1 << 30), by: 97 << 20) {
            // The bound: what the apps hold plus the spare kept is at most the budget plus 512 MiB.
            #expect(min(used, budget) + DeviceExperiment.spareHeapAllowance(budgetBytes: budget, usedBytes: used)
                <= budget + (512 << 20))
        }
    }
}
