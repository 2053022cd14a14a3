import Foundation
import PressureLabHeap

/// The archive's JSON written directly, byte for byte what `JSONEncoder` with `.sortedKeys`
/// writes for it (swift-foundation's `JSONWriter`): keys in UTF-8 order, absent optionals
/// left out, integers in decimal, `Data` as padded base64 (`.base64`, the default), and in
/// strings `"` `\` `/` escaped, `\b \f \n \r \t` for those controls and `\u00xx` (lower-case
/// hex) for the other controls below 0x20; no spaces.
///
/// `JSONEncoder` builds a tree of boxed values for every archive, base64-encodes each block of
/// user data into a `String` and then scans that string byte by byte for escapes: 5% of a
/// `long-random` run's samples (`perf`, 2026-11-24). Here the base64 goes straight into the
/// output buffer. `RestorationArchiveJSONTests` compare the two encoders' bytes.
extension RestorationArchive {
    /// Nesting beyond which the encoder's own output is used (JSONWriter refuses 512 levels of
    /// containers; an archive nests two a level of the hierarchy).
    static let directEncodingDepthLimit = 64

    /// The archive's JSON bytes as `JSONEncoder` with `.sortedKeys` writes them, or nil when
    /// the hierarchy nests deeper than ``directEncodingDepthLimit`` (then use the encoder).
    func directJSON() -> [UInt8]? {
        guard Self.depth(of: root) <= Self.directEncodingDepthLimit,
              modals.allSatisfy({ Self.depth(of: $0) <= Self.directEncodingDepthLimit })
        else { return nil }
        var capacity = 32 + JSONOutput.bound(app) + JSONOutput.bound(format) + Self.bound(root)
        for modal in modals { capacity += Self.bound(modal) + 1 }
        return ByteOutput.bytes(capacity: capacity) { out in
            out.append("{\"app\":")
            out.string(app)
            out.append(",\"format\":")
            out.integer(format)
            out.append(",\"modals\":[")
            for (index, modal) in modals.enumerated() {
                if index > 0 { out.byte(UInt8(ascii: ",")) }
                Self.write(modal, to: &out)
            }
            out.append("],\"root\":")
            Self.write(root, to: &out)
            out.byte(UInt8(ascii: "}"))
        }
    }

    private static func depth(of node: Node) -> Int {
        1 + node.children.reduce(0) { max($0, depth(of: $1)) }
    }

    /// At most the bytes ``write(_:to:)`` writes for `node`.
    private static func bound(_ node: Node) -> Int {
        var bytes = 80 + JSONOutput.bound(node.kind)
        if let screen = node.screen { bytes += JSONOutput.bound(screen) }
        if let selected = node.selected { bytes += JSONOutput.bound(selected) }
        for child in node.children { bytes += bound(child) + 1 }
        for block in node.userData { bytes += JSONOutput.base64Bound(block.count) + 1 }
        return bytes
    }

    private static func write(_ node: Node, to out: inout ByteOutput) {
        out.append("{\"children\":[")
        for (index, child) in node.children.enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            write(child, to: &out)
        }
        out.append("],\"kind\":")
        out.string(node.kind)
        if let screen = node.screen {
            out.append(",\"screen\":")
            out.string(screen)
        }
        if let selected = node.selected {
            out.append(",\"selected\":")
            out.integer(selected)
        }
        out.append(",\"userData\":[")
        for (index, block) in node.userData.enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            block.withUnsafeBytes { out.base64String($0) }
        }
        out.append("]}")
    }
}

/// Bounds on the bytes the JSON writers below (on `ByteOutput`) write, to size the output.
enum JSONOutput {
    /// At most the bytes `string(_:)` writes (every byte as `\u00xx`, quotes).
    static func bound(_ string: String) -> Int { 6 * string.utf8.count + 2 }

    /// At most the bytes `integer(_:)` writes.
    static func bound(_ value: Int) -> Int { 20 }

    /// At most the bytes `base64String(_:)` writes (every character an escaped `/`, quotes).
    static func base64Bound(_ count: Int) -> Int { 2 * 4 * ((count + 2) / 3) + 2 }

    fileprivate static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
}

/// JSON values written as swift-foundation's `JSONWriter` writes them.
extension ByteOutput {
    mutating func integer(_ value: Int) {
        for byte in String(value).utf8 { self.byte(byte) }
    }

    /// A JSON string, escaped as JSONWriter escapes.
    mutating func string(_ value: String) {
        byte(UInt8(ascii: "\""))
        for unit in value.utf8 {
            switch unit {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                byte(UInt8(ascii: "\\"))
                byte(unit)
            case 0x08: escaped(UInt8(ascii: "b"))
            case 0x0C: escaped(UInt8(ascii: "f"))
            case 0x0A: escaped(UInt8(ascii: "n"))
            case 0x0D: escaped(UInt8(ascii: "r"))
            case 0x09: escaped(UInt8(ascii: "t"))
            case 0x00..<0x20:
                append("\\u00")
                byte(Self.hex(unit >> 4))
                byte(Self.hex(unit & 0xF))
            default:
                byte(unit)
            }
        }
        byte(UInt8(ascii: "\""))
    }

    private mutating func escaped(_ letter: UInt8) {
        byte(UInt8(ascii: "\\"))
        byte(letter)
    }

    private static func hex(_ digit: UInt8) -> UInt8 {
        digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
    }

    /// `Data.base64EncodedString()` of `bytes` as a JSON string: padded, no line breaks,
    /// `/` escaped (the only base64 character JSONWriter escapes).
    mutating func base64String(_ bytes: UnsafeRawBufferPointer) {
        byte(UInt8(ascii: "\""))
        write(upTo: JSONOutput.base64Bound(bytes.count) - 2) { output in JSONOutput.alphabet.withUnsafeBufferPointer { table in
            let base = output.baseAddress!
            var out = base
            @inline(__always) func put(_ sextet: UInt32) {
                let character = table[Int(sextet & 0x3F)]
                if character == UInt8(ascii: "/") {
                    out.pointee = UInt8(ascii: "\\")
                    out += 1
                }
                out.pointee = character
                out += 1
            }
            var index = 0
            let whole = bytes.count - bytes.count % 3
            while index < whole {
                let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                put(group >> 18)
                put(group >> 12)
                put(group >> 6)
                put(group)
                index += 3
            }
            switch bytes.count - whole {
            case 1:
                let group = UInt32(bytes[index]) << 16
                put(group >> 18)
                put(group >> 12)
                out[0] = UInt8(ascii: "=")
                out[1] = UInt8(ascii: "=")
                out += 2
            case 2:
                let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
                put(group >> 18)
                put(group >> 12)
                put(group >> 6)
                out.pointee = UInt8(ascii: "=")
                out += 1
            default:
                break
            }
            return out - base
        } }
        byte(UInt8(ascii: "\""))
    }
}
