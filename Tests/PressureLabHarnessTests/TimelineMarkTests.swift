import Foundation
import PressureLab
@testable import PressureLabHarness
import Testing

@Suite("Timeline marks and levels: typed in the tool, text in the results file")
struct TimelineMarkTests {
    @Test("every mark reads back from the text it writes; a mark this build does not know is kept as it is")
    func roundTrip() {
        let marks: [TimelineMark] = [.kill(app: "mail", reason: .idleExit), .kill(app: "a (b)", reason: .lmkdCriticalPressure),
                                     .outOfMemory, .terminatedOnHome, .coldLaunch("maps"), .coldLaunch(nil), .resume("mail"),
                                     .thaw("news"), .backgroundLaunch("music"), .freeze, .interrupted, .backgroundTimeOver, .warning]
        #expect(marks.map(\.description) == ["kill mail (idle-exit)", "kill a (b) (lmkd-critical-pressure)", "oom",
                                             "terminated on home", "cold launch maps", "cold launch", "resume mail", "thaw news",
                                             "background launch music", "freeze", "interrupted", "background time over", "warning"])
        for mark in marks { #expect(TimelineMark(mark.description) == mark) }
        #expect(TimelineMark("kill mail (no-such-reason)") == .other("kill mail (no-such-reason)"))
        #expect(TimelineMark("swapped out") == .other("swapped out"))
        #expect(TimelineMark("resume mail").category == .launch && TimelineMark("oom").category == .kill)
    }

    @Test("a timeline entry writes its level and marks as text and reads them back; an unknown level is an error that names the valid ones")
    func entryCoding() throws {
        let entry = RunResult.TimelineEntry(step: 3, event: "launch mail", retainedBytes: 1024, level: .critical,
                                            marks: [.kill(app: "news", reason: .vmPageShortage), .coldLaunch("mail")], aliveApps: 2)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(entry), as: UTF8.self)
        #expect(text == #"{"aliveApps":2,"event":"launch mail","level":"critical","marks":["kill news (vm-page-shortage)","cold launch mail"],"retainedBytes":1024,"step":3}"#)
        #expect(try JSONDecoder().decode(RunResult.TimelineEntry.self, from: Data(text.utf8)) == entry)
        #expect(entry.actionKind == .launch)
        let bad = text.replacingOccurrences(of: "\"critical\"", with: "\"severe\"")
        do {
            _ = try JSONDecoder().decode(RunResult.TimelineEntry.self, from: Data(bad.utf8))
            Issue.record("an unknown level decoded")
        } catch {
            #expect("\(error)".contains("unknown pressure level 'severe'; levels are normal, warning, critical"))
        }
    }

    @Test("a run's policy is written as its name and read back as the policy when this program knows the name, else as the name alone")
    func policyNames() throws {
        #expect(Cleanup(named: "ios6") == .ios6 && Cleanup(named: "ios6")?.isBuiltIn == true)
        #expect(Termination(named: "largest-first") == .largestFirst)
        #expect(Cleanup(named: "mine") == nil)
        struct Mine: CleanupPolicy, Sendable {
            let name = "mine"
            func plan(for context: CleanupContext) -> CleanupPlan { CleanupPlan() }
        }
        let encoded = try JSONEncoder().encode([Cleanup.costAware, Cleanup(Mine())])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["cost-aware","mine"]"#)
        let decoded = try JSONDecoder().decode([Cleanup].self, from: encoded)
        #expect(decoded == [.costAware, Cleanup(Mine())])
        // Known only by name here (no program registered it): running it says so.
        #expect {
            try decoded[1].makePolicy()
        } throws: { error in
            guard case .unknown(.cleanup, "mine", let known) = error as? PolicyError else { return false }
            return Array(known.prefix(7)) == Cleanup.builtIns.map(\.name)
        }
        #expect(try decoded[0].makePolicy().name == "cost-aware")
    }
}
