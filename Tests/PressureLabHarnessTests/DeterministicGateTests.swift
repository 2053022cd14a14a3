import Foundation
import PressureLabHarness
import Testing
import TestSupport

/// Threads that keep every core of the machine busy until stopped: the load other work puts
/// on a CI runner, under which a gate must still pass (docs/gating.md, "What is gated").
final class BusyCores: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var threads: [Thread] = []
    private let started = DispatchGroup()

    /// Starts `count` threads, each spinning on arithmetic until ``stop()``; returns once all run.
    init(count: Int) {
        for _ in 0..<count {
            started.enter()
            let thread = Thread { [self] in
                started.leave()
                var value: UInt64 = 0x9E37_79B9_7F4A_7C15
                while isRunning {
                    for _ in 0..<100_000 { value = value &* 6_364_136_223_846_793_005 &+ 1 }
                }
                if value == 0 { print("") }   // keeps the loop from being optimised away
            }
            threads.append(thread)
            thread.start()
        }
        started.wait()
    }

    private var isRunning: Bool { lock.withLock { running } }

    /// Ends the threads' loops.
    func stop() { lock.withLock { running = false } }
}

@Suite("Gates that never flake: bytes and device time by default", .serialized)
struct DeterministicGateTests {
    @Test("a baseline saved and checked at once passes while every core is busy; a bloated scenario still fails with 2")
    func passesUnderLoad() throws {
        let directory = try BaselineTests.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Two spinning threads a core: the checks' own process competes for every core.
        let busy = BusyCores(count: max(2, ProcessInfo.processInfo.activeProcessorCount * 2))
        defer { busy.stop() }
        let save = try Executable.run(["baseline", "save", "small", Executable.small, "--dir", directory, "--policy", "ios6"])
        #expect(save.status == 0, "\(save.stderr)")
        for _ in 0..<3 {
            let check = try Executable.run(["baseline", "check", "small", Executable.small, "--dir", directory])
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
            #expect(check.stdout.contains("not gated: host latencies (viewReloadLatencyNs.p50, viewReloadLatencyNs.p99, "
                + "coldLaunchLatencyNs.p50, coldLaunchLatencyNs.p99, resumeLatencyNs.p50, reloadTimeNs)"), "\(check.stdout)")
            #expect(!check.stdout.contains("LatencyNs.p50 measured"))
        }
        let bloated = try Executable.run(["baseline", "check", "small", try BaselineTests.bloated(in: directory), "--dir", directory])
        #expect(bloated.status == 2, "\(bloated.stdout)\(bloated.stderr)")
        #expect(bloated.stdout.contains("REGRESSION small / ios6 / jetsam: peakRetainedBytes measured "))
    }

    @Test("a thresholds file that names a host latency is refused below --repeat 3, and gates its median and spread from 3")
    func latenciesOnlyWhenAsked() throws {
        let directory = try BaselineTests.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try Executable.run(["baseline", "save", "small", Executable.small, "--dir", directory, "--repeat", "3"]).status == 0)
        let asking = "\(directory)/latency.json"
        // An allowance no noise reaches: this test checks what is gated, never a timing.
        try #"{ "metrics": { "viewReloadLatencyNs.p50": { "absolute": 1e12, "relativePercent": 1e6 } } }"#
            .write(toFile: asking, atomically: true, encoding: .utf8)
        let once = try Executable.run(["baseline", "check", "small", Executable.small, "--dir", directory, "--thresholds", asking])
        #expect(once.status == 64)
        #expect(once.stderr.contains("gates host latencies (viewReloadLatencyNs.p50), which are gated on their median over "
            + "repeats: give --repeat 3 or more (got 1)"), "\(once.stderr)")
        #expect(once.stdout.isEmpty)
        let thrice = try Executable.run(["baseline", "check", "small", Executable.small, "--dir", directory, "--thresholds", asking,
                                         "--repeat", "3"])
        #expect(thrice.status == 0, "\(thrice.stdout)\(thrice.stderr)")
        #expect(thrice.stdout.contains("not gated: host latencies (viewReloadLatencyNs.p99, coldLaunchLatencyNs.p50"))
        #expect(!thrice.stdout.contains("not gated: host latencies (viewReloadLatencyNs.p50"))
    }

    @Test("thresholds name host latencies by a latency allowance or a metric entry; defaults name none")
    func namedLatencies() throws {
        #expect(Thresholds.default.hostLatencies == nil)
        #expect(!Thresholds.default.gates("viewReloadLatencyNs.p50") && Thresholds.default.gates("peakRetainedBytes"))
        let one = try Thresholds.decode(Data(#"{ "metrics": { "resumeLatencyNs.p50": { "absolute": 0, "relativePercent": 50 } } }"#.utf8),
                                        path: "t.json")
        #expect(one.hostLatencies == ["resumeLatencyNs.p50"])
        let all = try Thresholds.decode(Data(#"{ "latency": { "absolute": 0, "relativePercent": 50 } }"#.utf8), path: "t.json")
        #expect(all.hostLatencies == Baseline.latencyMetrics)
        let bytes = try Thresholds.decode(Data(#"{ "bytes": { "absolute": 0, "relativePercent": 1 } }"#.utf8), path: "t.json")
        #expect(bytes.hostLatencies == nil)
    }
}
