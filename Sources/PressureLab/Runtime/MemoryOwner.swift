/// What a byte is held for, inside one controller.
public enum MemoryCategory: String, CaseIterable, Sendable, Codable {
    /// The views' own storage and bookkeeping (view and layer objects).
    case viewTree
    /// Layer backing stores (bitmaps).
    case backingStore
    /// Purgeable caches.
    case cache
    /// Recreatable models read from disk.
    case model
    /// Data the user typed: not recreatable.
    case userData

    /// Hashes the case's position, not its raw string (what a raw-valued enum hashes by
    /// default): every ledger update hashes an owner, and with it a category.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(position)
    }

    /// What a dictionary keyed by category hashes: the position, mixed with the dictionary's
    /// seed (``WordHash``). Without it, a raw-valued enum hashes its raw string here.
    public func _rawHashValue(seed: Int) -> Int { WordHash.mix(UInt64(position), seed: seed) }

    /// The case's position in the declaration (0 to 4).
    var position: UInt8 {
        switch self {
        case .viewTree: 0
        case .backingStore: 1
        case .cache: 2
        case .model: 3
        case .userData: 4
        }
    }
}

/// An owner of bytes in the attribution ledger: a controller and a category.
public struct MemoryOwner: Hashable, Sendable, CustomStringConvertible {
    /// The controller's identity (`screen#instance`).
    public var controller: ControllerID
    /// What the bytes are for.
    public var category: MemoryCategory

    /// The owner of `category` bytes of `controller`.
    public init(controller: ControllerID, category: MemoryCategory) {
        self.controller = controller
        self.category = category
    }

    public var description: String { "\(controller)/\(category.rawValue)" }

    /// Hashes what ``ControllerID`` hashes (its instance and its screen name's length) and the
    /// category's position as one word: one round of the hasher instead of three, on every
    /// ledger update. Equality still compares everything.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(packed)
    }

    /// What a dictionary keyed by owner hashes (every ledger update looks one up): the same
    /// word, mixed with the dictionary's seed in a few instructions (``WordHash``) instead of
    /// a SipHash round with its set-up and finalization, which took about 4% of a scale run.
    public func _rawHashValue(seed: Int) -> Int { WordHash.mix(UInt64(packed), seed: seed) }

    private var packed: UInt {
        UInt(truncatingIfNeeded: controller.instance) &<< 24
            | UInt(truncatingIfNeeded: controller.screen.utf8.count & 0xFFFF) &<< 8
            | UInt(category.position)
    }
}

/// A hash of one word for dictionary keys: the word xor the dictionary's per-process seed,
/// through SplitMix64's finalizer (a bijection that spreads every input bit over the output).
/// No defence against chosen keys, which PressureLab's keys (its own controllers) are not.
enum WordHash {
    @inline(__always)
    static func mix(_ word: UInt64, seed: Int) -> Int {
        var value = word ^ UInt64(bitPattern: Int64(seed))
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: value ^ (value >> 31))
    }
}

/// A controller's identity: its screen and an instance number, written `detail#3`.
public struct ControllerID: Hashable, Sendable, CustomStringConvertible, Comparable {
    /// The screen the controller shows.
    public var screen: String
    /// 1 for the first controller of the screen in a runtime, then 2, 3, ...
    public var instance: Int

    /// The `instance`th controller of `screen`.
    public init(screen: String, instance: Int) {
        self.screen = screen
        self.instance = instance
    }

    public var description: String { "\(screen)#\(instance)" }

    /// Hashes the instance number and the screen name's length only: identities are unique
    /// per screen and instance, and equality still compares the names. Hashing a whole
    /// String on every ledger update was the attribution's main cost.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(instance)
        hasher.combine(screen.utf8.count)
    }

    public static func < (lhs: ControllerID, rhs: ControllerID) -> Bool {
        (lhs.screen, lhs.instance) < (rhs.screen, rhs.instance)
    }
}
