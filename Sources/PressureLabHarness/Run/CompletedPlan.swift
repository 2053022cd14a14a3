/// A plan that ran to the end, with its trace (written, not yet in place): what the
/// command line, the gate and the sweep engine turn into output files.
public struct CompletedPlan {
    /// Every run, in the plan's order.
    public var runs: [RunResult]
    /// The trace file the runs streamed into, finished at ``outputs()``.
    package var trace: (any TraceFile)?
    /// The profile every run used, when they share one.
    public var profile: DeviceProfile?

    /// A completed plan of `runs` without a trace.
    public init(runs: [RunResult], profile: DeviceProfile? = nil) {
        self.init(runs: runs, trace: nil, profile: profile)
    }

    /// With the trace file they streamed into.
    package init(runs: [RunResult], trace: (any TraceFile)?, profile: DeviceProfile?) {
        self.runs = runs
        self.trace = trace
        self.profile = profile
    }

    /// A batch of outputs that starts with the trace (finished here).
    package func outputs() -> OutputBatch {
        let batch = OutputBatch()
        if let trace {
            trace.finish()
            batch.add(trace.file, as: "the trace")
        }
        return batch
    }

    /// The results file of the runs (`pressurelab.results/1`).
    public func resultsFile() throws -> ResultsFile {
        try ResultsFile(version: PressureLabVersion.current, runs: runs, profile: profile)
    }

    /// Every output of the plan in one batch (the trace; the results at `results`; the
    /// HTML report at `html`), and the runs as text in `format` (a table of every column when
    /// `wide`), to print before the batch's files replace their destinations.
    package func report(results: String?, html: String?, format: ResultFormat,
                       wide: Bool = false) throws -> (batch: OutputBatch, text: String) {
        let file = try resultsFile()
        let batch = outputs()
        if let results { batch.add(try ResultFormatter.json(file), to: results, as: "the results") }
        if let html { batch.add(HTMLReport.render(file), to: html, as: "the HTML report") }
        let rows = ResultFormatter.comparison(runs)
        let text: String
        switch format {
        case .table: text = ResultFormatter.table(rows, wide: wide)
        case .csv: text = ResultFormatter.csv(rows)
        case .markdown: text = ResultFormatter.markdown(rows)
        case .json: text = try ResultFormatter.json(file)
        }
        return (batch, text)
    }
}
