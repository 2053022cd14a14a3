import Foundation
import PressureLab
import PressureLabHarness
import Testing

/// `device.memory_scale: N` (docs/importing.md, "Processes bigger than the host"): a run of
/// the scenario's figures, 1/N of the process's, reported at full size: its bytes and its
/// device time stand beside the same app run at full size, and every output says the scale.
@Suite("Memory scale: a process simulated at 1/N, reported at full size")
struct MemoryScaleTests {
    /// An app of 64 MiB of data, 16 MiB of clean memory and an 8 MiB backing store on a
    /// 512 MiB device, divided by `scale` (the tree's 1 KiB view too) with `memory_scale`.
    static func scenario(scale: Int) -> String {
        """
        scenario: 1
        name: big
        device:
          memory: \(512 / scale)MiB
          profile: iphone-xs-2018
        \(scale > 1 ? "  memory_scale: \(scale)" : "")
        apps:
          big:
            data: \(64 * 1024 / scale)KiB
            clean: \(16 * 1024 / scale)KiB
            screens:
              main:
                tree: { views: 1, fanout: 1, bytes: \(1024 / scale)B }
                backing: \(8 * 1024 / scale)KiB
            root: main
        script:
          - launch: big
          - idle: 1s
        """
    }

    static func run(scale: Int) throws -> RunResult {
        let scenario = try ScenarioLoader().parse(Self.scenario(scale: scale), path: "big.yaml")
        #expect(scenario.device.memoryScale == scale)
        return try Simulation(scenario, cleanup: .keepAll, termination: .noTermination,
                              profile: try ProfileLibrary.load(ProfileReference("iphone-xs-2018"))).run()
    }

    /// Whether `scaled` is within `percent` of `full`.
    static func close(_ scaled: Int, _ full: Int, percent: Double = 1) -> Bool {
        abs(Double(scaled - full)) <= Double(full) * percent / 100
    }

    @Test("at 1/4: bytes, the work's bytes and the cold launch's device time within 1% of the full-size run; the scale in the result")
    func quarterStandsBesideFull() throws {
        let full = try Self.run(scale: 1), quarter = try Self.run(scale: 4)
        #expect(full.memoryScale == nil && quarter.memoryScale == 4)
        #expect(Self.close(quarter.metrics.peakRetainedBytes, full.metrics.peakRetainedBytes),
                "peak \(quarter.metrics.peakRetainedBytes) B at 1/4, \(full.metrics.peakRetainedBytes) B at full size")
        #expect(quarter.metrics.peakRetainedBytes == quarter.timeline.map(\.retainedBytes).max())
        let fullClean = try #require(full.metrics.cleanResidentBytesPeak), quarterClean = try #require(quarter.metrics.cleanResidentBytesPeak)
        #expect(Self.close(quarterClean, fullClean), "clean \(quarterClean) B at 1/4, \(fullClean) B")
        let fullWork = try #require(full.metrics.work), quarterWork = try #require(quarter.metrics.work)
        #expect(Self.close(quarterWork.storageReadBytes, fullWork.storageReadBytes))
        #expect(Self.close(quarterWork.bitmapBytesDrawn, fullWork.bitmapBytesDrawn))
        // Occurrences are as run: one process start, one view decoded.
        #expect(quarterWork.processStarts == fullWork.processStarts && quarterWork.viewsDecoded == fullWork.viewsDecoded)
        let fullLaunch = try #require(full.metrics.coldLaunchDeviceNs?.p50), quarterLaunch = try #require(quarter.metrics.coldLaunchDeviceNs?.p50)
        #expect(Self.close(Int(quarterLaunch), Int(fullLaunch)), "cold launch \(quarterLaunch) ns at 1/4, \(fullLaunch) ns")
        #expect(quarter.owners.map(\.retainedBytes).reduce(0, +) == quarter.metrics.finalRetainedBytes)
    }

    // Residency is measured for the whole clean file: a file shared by two live simulations would
    // count the other's pages as already read (CleanStorage: one live mapping a file).
    @Test("a run beside a live simulation of the same app in this process reads its clean pages as it does alone")
    func cleanFilesAreNotShared() throws {
        let alone = try Self.run(scale: 4)
        let scenario = try ScenarioLoader().parse(Self.scenario(scale: 4), path: "big.yaml")
        var other: Simulation? = try Simulation(scenario, cleanup: .keepAll, termination: .noTermination,
                                                profile: try ProfileLibrary.load(ProfileReference("iphone-xs-2018")))
        _ = try other!.perform(.launch("big"))
        let beside = try Self.run(scale: 4)
        _ = other!.finish()
        other = nil
        let aloneWork = try #require(alone.metrics.work), besideWork = try #require(beside.metrics.work)
        #expect(besideWork.storageReadBytes == aloneWork.storageReadBytes)
        #expect(beside.metrics.coldLaunchDeviceNs?.p50 == alone.metrics.coldLaunchDeviceNs?.p50)
        #expect(beside.metrics.cleanResidentBytesPeak == alone.metrics.cleanResidentBytesPeak)
    }

    @Test("every output says the scale: the table, CSV, Markdown and the results file")
    func outputsSayTheScale() throws {
        let quarter = try Self.run(scale: 4)
        let rows = ResultFormatter.comparison([quarter])
        #expect(rows.map(\.scenario) == ["big (memory_scale 4)"])
        #expect(ResultFormatter.table(rows).contains("big (memory_scale 4)"))
        var long = rows[0]
        long.scenario = RunResult.labelled("example-tinynotes-imported", memoryScale: 8)
        #expect(ResultFormatter.table([long]).contains("exam… (memory_scale 8)  keep-all"))
        #expect(ResultFormatter.csv(rows).split(separator: "\n")[1].hasPrefix("big (memory_scale 4),keep-all,none,\(quarter.metrics.peakRetainedBytes),"))
        let file = try ResultsFile(version: PressureLabVersion.current, runs: [quarter])
        #expect(MarkdownReport.render(file).contains("## big (memory_scale 4)"))
        #expect(HTMLReport.render(file).contains("<h2>big (memory_scale 4)</h2>"))
        let json = String(decoding: try JSONEncoder().encode(file), as: UTF8.self)
        #expect(json.contains("\"memoryScale\":4"))
        let back = try JSONDecoder().decode(ResultsFile.self, from: Data(json.utf8))
        #expect(back.runs[0].memoryScale == 4)
        #expect(RunResult.labelled("big", memoryScale: 1) == "big" && RunResult.labelled("big", memoryScale: nil) == "big")
    }

    @Test("device.memory_scale is a whole number from 1 to 1024, located when it is not")
    func validated() {
        for (value, message) in [("0", "0 is out of range; expected 1 to 1024"), ("1025", "1025 is out of range; expected 1 to 1024"),
                                 ("two", "expected a whole number (1 or more), got 'two'")] {
            let text = "scenario: 1\nname: h\ndevice:\n  memory: 64MiB\n  memory_scale: \(value)\napps:\n  a: { screens: { s: {} }, root: s }\n"
                + "script: [ { launch: a } ]\n"
            #expect(ScenarioTexts.diagnostics(text) == ["h.yaml:5:17: device.memory_scale: \(message)"])
        }
    }

    @Test("the costs at 1/N charge each byte N times and each occurrence once")
    func costsChargeBytes() throws {
        let costs = try ProfileLibrary.load(ProfileReference("iphone-xs-2018")).costs
        var work = WorkCounters()
        work.storageReadBytes = 1 << 30
        work.storageReads = 3
        var quarterWork = work
        quarterWork.storageReadBytes = 1 << 28
        let full = costs.nanoseconds(for: work), quarter = costs.chargingBytes(atScale: 4).nanoseconds(for: quarterWork)
        #expect(Self.close(Int(quarter), Int(full), percent: 0.01), "\(quarter) ns at 1/4, \(full) ns")
        #expect(costs.chargingBytes(atScale: 1) == costs)
        #expect(quarterWork.bytesMultiplied(by: 4).storageReadBytes == 1 << 30 && quarterWork.bytesMultiplied(by: 4).storageReads == 3)
    }
}
