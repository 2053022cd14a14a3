import Foundation
import PressureLab
import PressureLabHarness
import PressureLabHeap
import PressureLabImport
import PressureLabSweep

/// The sweep reader's fuzz entry point: arbitrary bytes through ``SweepFile/parse(_:path:)``.
public enum SweepFuzzing {
    /// Reads `bytes` as a sweep file (text as ``SweepFile/load(path:)`` decodes it: ``TextInput``,
    /// YAML's line breaks); whether it was accepted.
    @discardableResult
    public static func sweep(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let text = try? TextInput.decode(Array(bytes), lineBreaks: .yaml).text else { return false }
        do {
            let file = try SweepFile.parse(text, path: "fuzz/sweep.yaml")
            // Expanding the axes that need no files: the product is bounded.
            return file.policies.count * file.terminations.count * file.seeds.count <= SweepFile.maximumCells
        } catch {
            return false
        }
    }
}
