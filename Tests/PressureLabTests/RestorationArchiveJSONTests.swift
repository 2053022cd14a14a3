import Foundation
@testable import PressureLab
import Testing

/// The archive's JSON is written directly (`RestorationArchive+JSON.swift`); it must be the
/// bytes `JSONEncoder` with `.sortedKeys` writes, since the files are the modelled I/O.
@Suite("Restoration archive JSON: the direct writer against JSONEncoder")
struct RestorationArchiveJSONTests {
    /// Every ASCII character (the controls, quotes, slashes, backslashes), and beyond it.
    static let characters: [Character] = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }
        + ["é", "ß", "日", "本", "😀", "\u{2028}", "\u{7F}", "🇫🇷"]

    private func string(_ random: inout SplitMix64) -> String {
        String((0..<Int.random(in: 0...12, using: &random)).map { _ in Self.characters.randomElement(using: &random)! })
    }

    private func data(_ random: inout SplitMix64) -> Data {
        let count = Int.random(in: 0...200, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return Data(repeating: 0xFF, count: count)  // base64 of all "/"
        case 1: return Data(repeating: 0, count: count)
        default: return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &random) })
        }
    }

    private func node(_ random: inout SplitMix64, depth: Int) -> RestorationArchive.Node {
        let children = depth > 3 ? 0 : Int.random(in: 0...3, using: &random)
        return .init(kind: Bool.random(using: &random) ? string(&random) : ["screen", "navigation", "tabs"].randomElement(using: &random)!,
                     screen: Bool.random(using: &random) ? string(&random) : nil,
                     children: (0..<children).map { _ in node(&random, depth: depth + 1) },
                     selected: Bool.random(using: &random) ? Int.random(in: -1_000...1_000_000, using: &random) : nil,
                     userData: (0..<Int.random(in: 0...3, using: &random)).map { _ in data(&random) })
    }

    @Test("random archives: the same bytes as JSONEncoder", arguments: 0..<40)
    func sameBytes(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var archive = RestorationArchive(app: string(&random), root: node(&random, depth: 0),
                                         modals: (0..<Int.random(in: 0...3, using: &random)).map { _ in node(&random, depth: 1) })
        if seed % 5 == 0 { archive.format = Int.random(in: Int.min...Int.max, using: &random) }
        let direct = try #require(archive.directJSON())
        #expect(direct == (try archive.encoderJSON()))
    }

    @Test("every control character and escape, one string each")
    func escapes() throws {
        for character in Self.characters {
            let archive = RestorationArchive(app: "a\(character)b", root: .init(kind: "screen", screen: String(character), children: [],
                                                                               selected: nil, userData: []),
                                             modals: [])
            #expect(archive.directJSON() == (try archive.encoderJSON()), "\(character.unicodeScalars.map(\.value))")
        }
    }

    @Test("a hierarchy nested past the limit falls back to the encoder, and round-trips")
    func deep() throws {
        var node = RestorationArchive.Node(kind: "screen", screen: "s", children: [], selected: nil, userData: [Data([1, 2, 3])])
        for _ in 0..<RestorationArchive.directEncodingDepthLimit {
            node = .init(kind: "navigation", screen: nil, children: [node], selected: nil, userData: [])
        }
        let archive = RestorationArchive(app: "deep", root: node, modals: [])
        #expect(archive.directJSON() == nil)
        let bytes = try archive.encoded()
        #expect(try RestorationArchive.decode(Data(bytes), path: "deep.restoration") == archive)
    }
}
