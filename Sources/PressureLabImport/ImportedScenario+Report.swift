import PressureLab
import PressureLabHarness
import Foundation

/// What an import modelled, set beside the dump's own totals: printed on standard error after
/// the scenario is written, so that a user sees at once how much of the app's footprint the
/// scenario holds and what it leaves out.
extension ImportedScenario {
    /// The bytes the scenario models by kind (`data`, `model`, `backing`, `views`, `cells`, `clean`), in that order.
    package var modelledByKind: [(kind: String, bytes: Int)] {
        var model = 0, backing = 0, views = 0, cells = 0
        for screen in app.screens {
            model += screen.model?.bytes ?? 0
            backing += screen.backing?.bytes ?? 0
            views += screen.views * screen.bytesPerView
            if let table = screen.table { cells += table.visibleRows * table.cellBytes }
        }
        return [("data", app.data?.bytes ?? 0), ("model", model), ("backing", backing), ("views", views), ("cells", cells),
                ("clean", app.clean?.bytes ?? 0)].filter { $0.bytes > 0 }
    }

    /// Every byte the scenario models: dirty (``declaredDirtyBytes``) and clean.
    package var modelledBytes: Int { declaredDirtyBytes + (app.clean?.bytes ?? 0) }

    /// The report's lines (without the `pressurelab: ` prefix): what was modelled, the dump's
    /// own footprint figure and the share modelled of it, what was left out with its size.
    package var report: [String] {
        let kinds = modelledByKind.map { "\($0.kind) \(Self.mebibytes($0.bytes))" }.joined(separator: ", ")
        var lines = ["imported app \(app.name): modelled \(Self.mebibytes(modelledBytes)) (\(modelledBytes) B)"
                     + (kinds.isEmpty ? "" : ": \(kinds)")]
        if let footprint {
            // Pss counts clean pages; a physical footprint does not: it is set beside what the
            // import counted as the footprint counts it (the dirty keys).
            let compared = footprint.countsClean ? modelledBytes : declaredDirtyBytes
            let share = footprint.bytes > 0 ? Int((Double(compared) / Double(footprint.bytes) * 100).rounded()) : 0
            lines.append("  the dump's own figure: \(footprint.what) \(Self.mebibytes(footprint.bytes)) (\(footprint.bytes) B, "
                         + "\(footprint.origin)); modelled \(footprint.countsClean ? "" : "footprint, ")\(Self.mebibytes(compared)), "
                         + "is \(share)% of it")
        } else {
            lines.append("  the dump has no footprint figure of its own to set beside it")
        }
        for left in leftOut {
            lines.append("  left out: \(left.what): \(Self.mebibytes(left.bytes)) (\(left.bytes) B, \(left.origin))")
        }
        if memoryScale > 1 {
            lines.append("  memory_scale \(memoryScale): simulated at 1/\(memoryScale) (device memory \(Self.mebibytes(scaled(deviceMemoryBytes))), "
                         + "the app \(Self.mebibytes(scaled(modelledBytes))) in the scenario); runs report every figure at full size")
        }
        lines.append("  device: memory \(Self.mebibytes(deviceMemoryBytes)) ("
                     + (memorySource == .option ? "--memory" : "room for the app: twice what it declares; --memory BYTES sets it")
                     + "), profile \(profile)")
        return lines
    }

    /// `12.3 MiB` (one decimal), `512 KiB` under a mebibyte.
    package static func mebibytes(_ bytes: Int) -> String {
        if bytes < 1 << 20 { return "\((bytes + 512) / 1024) KiB" }
        return String(format: "%.1f MiB", Double(bytes) / Double(1 << 20))
    }
}
