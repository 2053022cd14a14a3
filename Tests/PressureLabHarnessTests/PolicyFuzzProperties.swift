import Foundation
import PressureLab
import PressureLabFuzzEntryPoints
import Testing

/// The policy fuzzer's property (Fuzz/EntryPoints/PolicyFuzzing.swift), over seeded inputs:
/// random scenarios, random termination actions and cleanup plans, valid and invalid.
@Suite("Policy fuzzing, seeded: no crash, no hang, every invalid action a PolicyMistake, the ledgers sound after every step")
struct PolicyFuzzProperties {
    @Test("300 seeded inputs keep every invariant")
    func seeded() {
        var random = SplitMix64(seed: 49)
        var failures: [String] = []
        var steps = 0, mistakes = 0, withMistakes = 0, mostUncounted = 0, mostHeld = 0
        for index in 0..<300 {
            let bytes = (0..<(16 + Int(random.next() % 496))).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let report = bytes.withUnsafeBytes { PolicyFuzzing.examine($0) }
            if !report.violations.isEmpty { failures.append("input \(index): \(report.violations.joined(separator: "; "))") }
            steps += report.steps
            mistakes += report.mistakes
            if report.mistakes > 0 { withMistakes += 1 }
            mostUncounted = max(mostUncounted, report.mostUncounted)
            mostHeld = max(mostHeld, report.heldAfterRelease)
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        // The inputs reach the device: steps run, and invalid actions and plans made mistakes.
        #expect(steps > 300 * 4 && withMistakes > 100, "\(steps) steps, \(mistakes) mistakes in \(withMistakes) inputs")
        // jemalloc's figure for the run: the ledgers never count more than the thread holds
        // (a violation above), the rest is the simulation's own bookkeeping, and once an input's
        // run is released its thread holds nothing (past what a code path makes once per process).
        #expect(mostUncounted > 0 && mostHeld <= PolicyFuzzing.releaseSlackBytes, "uncounted \(mostUncounted), held \(mostHeld)")
        print("policy fuzzing: \(steps) steps, \(mistakes) mistakes; the most bytes uncounted by the ledgers \(mostUncounted), the most held after release \(mostHeld)")
    }
}
