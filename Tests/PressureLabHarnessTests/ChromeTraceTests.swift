import Foundation
import PressureLab
import PressureLabHarness
import Testing
import TestSupport

/// `--trace-format chrome`: the Trace Event Format, checked against its rules.
@Suite("Chrome traces (Trace Event Format)")
struct ChromeTraceTests {
    /// Checks a trace against the format's rules; returns the problems found.
    static func problems(in data: Data) throws -> [String] {
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(root["traceEvents"] as? [[String: Any]])
        var problems: [String] = []
        var lastTime: [String: Double] = [:]
        var depth: [String: [String]] = [:]
        for (index, event) in events.enumerated() {
            guard let phase = event["ph"] as? String, let pid = event["pid"] as? Int, let tid = event["tid"] as? Int else {
                problems.append("event \(index): ph, pid and tid are required")
                continue
            }
            guard let name = event["name"] as? String, !name.isEmpty else {
                problems.append("event \(index): a name is required")
                continue
            }
            if phase == "M" {
                let args = event["args"] as? [String: Any]
                if !["process_name", "thread_name", "process_sort_index"].contains(name) { problems.append("event \(index): metadata \(name)") }
                if name.hasSuffix("_name"), args?["name"] as? String == nil { problems.append("event \(index): \(name) needs args.name") }
                continue
            }
            guard let time = event["ts"] as? Double ?? (event["ts"] as? Int).map(Double.init), time >= 0 else {
                problems.append("event \(index): ts is required (\(phase))")
                continue
            }
            let track = "\(pid)/\(tid)"
            if time < lastTime[track] ?? 0 { problems.append("event \(index): time goes back on \(track)") }
            lastTime[track] = time
            switch phase {
            case "i":
                if !["t", "p", "g"].contains(event["s"] as? String ?? "") { problems.append("event \(index): instant scope") }
            case "B":
                depth[track, default: []].append(name)
            case "E":
                if depth[track]?.popLast() != name { problems.append("event \(index): E of \(name) does not close the innermost B") }
            case "C":
                let args = event["args"] as? [String: Any] ?? [:]
                if args.isEmpty || !args.values.allSatisfy({ $0 is NSNumber }) { problems.append("event \(index): counter args") }
            default:
                problems.append("event \(index): unexpected phase \(phase)")
            }
        }
        for (track, open) in depth where !open.isEmpty { problems.append("\(track): \(open) never ended") }
        return problems
    }

    @Test("photo-browser under two policies: valid, a process per app and run, launches and view loads as durations, memory tracks")
    func photoBrowser() throws {
        let directory = try Executable.temporaryDirectory("chrome")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("trace.json").path
        let outcome = try Executable.run(["run", "photo-browser", "--policy", "ios3", "--policy", "ios6",
                                          "--trace", path, "--trace-format", "chrome"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try Self.problems(in: data) == [])
        let events = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["traceEvents"] as? [[String: Any]])
        let processNames = events.filter { $0["name"] as? String == "process_name" }.compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(processNames.contains { $0.hasPrefix("photo-browser / ios3 / jetsam #1: ") })
        #expect(processNames.contains { $0.hasPrefix("photo-browser / ios6 / jetsam #1: ") })
        #expect(events.contains { $0["ph"] as? String == "B" && $0["name"] as? String == "launch" })
        #expect(events.contains { $0["ph"] as? String == "B" && ($0["name"] as? String)?.hasPrefix("loadView ") == true })
        #expect(events.contains { $0["ph"] as? String == "C" && $0["name"] as? String == "memory" })
        #expect(events.contains { $0["ph"] as? String == "i" && $0["name"] as? String == "didReceiveMemoryWarning" })
    }

    @Test("the checker catches what breaks the format")
    func checker() throws {
        let bad = #"{"traceEvents":[{"ph":"B","name":"x","pid":1,"tid":1,"ts":5},{"ph":"i","s":"t","name":"y","pid":1,"tid":1,"ts":3},{"ph":"E","name":"z","pid":1,"tid":1,"ts":6},{"ph":"i","name":"w","pid":1,"tid":2}]}"#
        let found = try Self.problems(in: Data(bad.utf8))
        #expect(found.contains("event 1: time goes back on 1/1"))
        #expect(found.contains("event 2: E of z does not close the innermost B"))
        #expect(found.contains("event 3: ts is required (i)"))
    }

    @Test("a run that fails leaves no Chrome trace behind, and a writer closes what is open")
    func closesOpen() throws {
        let directory = try Executable.temporaryDirectory("chrome")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("t.json").path
        let writer = try ChromeTraceWriter(path: path)
        writer.beginRun("r")
        writer.write(TraceEvent(step: 1, app: "a", controller: nil, kind: .launchBegan, hostNanoseconds: 10_000))
        writer.write(TraceEvent(step: 1, app: "a", controller: ControllerID(screen: "s", instance: 1), kind: .loadView,
                                hostNanoseconds: 12_000))
        writer.sampleMemory(app: "a", bytes: 4096)
        try writer.commit()
        #expect(try Self.problems(in: Data(contentsOf: URL(fileURLWithPath: path))) == [])
        let discarded = try ChromeTraceWriter(path: directory.appendingPathComponent("d.json").path)
        discarded.write(TraceEvent(step: 1, app: "a", controller: nil, kind: .didFinishLaunching, hostNanoseconds: 1))
        discarded.discard()
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("d.json").path))
    }
}
