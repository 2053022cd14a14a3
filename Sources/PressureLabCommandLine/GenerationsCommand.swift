import ArgumentParser
import PressureLab
import PressureLabHarness
import PressureLabHeap

/// Runs one small app under each OS generation's unload cycle and prints what it measured.
struct GenerationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generations",
        abstract: "Compare the unload cycles of iPhone OS 2.2, iOS 3, iOS 5 and iOS 6 on one app (measured)."
    )

    @Option(name: .long, help: "Write every callback and state change to this file (see --trace-format).")
    var trace: String?

    @Option(name: .long, help: "The trace's format: jsonl or chrome (Trace Event Format).")
    var traceFormat: TraceFormat = .jsonl

    func run() throws {
        try requireJemalloc()
        let writer = try OutputOptions.openTrace(trace, format: traceFormat)
        let rows: [GenerationComparison.Row]
        do {
            rows = try GenerationComparison().run(trace: writer)
        } catch {
            writer?.discard()
            throw error
        }
        let allocator = try Heap.allocatorInfo()
        var text = "PressureLab \(PressureLabVersion.current) on \(allocator.name): a list, a detail and a compose screen\n"
        text += "are pushed, a memory warning arrives, then the user goes back to the detail screen.\n\n"
        text += TextTable.render(
            header: ["generation", "outlets", "before warning", "freed", "after warning", "after return", "return latency"],
            rows: rows.map { row in
                [row.generation.unloadCycleLabel, row.releasesOutlets ? "released" : "forgotten",
                 Units.mebibytes(row.retainedBeforeWarning), Units.mebibytes(row.freedByWarning),
                 Units.mebibytes(row.retainedAfterWarning), Units.mebibytes(row.retainedAfterReturn),
                 Units.duration(row.returnLatencyNanoseconds)]
            }) + "\n"
        if let writer {
            text += "\ntrace: \(writer.lineCount) events written to \(writer.path)\n"
        }
        let batch = CompletedPlan(runs: [], trace: writer, profile: nil).outputs()
        try OutputOptions.commit(batch) { try StandardOutput.print(text, terminator: "") }
    }
}

extension OSRelease {
    /// The releases that share this one's unload cycle, as the table names them.
    var unloadCycleLabel: String {
        switch unloadCycle {
        case .iPhoneOS2: return "iPhone OS 2.2"
        case .iPhoneOS3: return "iOS 3-4"
        case .iOS5: return "iOS 5"
        default: return "iOS 6+"
        }
    }
}
