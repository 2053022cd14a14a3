/// The built-in cleanup policies, by the names the command line, scenario files and
/// results use. The OS generation a policy's apps behave as comes from the policy itself
/// (``CleanupPolicy/generation``), never from its name.
public enum CleanupKind: String, CaseIterable, Sendable, Codable {
    case keepAll = "keep-all"
    case ios2, ios3, ios6, aggressive, lru
    case costAware = "cost-aware"

    /// A policy of this kind (`lru` keeps `lruKeep` views).
    public func makePolicy(lruKeep: Int = 2) -> any CleanupPolicy {
        switch self {
        case .keepAll: return KeepAllPolicy()
        case .ios2: return IOS2Policy()
        case .ios3: return IOS3Policy()
        case .ios6: return IOS6Policy()
        case .aggressive: return AggressivePolicy()
        case .lru: return LRUPolicy(keep: lruKeep)
        case .costAware: return CostAwarePolicy()
        }
    }

    /// The OS generation the policy's apps behave as (their callbacks): the policy's own,
    /// else iOS 6 and later.
    public var generation: OSGeneration { makePolicy().generation ?? .iOS6 }
}

/// The built-in cleanup policies by name.
public enum CleanupPolicies {
    /// Names in the order reports list them.
    public static let builtInNames = CleanupKind.allCases.map(\.rawValue)

    /// The built-in policy of that name (`lru` keeps `lruKeep` views).
    public static func named(_ name: String, lruKeep: Int = 2) -> (any CleanupPolicy)? {
        CleanupKind(rawValue: name)?.makePolicy(lruKeep: lruKeep)
    }

    /// Every built-in policy.
    public static var all: [any CleanupPolicy] { CleanupKind.allCases.map { $0.makePolicy() } }
}
