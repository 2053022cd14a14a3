import Foundation
import PressureLab
import PressureLabHarness
import Testing

/// Regression tests for the classes of hostile scenario a mutation fuzzer found: each is
/// refused with a located message, quickly, instead of trapping, hanging or growing memory.
@Suite("Hostile scenarios are refused, located, and cheap")
struct HostileScenarioTests {
    /// A valid app, for scripts to use.
    static let head = """
        scenario: 1
        name: h
        device:
          memory: 96MiB
        apps:
          a:
            screens:
              s:
                tree: { depth: 1, fanout: 2, bytes: 1KiB }
            root: { nav: s }

        """

    static let loader = ScenarioLoader(hostLimitBytes: 8 << 30)

    static func diagnostics(_ text: String) -> [ScenarioDiagnostic] {
        do {
            _ = try loader.parse(text, path: "t.yaml")
            return []
        } catch {
            return error.diagnostics
        }
    }

    @Test("class 1: a tree of 9,000,000 views of 1 TiB is refused without overflowing")
    func overflowingTree() {
        let text = Self.head.replacingOccurrences(of: "tree: { depth: 1, fanout: 2, bytes: 1KiB }",
                                                  with: "tree: { depth: 2, fanout: 3000, bytes: 1024GiB }")
            + "script: [ { launch: a } ]\n"
        let found = Self.diagnostics(text)
        #expect(found.contains { $0.key == "apps.a.screens.s.tree" && $0.line == 9 && $0.message.contains("more than 1000000 views") })
    }

    @Test("class 1: sizes that overflow when summed are refused by the host check, not trapped")
    func overflowingSums() {
        var text = "scenario: 1\nname: h\ndevice: { memory: 96MiB }\napps:\n  a:\n    screens:\n"
        for index in 0..<12 { text += "      s\(index): { tree: { views: 1000, bytes: 1024GiB } }\n" }
        text += "    root: { tabs: [ " + (0..<12).map { "s\($0)" }.joined(separator: ", ") + " ] }\nscript: [ { launch: a } ]\n"
        let loader = ScenarioLoader(hostLimitBytes: 1 << 50)
        var found: [ScenarioDiagnostic] = []
        do { _ = try loader.parse(text, path: "t.yaml") } catch { found = error.diagnostics }
        #expect(found.count == 1)
        #expect(found.first?.message.hasPrefix("the run could hold 13194139538359344 bytes") == true)
        // Sums past Int.max saturate instead of trapping.
        let huge = try! ViewDescription(nodes: [.init(bytes: Int.max / 2, childCount: 2), .init(bytes: Int.max / 2), .init(bytes: Int.max / 2)])
        #expect(huge.payloadBytes == Int.max)
        #expect(ScreenSpec(name: "x", view: huge, cacheBytes: Int.max).declaredBytes == Int.max)
        // Saturating arithmetic itself.
        #expect(Int.max.addingSaturating(1) == Int.max)
        #expect((Int.max / 2).multipliedSaturating(by: 3) == Int.max)
        #expect([Int.max, Int.max].saturatingSum() == Int.max)
    }

    @Test("class 2: an empty loop still costs its iterations")
    func emptyLoopsCount() throws {
        let text = Self.head + "script:\n  - launch: a\n  - repeat: { times: 1000000, steps: [ { repeat: { times: 1000000, steps: [] } } ] }\n"
        let found = Self.diagnostics(text)
        #expect(found.count == 1)
        #expect(found.first?.message.contains("expands to 1000000000001 steps") == true)
        let small = try Self.loader.parse(Self.head + "script:\n  - launch: a\n  - repeat: { times: 7, steps: [] }\n", path: "t.yaml")
        #expect(small.expandedStepCount == 8)
    }

    @Test("class 3: an alias bomb stops at the node budget, quickly")
    func aliasBomb() {
        var text = Self.head + "script:\n  - launch: a\n  - repeat: { times: 1, steps: &k1 [ "
            + Array(repeating: "{push: s}", count: 8).joined(separator: ", ") + " ] }\n"
        for level in 2...8 {
            let inner = Array(repeating: "{repeat: {times: 1, steps: *k\(level - 1)}}", count: 8).joined(separator: ", ")
            text += "  - repeat: { times: 1, steps: &k\(level) [ \(inner) ] }\n"
        }
        #expect(text.utf8.count < 3000)
        let found = Self.diagnostics(text)
        #expect(found.count == 1)
        #expect(found.first?.message.contains("expands (through YAML aliases) to more than \(YAMLPrescan.maximumExpandedNodes) nodes") == true)
    }

    @Test("class 3: an alias or a flow collection as a mapping key is refused before composing",
          arguments: [("*k : 1\n", 3, "a YAML alias may not be used as a mapping key"),
                      ("*k: 1\n", 3, "a YAML alias may not be used as a mapping key"),
                      ("[*k, *k]: 1\n", 11, "a flow collection ([ ] or { }) may not be used as a mapping key"),
                      ("? *k\n  : 1\n", 3, "explicit keys ('? ') are not used in these files; write 'key: value'")])
    func aliasKey(key: String, column: Int, message: String) {
        let text = Self.head + "x: &k [1, 2]\nscript:\n  - launch: a\ny:\n  " + key
        let found = Self.diagnostics(text)
        #expect(found == [ScenarioDiagnostic(path: "t.yaml", line: 15, column: column, key: "", message: message)])
    }

    @Test("class 3: block scalars are skipped: bullets and brackets in a description are text")
    func blockScalars() throws {
        let bullets = (0..<70).map { "  * item \($0) [unbalanced" }.joined(separator: "\n")
        let text = "description: |\n" + bullets + "\n" + Self.head.replacingOccurrences(of: "scenario: 1\n", with: "scenario: 1\n")
            + "script: [ { launch: a } ]\n"
        #expect(YAMLPrescan.check(text) == nil)
        let scenario = try Self.loader.parse(text, path: "t.yaml")
        #expect(scenario.description.hasPrefix("* item 0"))
        // After a block scalar, aliases are checked again.
        #expect(YAMLPrescan.check("d: >\n  [ text\nx: &a 1\n*a : 2\n")?.message == "a YAML alias may not be used as a mapping key")
        // An escaped line break in a double-quoted value keeps the line count right.
        #expect(YAMLPrescan.check("d: \"one\\\n  two\"\n*a : 1\n")?.line == 3)
    }

    @Test("class 3: too many aliases, deep flow nesting and deep block nesting are refused")
    func prescanLimits() {
        let aliases = "a: &x 1\nb: [" + Array(repeating: "*x", count: 65).joined(separator: ", ") + "]\n"
        #expect(YAMLPrescan.check(aliases)?.message.contains("more than 64 YAML aliases") == true)
        #expect(YAMLPrescan.check(String(repeating: "[", count: 65))?.message.contains("nested more than 64 deep") == true)
        #expect(YAMLPrescan.check(String(repeating: "- ", count: 100) + "x")?.line == 1)
        #expect(YAMLPrescan.check("a: '*not an alias'\nb: \"&x *y\"\nc: x*y  # *z\n") == nil)
        for path in Self.bundledScenarioPaths {
            #expect(YAMLPrescan.check(try! String(contentsOfFile: path, encoding: .utf8)) == nil, "\(path)")
        }
    }

    static var bundledScenarioPaths: [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let directory = root.appendingPathComponent("scenarios").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".yaml") }
            .map { "\(directory)/\($0)" }
    }

    @Test("class 4: app and screen names that differ only by YAML tag are one name, refused")
    func taggedNames() {
        let apps = """
            scenario: 1
            name: h
            device: { memory: 96MiB }
            apps:
              1: { screens: { s: {} }, root: s }
              "1": { screens: { s: {} }, root: s }
            script: [ { launch: "1" } ]

            """
        let found = Self.diagnostics(apps)
        #expect(found.contains { $0.line == 6 && $0.key == "apps.1" && $0.message.hasPrefix("app '1' is declared twice (first at line 5)") })
        let screens = Self.head.replacingOccurrences(of: "      s:\n        tree: { depth: 1, fanout: 2, bytes: 1KiB }",
                                                     with: "      10: {}\n      \"10\": { backing: 1MiB }")
            .replacingOccurrences(of: "{ nav: s }", with: "{ nav: \"10\" }") + "script: [ { launch: a } ]\n"
        #expect(Self.diagnostics(screens).contains { $0.key == "apps.a.screens.10" && $0.message.contains("screen '10' is declared twice") })
    }

    @Test("class 5: every declared byte counts: type sizes, table cells, pushes in repeats")
    func declaredMemory() throws {
        let text = """
            scenario: 1
            name: h
            device: { memory: 64MiB }
            apps:
              a:
                data: 1MiB
                screens:
                  t: { kind: table, rows: 100, visible_rows: 10, reuse_pool: 2, cell: { views: 1, bytes: 1MiB } }
                  s: { tree: { depth: 0, bytes: 1KiB }, backing: 3MiB }
                root: { nav: t }
            script:
              - launch: a
              - repeat: { times: 5, steps: [ { push: s }, { type: 2MiB } ] }

            """
        let scenario = try Self.loader.parse(text, path: "t.yaml")
        let declared = scenario.declaredMemory
        let screens = Dictionary(uniqueKeysWithValues: scenario.apps[0].screens.map { ($0.name, $0) })
        let table = try #require(screens["t"]), plain = try #require(screens["s"])
        // The table screen counts its 12 live cells (10 visible + a pool of 2).
        #expect(table.worstCaseBytes >= 12 * (1 << 20))
        #expect(plain.worstCaseBytes >= 3 << 20)
        let launch = scenario.apps[0].root.worstCaseBytes(screens: screens)
        #expect(declared.totalBytes == (1 << 20) + launch + 5 * plain.worstCaseBytes + 5 * (2 << 20))
        #expect(declared.largestAllocationBytes == launch)
        // The host check points at the largest allocation, and at 'memory' for the budget.
        let small = ScenarioLoader(hostLimitBytes: 80 << 20)
        let huge = text.replacingOccurrences(of: "{ type: 2MiB }", with: "{ type: 1GiB }")
        do {
            _ = try small.parse(huge, path: "t.yaml")
            Issue.record("a 1 GiB type on an 80 MiB host was accepted")
        } catch {
            #expect(error.diagnostics.map(\.key) == ["script[1].repeat.steps[1].type"])
            #expect(error.diagnostics.first?.line == 13)
        }
        do {
            _ = try small.parse(text.replacingOccurrences(of: "64MiB", with: "128MiB"), path: "t.yaml")
            Issue.record("a 128 MiB budget on an 80 MiB host was accepted")
        } catch {
            #expect(error.diagnostics.map(\.key) == ["device.memory"])
            #expect(error.diagnostics.first?.line == 3 && error.diagnostics.first?.column == 19)
        }
    }

    @Test("class 9: the seed takes every UInt64; a quoted newline keeps the diagnostic on one line")
    func smallerOnes() throws {
        let scenario = try Self.loader.parse(Self.head + "seed: 18446744073709551615\nscript: [ { launch: a } ]\n", path: "t.yaml")
        #expect(scenario.seed == UInt64.max)
        let found = Self.diagnostics(Self.head + "script:\n  - launch: a\n  - push: \"s\\nx\"\n")
        #expect(found.count == 1)
        #expect(found.first?.description == "t.yaml:13:11: script[1].push: unknown screen 's\\nx'; screens: s")
        #expect(found.first?.description.contains("\n") == false)
    }

    @Test("the process limits are part of the host limit")
    func processLimits() {
        let host = HostMemoryProbe.host(physical: 64 << 30, cgroup: nil, addressSpace: 8 << 30, data: 16 << 30)
        #expect(host.effectiveLimit == 8 << 30)
        #expect(host.safeLimit() == 4 << 30)
    }
}

import PressureLabHeap

enum HostMemoryProbe {
    static func host(physical: Int, cgroup: Int?, addressSpace: Int?, data: Int?) -> HostMemory {
        HostMemory(physicalBytes: physical, cgroupLimitBytes: cgroup, addressSpaceLimitBytes: addressSpace, dataLimitBytes: data)
    }
}
