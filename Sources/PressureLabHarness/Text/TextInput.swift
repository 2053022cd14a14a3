import Foundation

/// The one way PressureLab reads text input: every reader of a text file (scenarios,
/// profiles, sweeps, thresholds, baselines, the importers' dumps) gets its text from here,
/// decoded and with its line ends made `\n`, or a refusal that names what the bytes are.
///
/// Understood (docs/limits.md, "Text input"):
/// - UTF-8, with or without a byte-order mark (`EF BB BF`, dropped);
/// - UTF-16 with a byte-order mark, little-endian (`FF FE`: what Windows PowerShell 5.1's `>`
///   writes) or big-endian (`FE FF`);
/// - line ends `\n`, `\r\n` (Windows, an adb pty), `\r\r\n` (an adb pty on a Windows host: one
///   line end, not two) and a bare `\r` (classic Mac OS): each is one line end, so line numbers
///   are the ones an editor shows.
///
/// Refused by name: UTF-32 (`FF FE 00 00`, `00 00 FE FF`), UTF-16 without a byte-order mark,
/// bytes that are not UTF-8 (Latin-1 and other 8-bit encodings), NUL bytes (binary data); each
/// with the line and column of the first offending byte.
///
/// YAML files (``LineBreaks/yaml``) also end lines at NEL (U+0085), LINE SEPARATOR (U+2028) and
/// PARAGRAPH SEPARATOR (U+2029), as YAML 1.1 and libyaml do: made `\n` here, the prescan and
/// the composer see the same lines.
public enum TextInput {
    /// The encoding a file was decoded from.
    public enum Encoding: String, Sendable, Equatable {
        /// UTF-8 without a byte-order mark.
        case utf8 = "UTF-8"
        /// UTF-8 after a byte-order mark.
        case utf8WithByteOrderMark = "UTF-8 with a byte-order mark"
        /// UTF-16, little-endian (PowerShell's `>`).
        case utf16LittleEndian = "UTF-16 little-endian"
        /// UTF-16, big-endian.
        case utf16BigEndian = "UTF-16 big-endian"
    }

    /// Which characters end a line.
    public enum LineBreaks: Sendable, Equatable {
        /// `\n`, `\r\n`, `\r\r\n` and a bare `\r` (dumps).
        case common
        /// Those, and NEL, U+2028 and U+2029 (YAML 1.1's line breaks).
        case yaml
    }

    /// Decoded text: lines end in `\n` only.
    public struct Decoded: Sendable, Equatable {
        /// The text, line ends normalised to `\n`.
        public var text: String
        /// What the bytes were.
        public var encoding: Encoding
        /// Whether any line end was not `\n` (CRLF, CR, ...).
        public var normalisedLineEnds: Bool
    }

    /// Bytes that are not text this reader takes: what they are, where (1-based line and
    /// column in bytes of the first offending byte; line 1 column 1 for the file as a whole),
    /// and what to do.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// The line, from 1.
        public var line: Int
        /// The column in bytes, from 1.
        public var column: Int
        /// What the bytes are and what to do.
        public var message: String

        /// A refusal with each field given.
        public init(line: Int, column: Int, message: String) {
            self.line = line
            self.column = column
            self.message = message
        }

        /// `LINE:COLUMN: message`.
        public var description: String { "\(line):\(column): \(message)" }
    }

    /// Decodes `bytes` (see ``TextInput``).
    /// - Complexity: O(n) in the bytes.
    public static func decode(_ bytes: [UInt8], lineBreaks: LineBreaks = .common) throws(Refusal) -> Decoded {
        let encoding: Encoding
        var utf8: [UInt8]
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) || bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) {
            throw Refusal(line: 1, column: 1, message: "expected UTF-8 or UTF-16 text, found UTF-32 (its byte-order mark): "
                + "save the file as UTF-8")
        } else if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            let little = bytes[0] == 0xFF
            encoding = little ? .utf16LittleEndian : .utf16BigEndian
            utf8 = try transcodeUTF16(bytes.dropFirst(2), littleEndian: little)
        } else if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            encoding = .utf8WithByteOrderMark
            utf8 = Array(bytes.dropFirst(3))
        } else {
            encoding = .utf8
            if let guess = utf16WithoutMark(bytes) {
                throw Refusal(line: 1, column: 1, message: "expected UTF-8 text, found what looks like UTF-16 (\(guess)) without a "
                    + "byte-order mark: save the file as UTF-8 (or as UTF-16 with its byte-order mark)")
            }
            utf8 = bytes
        }
        try checkUTF8(utf8, encoding: encoding)
        guard needsNormalising(utf8, lineBreaks: lineBreaks) else {
            return Decoded(text: String(decoding: utf8, as: UTF8.self), encoding: encoding, normalisedLineEnds: false)
        }
        utf8 = normaliseLineEnds(utf8, lineBreaks: lineBreaks)
        return Decoded(text: String(decoding: utf8, as: UTF8.self), encoding: encoding, normalisedLineEnds: true)
    }

    /// Whether `bytes` hold a line end other than `\n` (a fast byte search: `memchr`).
    static func needsNormalising(_ bytes: [UInt8], lineBreaks: LineBreaks) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return false }
            if memchr(base, 0x0D, buffer.count) != nil { return true }
            guard lineBreaks == .yaml else { return false }
            return memchr(base, 0xC2, buffer.count) != nil || memchr(base, 0xE2, buffer.count) != nil
        }
    }

    /// `text` with its line ends made `\n` (text already in memory: a test's, a fuzzer's, a
    /// merge's); the identity on text read through ``decode(_:lineBreaks:)``.
    /// - Complexity: O(n); no copy when the text has no line end to change.
    public static func normalisingLineEnds(_ text: String, lineBreaks: LineBreaks = .common) -> String {
        let yaml = lineBreaks == .yaml
        let needsWork = text.utf8.withContiguousStorageIfAvailable { buffer -> Bool in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return false }
            return memchr(base, 0x0D, buffer.count) != nil
                || (yaml && (memchr(base, 0xC2, buffer.count) != nil || memchr(base, 0xE2, buffer.count) != nil))
        } ?? text.utf8.contains { $0 == 0x0D || (yaml && ($0 == 0xC2 || $0 == 0xE2)) }
        guard needsWork else { return text }
        return String(decoding: normaliseLineEnds(Array(text.utf8), lineBreaks: lineBreaks), as: UTF8.self)
    }

    /// The line ends of UTF-8 bytes made `\n`: a run of `\r` then `\n` is one line end; a `\r`
    /// not followed (after more `\r`) by `\n` is one line end each; with ``LineBreaks/yaml``,
    /// NEL (`C2 85`), U+2028 (`E2 80 A8`) and U+2029 (`E2 80 A9`) are one each.
    static func normaliseLineEnds(_ bytes: [UInt8], lineBreaks: LineBreaks) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        let count = bytes.count
        let yaml = lineBreaks == .yaml
        while index < count {
            let byte = bytes[index]
            if byte == 0x0D {
                var end = index
                while end < count, bytes[end] == 0x0D { end += 1 }
                if end < count, bytes[end] == 0x0A {
                    out.append(0x0A)
                    index = end + 1
                } else {
                    out.append(contentsOf: repeatElement(0x0A, count: end - index))
                    index = end
                }
                continue
            }
            if yaml {
                if byte == 0xC2, index + 1 < count, bytes[index + 1] == 0x85 {
                    out.append(0x0A)
                    index += 2
                    continue
                }
                if byte == 0xE2, index + 2 < count, bytes[index + 1] == 0x80, bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 {
                    out.append(0x0A)
                    index += 3
                    continue
                }
            }
            out.append(byte)
            index += 1
        }
        return out
    }

    /// 1-based line and column (in bytes) of `offset` in `bytes`, counting `\n`, `\r\n` and
    /// `\r` as line ends.
    static func location(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1, lineStart = 0, index = 0
        while index < offset, index < bytes.count {
            if bytes[index] == 0x0A || (bytes[index] == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        return (line, offset - lineStart + 1)
    }

    /// Refuses bytes that are not UTF-8, and NUL bytes, at their line and column.
    static func checkUTF8(_ bytes: [UInt8], encoding: Encoding) throws(Refusal) {
        // The standard library's validation first (fast); the slow walk only to locate a failure.
        // Decoding with repair is the standard library's fast path: the bytes are valid when
        // nothing was repaired (the decoded bytes are the same). No NUL: `memchr`.
        let decoded = String(decoding: bytes, as: UTF8.self)
        let valid = bytes.withUnsafeBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return true }
            guard memchr(base, 0, buffer.count) == nil, decoded.utf8.count == buffer.count else { return false }
            return decoded.utf8.withContiguousStorageIfAvailable { same in memcmp(same.baseAddress!, base, buffer.count) == 0 } ?? false
        }
        if valid { return }
        if let nul = bytes.firstIndex(of: 0) {
            let (line, column) = location(of: nul, in: bytes)
            throw Refusal(line: line, column: column, message: "expected text, found binary data (a NUL byte)")
        }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
            case .emptyInput:
                return
            case .error:
                let (line, column) = location(of: offset, in: bytes)
                let byte = offset < bytes.count ? bytes[offset] : 0
                throw Refusal(line: line, column: column, message: "expected UTF-8 text, found the byte 0x"
                    + String(byte, radix: 16, uppercase: true) + " that is not UTF-8 (Latin-1 or another 8-bit encoding?): "
                    + "save the file as UTF-8")
            }
        }
    }

    /// UTF-16 code units (after the byte-order mark) as UTF-8 bytes; a lone surrogate or an
    /// odd byte count is refused.
    static func transcodeUTF16(_ bytes: ArraySlice<UInt8>, littleEndian: Bool) throws(Refusal) -> [UInt8] {
        guard bytes.count % 2 == 0 else {
            throw Refusal(line: 1, column: 1, message: "expected UTF-16 text (its byte-order mark), found an odd number of bytes "
                + "(\(bytes.count + 2)): the file is cut short, or not UTF-16")
        }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let first = UInt16(bytes[index]), second = UInt16(bytes[index + 1])
            units.append(littleEndian ? first | second << 8 : first << 8 | second)
            index += 2
        }
        var out: [UInt8] = []
        out.reserveCapacity(units.count)
        var iterator = units.makeIterator()
        var decoder = UTF16()
        var line = 1, column = 1
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                UTF8.encode(scalar) { out.append($0) }
                if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
            case .emptyInput:
                return out
            case .error:
                throw Refusal(line: line, column: column, message: "expected UTF-16 text (its byte-order mark), found a lone "
                    + "surrogate (not UTF-16): save the file as UTF-8")
            }
        }
    }

    /// "little-endian" or "big-endian" when the bytes look like UTF-16 without a byte-order
    /// mark: ASCII text in UTF-16 has a zero in every other byte. Nil otherwise.
    static func utf16WithoutMark(_ bytes: [UInt8]) -> String? {
        let sample = bytes.prefix(512)
        guard sample.count >= 4 else { return nil }
        var zerosEven = 0, zerosOdd = 0
        for (index, byte) in sample.enumerated() where byte == 0 {
            if index % 2 == 0 { zerosEven += 1 } else { zerosOdd += 1 }
        }
        let half = sample.count / 2
        if zerosOdd * 10 >= half * 8, zerosEven == 0 { return "little-endian" }
        if zerosEven * 10 >= half * 8, zerosOdd == 0 { return "big-endian" }
        return nil
    }
}
