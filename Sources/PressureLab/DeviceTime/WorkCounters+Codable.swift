/// The results' `work` object (docs/formats.md, "Results"): one key a counter a cost reads
/// (its ``Cost/Kind/measures``), in ``Cost/allCases`` order. The costs that existed before
/// ``Cost`` keep the names their fields had (``legacyKey(_:_:)``), so results files stay byte for
/// byte the same; any other cost's counters are named by a rule, its profile key in lower
/// camel case plus `Bytes` or `Count` (`heap_trim` bytes: `heapTrimBytes`). Those are
/// optional when decoding (files written before the cost existed lack them); the legacy keys
/// are required, as they always were.
extension WorkCounters: Codable {
    /// The JSON names of the first twelve costs' counters: the names their stored fields had.
    static func legacyKey(_ cost: Cost, _ measure: Measure) -> String? {
        switch (cost, measure) {
        case (.processStart, .occurrences): "processStarts"
        case (.appInit, .occurrences): "appInits"
        case (.firstFrame, .occurrences): "firstFrames"
        case (.storageRead, .bytes): "storageReadBytes"
        case (.storageRead, .occurrences): "storageReads"
        case (.storageWrite, .bytes): "storageWriteBytes"
        case (.storageWrite, .occurrences): "storageWrites"
        case (.viewDecode, .occurrences): "viewsDecoded"
        case (.viewLayout, .occurrences): "viewsLaidOut"
        case (.bitmapDraw, .bytes): "bitmapBytesDrawn"
        case (.cacheFill, .bytes): "cacheBytesFilled"
        case (.archiveDecode, .bytes): "archiveBytesDecoded"
        case (.compress, .bytes): "bytesCompressed"
        case (.decompress, .bytes): "bytesDecompressed"
        default: nil
        }
    }

    /// One counter of the `work` object: its JSON key, its cost and measure, and whether a
    /// decoder must find it.
    struct Field {
        let key: String
        let cost: Cost
        let measure: Measure
        let required: Bool
    }

    /// Every counter the `work` object holds, in the order it is written.
    static let fields: [Field] = Cost.allCases.flatMap { cost in
        cost.kind.measures.map { measure in
            if let key = legacyKey(cost, measure) {
                return Field(key: key, cost: cost, measure: measure, required: true)
            }
            return Field(key: derivedKey(cost, measure), cost: cost, measure: measure, required: false)
        }
    }

    /// The rule for a cost without a legacy name: `heap_trim` -> `heapTrimBytes`, `heapTrimCount`.
    static func derivedKey(_ cost: Cost, _ measure: Measure) -> String {
        let words = cost.rawValue.split(separator: "_")
        let camel = words.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }
        return camel.joined() + (measure == .bytes ? "Bytes" : "Count")
    }

    struct Key: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: Key.self)
        for field in Self.fields {
            let key = Key(stringValue: field.key)
            self[field.measure, field.cost] = field.required
                ? try container.decode(Int.self, forKey: key) : try container.decodeIfPresent(Int.self, forKey: key) ?? 0
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for field in Self.fields { try container.encode(self[field.measure, field.cost], forKey: Key(stringValue: field.key)) }
    }
}
