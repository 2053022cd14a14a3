import Foundation
@testable import PressureLab
@testable import PressureLabHarness
import PressureLabHeap
import PressureLabSweep
import SystemPackage
import Testing
import TestSupport

/// Hostile input, round two: one test (or more) a class of defect, each failing before its
/// fix. Every input kind is bounded, every total saturates, every failure is clean.
@Suite("Hostile input, round two: bounded work, files, totals and outputs", .serialized)
struct HostileInputRoundTwoTests {
    static func diagnostics(_ text: String, path: String = "h.yaml") -> [String] {
        do {
            _ = try ScenarioLoader().parse(text, path: path)
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    /// One app launched once: a run that gives real metrics in a few milliseconds.
    static let launchOnly = """
        scenario: 1
        name: h
        device: { memory: 64MiB }
        apps: { a: { screens: { s: {} }, root: s } }
        script: [ { launch: a } ]
        """

    static func scenario(screens: String, script: String, memory: String = "64MiB", apps: Int = 1) -> String {
        var text = "scenario: 1\nname: h\ndevice:\n  memory: \(memory)\napps:\n"
        for index in 0..<apps { text += "  a\(index):\n    screens:\n\(screens)\n    root: { nav: home }\n" }
        return text + "script:\n\(script)\n"
    }

    // MARK: - 1. Work that grows with a product nothing capped

    @Test("the views the screens describe are counted before their trees are built; one error, at the tree over")
    func describedViews() {
        let screens = (1...6).map { "      s\($0): { tree: { views: 1000000, bytes: 1B } }" }.joined(separator: "\n")
        let found = Self.diagnostics(Self.scenario(screens: "      home: {}\n" + screens, script: "  - launch: a0"))
        #expect(found == ["h.yaml:13:19: apps.a0.screens.s5.tree: the screens describe 5000000 views with this tree "
            + "(1000000 views), more than the 4000000 a scenario may describe; use smaller trees or fewer screens"])
    }

    @Test("the views a script builds count pushes times repeats, with the launch")
    func viewsBuilt() throws {
        let screens = "      home: {}\n      big: { tree: { views: 1000000, bytes: 1B } }"
        let found = Self.diagnostics(Self.scenario(screens: screens,
                                                   script: "  - launch: a0\n  - repeat: { times: 60, steps: [ { push: big } ] }"))
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("h.yaml:12:3: script: the script builds up to 60000001 views") == true)
        // 49 pushes are within the limit, and the count is exact: 49 x 1,000,000 + the launch.
        let ok = try ScenarioLoader().parse(Self.scenario(screens: screens, script: "  - launch: a0\n  - repeat: { times: 49, steps: [ { push: big } ] }"),
                                            path: "h.yaml")
        #expect(ok.declaredWork.viewsBuilt == 49_000_001)
        #expect(ok.declaredWork.describedViews == 1_000_001)
    }

    @Test("apps times expanded steps is capped, named at the apps")
    func appSteps() {
        let found = Self.diagnostics(Self.scenario(screens: "      home: {}", script:
            "  - launch: a0\n  - repeat: { times: 4, steps: [ { repeat: { times: 1000000, steps: [ { idle: 1s } ] } } ] }", apps: 3))
        #expect(found == ["h.yaml:6:3: apps: 3 apps and 4000001 steps make 12000003 app-steps (the device looks over every "
            + "app at each step), more than the 10000000 a run may take; declare fewer apps or steps"])
    }

    @Test("the shipped workloads are within every limit: Benchmarks/Scale/scale-100 and the grid sweep's scenarios")
    func shippedWorkloadsFit() throws {
        let scale = try ScenarioLoader().load(path: Executable.packageRoot.appendingPathComponent("Benchmarks/Scale/scale-100.yaml").path)
        let work = scale.declaredWork
        #expect(work.viewsBuilt == 10_000_000 && work.appSteps == 5_010_000)
        let grid = try SweepPlan(try SweepFile.load(path: Executable.packageRoot.appendingPathComponent("sweeps/grid-1120.yaml").path))
        #expect(grid.cells.count == 1120)
    }

    @Test("outlets nested in a chain are walked once: the outermost of nested subtrees")
    func nestedOutlets() throws {
        // A chain of 2,000 views with 1,999 outlets: each outlet's subtree holds the next.
        let runtime = try RuntimeContext(app: "chain", generation: .iOS6, trace: TraceRecorder(isEnabled: false))
        let screen = ScreenSpec(name: "chain", view: try ViewDescription.tree(depth: 1999, fanout: 1, bytes: 16, rootBacking: 0),
                                outlets: 1999)
        try runtime.register(screen)
        var controller: ViewController? = try runtime.makeController(screen: "chain")
        _ = try controller?.view
        controller?.connectOutlets()
        #expect(controller?.outlets.count == 1999)
        controller?.purgeBackingStores(evenOnScreen: true)
        controller?.releaseView()
        controller?.releaseOutlets()
        controller = nil
        #expect(runtime.ledger.liveTotal == 0)
    }

    @Test("--repeat is capped (64, bad usage) instead of allocating for every repeat")
    func repeatCap() throws {
        let outcome = try Executable.run(["run", Executable.small, "--repeat", "100000000"])
        #expect(outcome.status == 64 && !outcome.crashed)
        #expect(outcome.stderr.contains("--repeat must be from 1 to 1000 (got 100000000)"))
    }

    // MARK: - 2. Memory and disk the budget did not see

    @Test("a model file is written when the model is first read, never at install; streamed, equal to a whole fill")
    func lazyStreamedModel() throws {
        let runtime = try RuntimeContext(app: "models", generation: .iOS6, trace: TraceRecorder(isEnabled: false))
        runtime.contents = MemoryContents(ratios: [.model: 3], pageBytes: 4096, seed: 7)
        let fill = try #require(runtime.contents?[.model])
        try runtime.register(ScreenSpec(name: "never", view: try ViewDescription.single(bytes: 64), modelBytes: 3 << 30))
        try runtime.register(ScreenSpec(name: "shown", view: try ViewDescription.single(bytes: 64), modelBytes: (5 << 20) + 123))
        let bundle = runtime.bundle
        #expect(HostFiles.statusIfPresent(FilePath(bundle.modelPath(for: "never"))) == nil)
        #expect(HostFiles.statusIfPresent(FilePath(bundle.modelPath(for: "shown"))) == nil)
        let model = try bundle.readModel(for: "shown")
        #expect(model.count == (5 << 20) + 123)
        // Written a megabyte at a time, the file is the block a single fill makes.
        var whole = [UInt8](repeating: 0, count: (5 << 20) + 123)
        let salt = UInt64(ModelPattern.byte(for: "shown"))
        whole.withUnsafeMutableBytes { fill.fill($0, salt: salt) }
        let written = try HostFiles.contents(of: FilePath(bundle.modelPath(for: "shown")))
        #expect(written.count == whole.count)
        #expect(written.firstIndex { $0 != 0 } != nil)
        #expect(written.indices.first { written[$0] != whole[$0] } == nil, "the streamed model differs from a whole fill")
        #expect(HostFiles.statusIfPresent(FilePath(bundle.modelPath(for: "never"))) == nil)
    }

    @Test("a run with ten unshown 3 GiB models and a 48 MiB budget writes no model file and holds none")
    func unshownModels() throws {
        let path = Executable.fixtures.appendingPathComponent("hostile/unshown-models.yaml").path
        let scenario = try ScenarioLoader().load(path: path)
        #expect(scenario.declaredModelFileBytes == 0)
        let run = try Simulation(scenario, cleanup: .ios6, termination: .jetsam, profile: try ProfileLibrary.load(nil)).run()
        #expect(run.metrics.peakRetainedBytes < 1 << 20)
        #expect(run.metrics.work?.storageWriteBytes == 0)
    }

    @Test("the disk check counts the models of the screens the script can show, not the unshown")
    func modelFilesInTheHostCheck() throws {
        let screens = "      home: {}\n      shown: { model: 2MiB }\n      never: { model: 3GiB }"
        let scenario = try ScenarioLoader().parse(Self.scenario(screens: screens, script: "  - launch: a0\n  - push: shown"), path: "h.yaml")
        #expect(scenario.declaredModelFileBytes == 2 << 20)
        let random = try ScenarioLoader().parse(Self.scenario(screens: screens,
            script: "  - launch: a0\n  - random: { steps: 10, mix: { push: 1, pop: 1 } }", memory: "4GiB"), path: "h.yaml")
        #expect(random.declaredModelFileBytes == (2 << 20) + (3 << 30))
    }

    @Test("a trace is read a chunk at a time: the same events whatever the chunks; its events must fit the host")
    func streamedTrace() throws {
        let path = Executable.fixtures.appendingPathComponent("traces/lsapp-small.tsv").path
        let whole = try LSAppTrace.parse(String(decoding: try HostFiles.contents(of: FilePath(path)), as: UTF8.self), path: path)
        let streamed = try LSAppTrace.parse(path: path)
        #expect(streamed.users == whole.users)
        for user in whole.users { #expect(streamed.events(of: user) == whole.events(of: user)) }
        // A line split across reads: feed the text 7 bytes at a time.
        var reader = LSAppTrace.Reader(path: path)
        let bytes = try HostFiles.contents(of: FilePath(path))
        for start in stride(from: 0, to: bytes.count, by: 7) { try reader.feed(bytes[start..<min(bytes.count, start + 7)]) }
        let chunked = try reader.finish()
        for user in whole.users { #expect(chunked.events(of: user) == whole.events(of: user)) }
        #expect {
            _ = try LSAppTrace.parse(path: path, hostLimitBytes: 100)
        } throws: { error in
            (error as? TraceError)?.reason.hasSuffix("which take more than the 100 bytes this host allows a simulation") == true
        }
    }

    // MARK: - 3. Totals that overflowed or were dropped

    @Test("a latency over the histograms' hour is recorded at it and flagged, never dropped as 0")
    func saturatedLatency() {
        let statistics = ReloadStatistics()
        statistics.record(.viewReload, screen: "s", nanoseconds: 10, deviceNanoseconds: 61_000_000_000)
        #expect(statistics.deviceSummary(.viewReload).p50 >= 60_000_000_000)
        #expect(!statistics.deviceSummary(.viewReload).saturated)
        statistics.record(.viewReload, screen: "s", nanoseconds: 10, deviceNanoseconds: 7_200_000_000_000)
        let summary = statistics.deviceSummary(.viewReload)
        #expect(summary.saturated && summary.count == 2)
        #expect(summary.max >= ReloadStatistics.highestTrackableNanoseconds)
        statistics.record(.viewReload, screen: "s", nanoseconds: 10, deviceNanoseconds: .max)
        #expect(statistics.totalDeviceNanoseconds == .max)
    }

    @Test("device time saturates at UInt64.max, never wraps")
    func saturatedDeviceTime() {
        let costs = CostModel(processStartNanoseconds: 0, appInitNanoseconds: 3_600_000_000_000, firstFrameNanoseconds: 0,
                              storageRead: .init(bytesPerSecond: 1), storageWrite: .init(bytesPerSecond: 1),
                              viewDecodeNanoseconds: 3_600_000_000_000, viewLayoutNanoseconds: 0, bitmapDrawBytesPerSecond: 1,
                              cacheFillBytesPerSecond: 1, archiveDecodeBytesPerSecond: 1)
        var work = WorkCounters()
        work.viewsDecoded = Int.max / 2
        work.appInits = 1
        #expect(costs.nanoseconds(for: work) == .max)
    }

    @Test("a run whose cold launch is over an hour reports it at the bound, flagged in the results")
    func saturatedRunFlag() throws {
        var metrics = try HostileRunTests.run(Self.launchOnly).metrics
        metrics.coldLaunchDeviceNs = LatencySummary(count: 1, p50: 1, p90: 1, p99: 1, max: 1)
        metrics.coldLaunchDeviceNs?.saturated = true
        metrics.reloadDeviceTimeNs = .max
        let encoded = try JSONEncoder().encode(metrics)
        var decoded = try JSONDecoder().decode(RunMetrics.self, from: encoded)
        decoded.noteSaturatedMetrics()
        #expect(decoded.saturatedMetrics == ["coldLaunchDeviceNs", "reloadDeviceTimeNs"])
    }

    @Test("a shard count is bounded, and a merge names at most ten absent shards")
    func shardBounds() {
        #expect(throws: SweepError.invalidShard("1/1000000000000")) { try Shard(parsing: "1/1000000000000") }
        #expect((try? Shard(parsing: "3/1000000"))?.count == 1_000_000)
    }

    @Test("a record named like a cell but not one (-1.json, +5.json, 5.json) is no finished cell")
    func strictRecordNames() throws {
        let directory = try Executable.temporaryDirectory("names")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sweep = SweepDirectory(path: directory.path)
        try sweep.create()
        for name in ["-1.json", "+5.json", "5.json", "000007.json", "000003.failed.json", "-00003.failed.json"] {
            #expect(FileManager.default.createFile(atPath: "\(sweep.cellsPath)/\(name)", contents: Data()))
        }
        #expect(try sweep.finishedIndices() == [7])
        #expect(try sweep.failedIndices() == [3])
    }

    @Test("views rebuilt after unloads count too: a random mix of switches counts whole launch hierarchies")
    func randomWork() throws {
        let screens = "      home: { tree: { views: 1000, bytes: 1B } }\n      big: { tree: { views: 100000, bytes: 1B } }"
        let scenario = try ScenarioLoader().parse(Self.scenario(screens: screens, script:
            "  - launch: a0\n  - random: { steps: 100, mix: { switch: 1, idle: 3 } }\n  - pop", apps: 2), path: "h.yaml")
        // Launch 1,000; 25 switches of a 1,000-view hierarchy; the pop may reload the largest screen.
        #expect(scenario.declaredWork.viewsBuilt == 1_000 + 25 * 1_000 + 100_000)
    }

    // MARK: - 4. Inputs that are not regular files

    @Test("a FIFO, a device, a directory or an oversized file is refused at once by every reader")
    func specialFiles() throws {
        let directory = try Executable.temporaryDirectory("special")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("pipe.yaml").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let oversized = directory.appendingPathComponent("big.yaml").path
        #expect(FileManager.default.createFile(atPath: oversized, contents: Data(count: (4 << 20) + 1)))
        for path in [fifo, "/dev/zero", directory.path] {
            #expect(throws: InputFile.Problem.self) { _ = try InputKind.scenario.contents(of: path) }
        }
        #expect(throws: InputFile.Problem.tooLarge(bytes: (4 << 20) + 1, maximum: 4 << 20)) {
            _ = try InputKind.scenario.contents(of: oversized)
        }
        #expect(throws: InputFile.Problem.notRegular("a FIFO")) { _ = try InputKind.profile.contents(of: fifo) }
        #expect(throws: InputFile.Problem.notRegular("a character device")) { _ = try InputKind.baseline.contents(of: "/dev/zero") }
        // Each reader says so, naming the file.
        let scenario = Self.failure { () throws(ScenarioError) in _ = try ScenarioLoader().load(path: fifo) }
        #expect(scenario == "\(fifo):0:0: cannot read the file: not a regular file (a FIFO)")
        let profile = Self.failure { () throws(ScenarioError) in _ = try ProfileLoader().load(path: "/dev/zero") }
        #expect(profile == "/dev/zero:0:0: cannot read the profile: not a regular file (a character device)")
        let sweep = Self.failure { () throws(SweepError) in _ = try SweepFile.load(path: fifo) }
        #expect(sweep == "\(fifo): cannot read the file: not a regular file (a FIFO)")
        let baseline = Self.failure { () throws(GateError) in _ = try Baseline.read(from: fifo) }
        #expect(baseline == "\(fifo): the baseline is unreadable: not a regular file (a FIFO)")
        let thresholds = Self.failure { () throws(GateError) in _ = try Thresholds.read(from: "/dev/zero") }
        #expect(thresholds == "/dev/zero: invalid thresholds: cannot read the file: not a regular file (a character device)")
        let results = try Executable.run(["report", fifo, "--markdown", "-"])
        #expect(results.status == 1 && results.stderr.contains("not a regular file (a FIFO)"))
    }

    static func failure<Failure: Error & CustomStringConvertible>(_ body: () throws(Failure) -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return error.description
        }
    }

    // MARK: - 5. Sweep files read with the scenario reader's defences

    @Test("sweep files: an alias bomb, an empty file, a syntax error, each named and located; problems have columns")
    func sweepDefences() {
        var bomb = "sweep: 1\na: &a [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 { bomb += "l\(level): &l\(level) [" + Array(repeating: level == 1 ? "*a" : "*l\(level - 1)", count: 10).joined(separator: ", ") + "]\n" }
        let bombed = Self.failure { () throws(SweepError) in _ = try SweepFile.parse(bomb, path: "b.yaml") }
        #expect(bombed?.hasPrefix("b.yaml:") == true && bombed?.contains("YAML aliases") == true)
        let empty = Self.failure { () throws(SweepError) in _ = try SweepFile.parse("", path: "e.yaml") }
        #expect(empty == "e.yaml:1:1: the file is empty; a sweep file starts with 'sweep: 1'")
        let syntax = Self.failure { () throws(SweepError) in _ = try SweepFile.parse("sweep: 1\npolicy: [ios6\n", path: "s.yaml") }
        #expect(syntax?.hasPrefix("s.yaml:3:1: YAML syntax error") == true)
        let column = Self.failure { () throws(SweepError) in _ = try SweepFile.parse("sweep: 1\nrepeat: 0\n", path: "c.yaml") }
        #expect(column == "c.yaml:2:9: repeat: expected a whole number from 1 to 1000")
    }

    @Test("an unknown scenario or profile named by a sweep is located at its entry in the sweep file")
    func sweepUnknownNames() {
        let scenario = Self.failure { () throws(SweepError) in
            _ = try SweepPlan(try SweepFile.parse("sweep: 1\nscenarios:\n  - small.yaml\n  - nope\n", path: "\(Executable.fixtures.path)/g.yaml"))
        }
        #expect(scenario == "\(Executable.fixtures.path)/g.yaml:4:5: scenarios: nope: cannot read the file: no such file")
        let profile = Self.failure { () throws(SweepError) in
            _ = try SweepPlan(try SweepFile.parse("sweep: 1\nscenarios: [small.yaml]\nprofile: [pixel-3-2018, nada]\n",
                                                  path: "\(Executable.fixtures.path)/g.yaml"))
        }
        #expect(profile == "\(Executable.fixtures.path)/g.yaml:3:25: profile: nada: no bundled profile named 'nada'; "
            + "bundled profiles: iphone-xs-2018, pixel-3-2018")
        let user = Self.failure { () throws(SweepError) in
            _ = try SweepPlan(try SweepFile.parse("sweep: 1\nscenarios: [small.yaml]\nuser: all\n", path: "\(Executable.fixtures.path)/g.yaml"))
        }
        #expect(user?.hasSuffix("user: none of the sweep's scenarios replays a trace; remove 'user' or add a scenario with a 'replay' step") == true)
    }

    @Test("a scenario naming an unknown profile fails validation, located at the profile")
    func scenarioUnknownProfile() {
        let found = Self.diagnostics("scenario: 1\nname: h\ndevice:\n  memory: 64MiB\n  profile: nope\napps:\n  a: { screens: { s: {} }, root: s }\nscript: [ { launch: a } ]\n")
        #expect(found == ["h.yaml:5:12: device.profile: cannot use the profile 'nope': no bundled profile named 'nope'; "
            + "bundled profiles: iphone-xs-2018, pixel-3-2018"])
    }

    @Test("one mistake in a screen is one message: no cascade of unknown-screen errors")
    func noCascade() {
        let found = Self.diagnostics(Self.scenario(screens: "      home: { tree: { depth: 99 } }", script: "  - launch: a0\n  - push: home"))
        #expect(found == ["h.yaml:8:30: apps.a0.screens.home.tree.depth: 99 is out of range; expected 0 to 20"])
    }

    // MARK: - 6. Outputs all or nothing

    @Test("merge writes the results and the database together or neither; one path for both is bad usage")
    func mergeAllOrNothing() throws {
        let directory = try Executable.temporaryDirectory("merge")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sweep = try SweepFixtures.file(in: directory, seeds: 1)
        let ran = try Executable.run(["sweep", sweep, "--jobs", "1"], in: directory)
        #expect(ran.status == 0, "\(ran.stderr)")
        let results = directory.appendingPathComponent("merged.json").path
        let badDatabase = directory.appendingPathComponent("no-such-folder/merged.sqlite").path
        let failed = try Executable.run(["merge", directory.appendingPathComponent("results").path, "--output", results,
                                         "--database", badDatabase], in: directory)
        #expect(failed.status == 1)
        #expect(!FileManager.default.fileExists(atPath: results), "the results were left without their database")
        // A merge that fails after the database is written leaves the previous pair as it was.
        let goodDatabase = directory.appendingPathComponent("merged.sqlite").path
        let first = try Executable.run(["merge", directory.appendingPathComponent("results").path, "--output", results], in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        let before = try Data(contentsOf: URL(fileURLWithPath: goodDatabase))
        let folderResults = directory.appendingPathComponent("a-folder").path
        try FileManager.default.createDirectory(atPath: folderResults, withIntermediateDirectories: false)
        let intoFolder = try Executable.run(["merge", directory.appendingPathComponent("results").path, "--output", folderResults,
                                             "--database", goodDatabase], in: directory)
        #expect(intoFolder.status == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: goodDatabase)) == before)
        let same = try Executable.run(["merge", directory.appendingPathComponent("results").path, "--output", results,
                                       "--database", results], in: directory)
        #expect(same.status == 64 && same.stderr.contains("name the same file"))
    }

    @Test("a temporary left by a writer killed outright is removed when its file is next written; a live writer's is kept")
    func abandonedTemporaries() throws {
        let directory = try Executable.temporaryDirectory("abandoned")
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("trace.jsonl")
        // A process id that is not in use: a child that has exited and been reaped.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let dead = directory.appendingPathComponent("trace.jsonl.tmp-\(child.processIdentifier)-abc").path
        let alive = directory.appendingPathComponent("trace.jsonl.tmp-1-def").path
        let other = directory.appendingPathComponent("other.jsonl.tmp-\(child.processIdentifier)-abc").path
        let fresh = directory.appendingPathComponent("trace.jsonl.tmp-\(child.processIdentifier)-new").path
        for path in [dead, alive, other, fresh] { #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8))) }
        // Untouched for two minutes, but for the fresh one (a writer this host may not see).
        for path in [dead, alive, other] {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -120)], ofItemAtPath: path)
        }
        let removed = AtomicFile.removeAbandonedTemporaries(of: FilePath(destination.path))
        #expect(removed.map(\.string) == [dead])
        for path in [alive, other, fresh] { #expect(FileManager.default.fileExists(atPath: path)) }
    }

    // MARK: - 7. Gates that passed on nothing

    @Test("a baseline metric this tool does not know is an error, or a warning when a newer tool saved it")
    func misspeltBaselineMetric() throws {
        var object = try ReaderHardeningTests.oneEntryBaseline(metrics: ["peakRetainedBytez": 1, "kilz": 0])
        let path = try ReaderHardeningTests.write(object, named: "misspelt.json")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let refused = Self.failure { () throws(GateError) in _ = try Baseline.read(from: path) }
        #expect(refused?.contains("has the metric 'kilz', which this tool does not know") == true)
        object["toolVersion"] = "99.0.0"
        var entries = try #require(object["entries"] as? [[String: Any]])
        entries[0]["metrics"] = ["peakRetainedBytes": 1.0, "futureMetric": 5.0]
        object["entries"] = entries
        let newer = try ReaderHardeningTests.write(object, named: "newer.json")
        defer { try? FileManager.default.removeItem(atPath: newer) }
        let baseline = try Baseline.read(from: newer)
        let report = GateReport.check([], against: baseline)
        #expect(report.findings.isEmpty)
        let entry = try #require(baseline.entries.first)
        var run = try HostileRunTests.run(Self.launchOnly)
        (run.scenario, run.policy, run.termination) = (entry.scenario, entry.policy, entry.termination)
        let checked = GateReport.check([run], against: baseline)
        #expect(checked.findings.map(\.metric) == ["peakRetainedBytes"])
        #expect(checked.warnings.contains { $0.contains("'futureMetric' is unknown to this tool (saved by pressurelab 99.0.0)") })
    }

    @Test("an unknown top-level thresholds key is an error")
    func thresholdsUnknownKey() throws {
        let path = try ReaderHardeningTests.write(["bytes": ["absolute": 0, "relativePercent": 0], "latncy": [:] as [String: Any]],
                                                  named: "thresholds.json")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let refused = Self.failure { () throws(GateError) in _ = try Thresholds.read(from: path) }
        #expect(refused == "\(path): invalid thresholds: unknown key 'latncy'; keys: bytes, latency, counts, deviceTime, metrics")
    }

    // MARK: - 8. A resume that can resume

    @Test("a truncated, garbage or directory cell record is set aside and its cell runs again")
    func unreadableRecords() throws {
        let directory = try Executable.temporaryDirectory("resume")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sweep = try SweepFixtures.file(in: directory, seeds: 2)
        let ran = try Executable.run(["sweep", sweep, "--jobs", "1"], in: directory)
        #expect(ran.status == 0, "\(ran.stderr)")
        let results = SweepDirectory(path: directory.appendingPathComponent("results").path)
        let truncated = try Data(contentsOf: URL(fileURLWithPath: results.cellPath(0)))
        try truncated.prefix(truncated.count / 2).write(to: URL(fileURLWithPath: results.cellPath(0)))
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: results.cellPath(1)))
        try FileManager.default.removeItem(atPath: results.cellPath(2))
        try FileManager.default.createDirectory(atPath: results.cellPath(2), withIntermediateDirectories: false)
        let resumed = try Executable.run(["sweep", sweep, "--jobs", "1", "--resume"], in: directory)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        for index in 0...2 {
            #expect(resumed.stderr.contains("cell \(index): its record could not be read"))
            #expect(FileManager.default.fileExists(atPath: results.cellsPath + "/00000\(index).unreadable"))
            #expect((try? results.record(index))?.cell.index == index)
        }
        #expect(resumed.stdout.contains("3 run now, 1 finished before"))
        // Nothing left to run: said so, no rate over cells that took no time here.
        let again = try Executable.run(["sweep", sweep, "--jobs", "1000", "--resume"], in: directory)
        #expect(again.status == 0 && again.stdout.contains("nothing to run") && again.stdout.contains("with 0 workers at once"))
    }
}
