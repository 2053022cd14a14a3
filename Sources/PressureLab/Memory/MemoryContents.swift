import PressureLabHeap

/// What each kind of an app's memory is filled with: seeded bytes that compress to the
/// profile's declared ratio for that kind (`content:` of a device profile). Without contents,
/// memory is filled with a constant pattern (which compresses to almost nothing).
public struct MemoryContents: Sendable {
    /// The kinds of memory, as a profile's `content:` names them.
    public enum Kind: String, Sendable, CaseIterable {
        /// Views, backing stores, caches, models, user data and app-wide data.
        case view, backing, cache, model, userData = "user_data", appData = "app_data"
    }

    private let fills: [Kind: ContentFill]

    /// Contents with `ratios` per kind (kinds left out: 2.0) at `pageBytes`, from `seed`.
    public init(ratios: [Kind: Double], pageBytes: Int, seed: UInt64) {
        var fills: [Kind: ContentFill] = [:]
        for kind in Kind.allCases {
            let salt = UInt64(truncatingIfNeeded: kind.rawValue.hashValueStable)
            fills[kind] = ContentFill(ratio: max(1, ratios[kind] ?? 2.0), pageBytes: pageBytes, seed: seed ^ salt)
        }
        self.fills = fills
    }

    /// The fill of one kind.
    public subscript(kind: Kind) -> ContentFill? { fills[kind] }

    /// The declared ratio of one kind.
    public func ratio(of kind: Kind) -> Double { fills[kind]?.ratio ?? 1 }
}

/// Stable hashes of names (seeds, file names).
extension String {
    /// A hash that is the same in every process (Swift's `hashValue` is seeded per process):
    /// FNV-1a, 64 bit, of the UTF-8 bytes.
    public var hashValueStable: UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}
