import Foundation
import PressureLab
@testable import PressureLabHarness
import Testing

@Suite("Trace as JSON lines")
struct TraceWriterTests {
    @Test("every event is one JSON object a line, in order, with step, app, controller and event")
    func linesParse() throws {
        let path = NSTemporaryDirectory() + "pressurelab-trace-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TraceJSONLinesWriter(path: path)
        let recorder = TraceRecorder()
        writer.attach(to: recorder)
        let runtime = try RuntimeContext(app: "photos", generation: .iOS5, trace: recorder)
        try runtime.register(ScreenSpec(name: "grid", view: try .wide(count: 3, bytes: 64)))
        try runtime.register(ScreenSpec(name: "detail", view: try .single(bytes: 64)))
        let window = Window()
        let grid = try runtime.makeController(screen: "grid")
        let detail = try runtime.makeController(screen: "detail")
        recorder.step = 1
        try window.show(grid)
        recorder.step = 2
        try window.transition(from: grid, to: detail)
        recorder.step = 3
        grid.receiveMemoryWarning()
        writer.close()

        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == recorder.events.count)
        #expect(writer.lineCount == recorder.events.count)
        for (line, event) in zip(lines, recorder.events) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["step", "app", "controller", "event"])
            #expect(object["step"] as? Int == event.step)
            #expect(object["app"] as? String == "photos")
            #expect(object["controller"] as? String == event.controller?.description)
            #expect(object["event"] as? String == event.kind.rawValue)
        }
        #expect(lines.first == #"{"step":1,"app":"photos","controller":"grid#1","event":"loadView"}"#)
        #expect(lines.last == #"{"step":3,"app":"photos","controller":"grid#1","event":"viewDidUnload"}"#)
    }

    @Test("strings are escaped")
    func escaping() {
        let event = TraceEvent(step: 0, app: "a\"b\\c\nd\u{1}", controller: nil, kind: .init("x"))
        #expect(TraceJSONLinesWriter.line(for: event)
            == #"{"step":0,"app":"a\"b\\c\nd\u0001","controller":"","event":"x"}"#)
    }

    @Test("an unwritable path is a clear error")
    func unwritable() {
        #expect(throws: HarnessError.cannotWrite(path: "/nonexistent/dir/t.jsonl", reason: "No such file or directory")) {
            try TraceJSONLinesWriter(path: "/nonexistent/dir/t.jsonl")
        }
    }
}

@Suite("Generation comparison (the runtime core's end-to-end job)")
struct GenerationComparisonTests {
    @Test("every generation frees memory on the warning; iOS 6 keeps views; 2.2 and iOS 3 with forgotten outlets keep more")
    func figures() throws {
        let rows = try GenerationComparison().run()
        #expect(rows.count == 8)
        for row in rows {
            #expect(row.freedByWarning > 0)
            #expect(row.retainedAfterWarning < row.retainedBeforeWarning)
            #expect(row.retainedAfterReturn > row.retainedAfterWarning)
        }
        func row(_ generation: OSRelease, _ released: Bool) -> GenerationComparison.Row {
            rows.first { $0.generation == generation && $0.releasesOutlets == released }!
        }
        // Forgotten outlets keep their subviews: more retained after the warning.
        #expect(row(.iPhoneOS2, false).retainedAfterWarning > row(.iPhoneOS2, true).retainedAfterWarning)
        #expect(row(.iPhoneOS3, false).retainedAfterWarning > row(.iPhoneOS3, true).retainedAfterWarning)
        // iOS 6 keeps the view objects, so it frees less than the unloading generations.
        #expect(row(.iOS6, true).freedByWarning < row(.iPhoneOS3, true).freedByWarning)
        // Outlets do not matter under iOS 6: nothing is unloaded.
        #expect(row(.iOS6, false).retainedAfterWarning == row(.iOS6, true).retainedAfterWarning)
    }

    @Test("two runs record the same number of events and the same bytes")
    func deterministic() throws {
        let first = try GenerationComparison().run()
        let second = try GenerationComparison().run()
        #expect(first.map(\.traceEvents) == second.map(\.traceEvents))
        #expect(first.map(\.retainedAfterWarning) == second.map(\.retainedAfterWarning))
        #expect(first.map(\.freedByWarning) == second.map(\.freedByWarning))
    }
}
