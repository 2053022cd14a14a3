import Foundation
import PressureLabHarness
import PressureLabSweep
import Testing
import TestSupport

/// Every reader of text reads one way (``TextInput``): CRLF, a bare
/// CR, `\r\r\n`, a byte-order mark and UTF-16 are understood, the rest refused by name at its
/// line and column; line numbers are an editor's after normalisation; YAML's own line breaks
/// (NEL, U+2028, U+2029) are lines to the prescan as they are to the composer.
@Suite("Text input: line ends, byte-order marks, UTF-16")
struct TextInputTests {
    static func decode(_ bytes: [UInt8], _ breaks: TextInput.LineBreaks = .common) throws(TextInput.Refusal) -> TextInput.Decoded {
        try TextInput.decode(bytes, lineBreaks: breaks)
    }

    /// `text` as UTF-16 little-endian with its byte-order mark (PowerShell 5.1's `>`).
    static func utf16LittleEndian(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        return bytes
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test("CRLF, CR, CR CR LF and LF are one line end each; YAML's NEL, U+2028, U+2029 too for YAML")
    func lineEnds() throws {
        #expect(try Self.decode(Array("a\r\nb\rc\r\r\nd\n".utf8)).text == "a\nb\nc\nd\n")
        #expect(try Self.decode(Array("a\r\rb".utf8)).text == "a\n\nb")
        #expect(try Self.decode(Array("a\r\nb".utf8)).normalisedLineEnds)
        #expect(try !Self.decode(Array("a\nb".utf8)).normalisedLineEnds)
        #expect(try Self.decode(Array("a\u{85}b\u{2028}c\u{2029}d".utf8)).text == "a\u{85}b\u{2028}c\u{2029}d")
        #expect(try Self.decode(Array("a\u{85}b\u{2028}c\u{2029}d".utf8), .yaml).text == "a\nb\nc\nd")
    }

    @Test("a UTF-8 byte-order mark is dropped; UTF-16 with one (little- and big-endian) is decoded")
    func encodings() throws {
        let bom = try Self.decode([0xEF, 0xBB, 0xBF] + Array("x: 1\r\n".utf8))
        #expect(bom.text == "x: 1\n" && bom.encoding == .utf8WithByteOrderMark)
        let little = try Self.decode(Self.utf16LittleEndian("é\r\n✓"))
        #expect(little.text == "é\n✓" && little.encoding == .utf16LittleEndian)
        var bigEndian: [UInt8] = [0xFE, 0xFF]
        for unit in "a😀".utf16 { bigEndian += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        let big = try Self.decode(bigEndian)
        #expect(big.text == "a😀" && big.encoding == .utf16BigEndian)
    }

    @Test("what is not read is refused by name, at its line and column")
    func refusals() {
        #expect(throws: TextInput.Refusal(line: 1, column: 1, message: "expected UTF-8 or UTF-16 text, found UTF-32 (its byte-order "
            + "mark): save the file as UTF-8")) { try Self.decode([0xFF, 0xFE, 0, 0, 0x41, 0, 0, 0]) }
        #expect(throws: TextInput.Refusal(line: 1, column: 1, message: "expected UTF-8 text, found what looks like UTF-16 (little-endian) "
            + "without a byte-order mark: save the file as UTF-8 (or as UTF-16 with its byte-order mark)")) {
            try Self.decode(Array(Self.utf16LittleEndian("abcdef").dropFirst(2)))
        }
        #expect(throws: TextInput.Refusal(line: 2, column: 4, message: "expected UTF-8 text, found the byte 0xE9 that is not UTF-8 "
            + "(Latin-1 or another 8-bit encoding?): save the file as UTF-8")) { try Self.decode(Array("ok\r\ncaf".utf8) + [0xE9]) }
        #expect(throws: TextInput.Refusal(line: 3, column: 2, message: "expected text, found binary data (a NUL byte)")) {
            try Self.decode(Array("a\rb\nc".utf8) + [0])
        }
        #expect(throws: TextInput.Refusal(line: 1, column: 1, message: "expected UTF-16 text (its byte-order mark), found a lone "
            + "surrogate (not UTF-16): save the file as UTF-8")) { try Self.decode([0xFF, 0xFE, 0x00, 0xD8, 0x41, 0x00]) }
    }

    /// A scenario with an error at line 6, its line ends as `ending`.
    static func brokenScenario(_ ending: String) -> String {
        ["scenario: 1", "name: crlf", "device:", "  memory: 64MiB", "apps:", "  a: { screens: { s: {} }, root: nope }",
         "script:", "  - launch: a", ""].joined(separator: ending)
    }

    @Test("a scenario with CRLF, CR or UTF-16 is read, and its errors keep an editor's line numbers", arguments: ["\r\n", "\r", "\n"])
    func scenarioLines(ending: String) throws {
        let directory = try Executable.temporaryDirectory("text-input")
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = Self.brokenScenario(ending)
        for (name, bytes) in [("utf8.yaml", Array(text.utf8)), ("utf16.yaml", Self.utf16LittleEndian(text))] {
            let path = directory.appendingPathComponent(name).path
            try Self.write(bytes, to: path)
            do {
                _ = try ScenarioLoader().load(path: path)
                Issue.record("accepted \(name)")
            } catch {
                #expect(error.description == "\(path):6:34: apps.a.root: unknown screen 'nope'; screens of this app: s", "\(name)")
            }
        }
        let good = text.replacingOccurrences(of: "root: nope", with: "root: s")
        #expect(try ScenarioLoader().parse(good, path: "crlf.yaml").apps.map(\.name) == ["a"])
    }

    @Test("bare-CR line ends do not hide an alias bomb from the prescan: refused at once, located as with LF")
    func aliasBombWithCR() {
        // Before, with CR line ends, everything after the '#' was a comment to the prescan and
        // composing the alias key ran until killed.
        var lines = ["scenario: 1 # an alias bomb, its line ends bare CR", "name: bomb", "a: &a [x,x,x,x,x,x,x,x,x,x]"]
        for (name, previous) in zip(["b", "c", "d", "e", "f", "g", "h"], ["a", "b", "c", "d", "e", "f", "g"]) {
            lines.append("\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ",") + "]")
        }
        lines.append("*h : 1")
        for ending in ["\r", "\n", "\r\n"] {
            do {
                _ = try ScenarioLoader().parse(lines.joined(separator: ending), path: "bomb.yaml")
                Issue.record("accepted")
            } catch {
                #expect(error.description == "bomb.yaml:10:20: the file uses more than 64 YAML aliases; write the values out")
            }
        }
    }

    @Test("profiles and sweep files read the same way: a UTF-8 byte-order mark and CRLF")
    func profilesAndSweeps() throws {
        let directory = try Executable.temporaryDirectory("text-input-profile")
        defer { try? FileManager.default.removeItem(at: directory) }
        let round = try String(contentsOfFile: ProfileDisplayScaleTests.round, encoding: .utf8)
        let path = directory.appendingPathComponent("round.yaml").path
        try Self.write([0xEF, 0xBB, 0xBF] + Array(round.replacingOccurrences(of: "\n", with: "\r\n").utf8), to: path)
        #expect(try ProfileLoader().load(path: path).name == "round")
        let sweep = directory.appendingPathComponent("grid.yaml").path
        try Self.write(Array("sweep: 1\r\nscenarios: [x.yaml]\r\npolicy: [ios6, lru]\r\nbogus: 1\r\n".utf8), to: sweep)
        #expect(throws: SweepError.invalidFile(path: sweep, problems: ["\(sweep):4:1: bogus: unknown key; valid keys are sweep, output, "
            + "scenarios, policy, termination, profile, compressor, seeds, repeat, user, step_timeout, cell_timeout"])) { try SweepFile.load(path: sweep) }
        let latin = directory.appendingPathComponent("latin.yaml").path
        try Self.write(Array("sweep: 1\nname: caf".utf8) + [0xE9], to: latin)
        #expect(throws: SweepError.invalidFile(path: latin, problems: ["\(latin):2:10: not a YAML text file: expected UTF-8 text, found the "
            + "byte 0xE9 that is not UTF-8 (Latin-1 or another 8-bit encoding?): save the file as UTF-8"])) { try SweepFile.load(path: latin) }
    }

    @Test("thresholds and baselines read through the same door: UTF-16 decoded, Latin-1 refused at its line")
    func jsonInputs() throws {
        let directory = try Executable.temporaryDirectory("text-input-json")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("t.json").path
        let json = "{\r\n  \"bytes\": { \"absolute\": 1, \"relativePercent\": 2 }\r\n}\r\n"
        try Self.write(Self.utf16LittleEndian(json), to: path)
        #expect(try Thresholds.read(from: path).bytes == .init(absolute: 1, relativePercent: 2))
        let baseline = directory.appendingPathComponent("b.json").path
        try Self.write(Array("{\n\"x\": \"".utf8) + [0xE9, 0x22, 0x7D], to: baseline)
        #expect(throws: GateError.baselineCorrupt(path: baseline, reason: "line 2, column 7: not a JSON text file: expected UTF-8 text, "
            + "found the byte 0xE9 that is not UTF-8 (Latin-1 or another 8-bit encoding?): save the file as UTF-8")) {
            try Baseline.read(from: baseline)
        }
    }
}
