/// Frees the most bytes per nanosecond of expected reload first, until the target is met.
///
/// Every item an off-screen controller holds (cache, bitmaps, view, model) is a candidate
/// worth its measured bytes and costing its expected reload time, measured in this run
/// (``CleanupContext/expectedReloadCost(_:of:)``). Candidates are taken best ratio first
/// until the bytes freed reach the target: the context's ``CleanupContext/targetBytes``
/// when the system says how much it needs, else half of what could be freed on a warning
/// and all of it on a critical warning. A view includes its bitmaps, so a controller
/// whose bitmaps were taken can still give its view for the rest.
///
/// - Complexity: O(n log n) in the number of candidates.
public struct CostAwarePolicy: CleanupPolicy {
    public let name = "cost-aware"
    public init() {}

    public func plan(for context: CleanupContext) -> CleanupPlan {
        struct Candidate {
            var state: ControllerState
            var item: ReleasableItem
            var bytes: Int
            var cost: UInt64
        }
        var candidates: [Candidate] = []
        for state in context.controllers where !state.isOnScreen {
            for item in ReleasableItem.allCases where state.holds(item) {
                let bytes = state.releasableBytes(item)
                guard bytes > 0 else { continue }
                candidates.append(Candidate(state: state, item: item, bytes: bytes,
                                            cost: context.expectedReloadCost(item, of: state)))
            }
        }
        let available = candidates.filter { $0.item != .backingStores }.reduce(0) { $0 + $1.bytes }
        let target = context.targetBytes
            ?? (context.trigger.pressure >= .critical ? available : available / 2)
        // Best bytes per nanosecond first; ties by identity so plans repeat.
        candidates.sort {
            let left = Double($0.bytes) / Double(max($0.cost, 1))
            let right = Double($1.bytes) / Double(max($1.cost, 1))
            return left != right ? left > right : ($0.state.id, $0.item) < ($1.state.id, $1.item)
        }
        var plan = CleanupPlan(viewUnloadStyle: .setViewNil)
        var freed = 0
        var backingTaken: [ControllerID: Int] = [:]
        for candidate in candidates where freed < target {
            let id = candidate.state.id
            var gain = candidate.bytes
            if candidate.item == .view {
                // The view's bytes include bitmaps already counted if they were taken.
                gain -= backingTaken[id] ?? 0
            }
            if candidate.item == .backingStores, plan.releases[id]?.contains(.view) == true { continue }
            plan.release(candidate.item, of: id)
            if candidate.item == .backingStores { backingTaken[id] = candidate.bytes }
            freed += max(0, gain)
        }
        return plan
    }
}

/// The built-in cleanup policies by name.
public enum CleanupPolicies {
    /// Names in the order reports list them.
    public static let builtInNames = ["keep-all", "ios2", "ios3", "ios6", "aggressive", "lru", "cost-aware"]

    /// The built-in policy of that name (`lru` keeps `lruKeep` views).
    public static func named(_ name: String, lruKeep: Int = 2) -> (any CleanupPolicy)? {
        switch name {
        case "keep-all": return KeepAllPolicy()
        case "ios2": return IOS2Policy()
        case "ios3": return IOS3Policy()
        case "ios6": return IOS6Policy()
        case "aggressive": return AggressivePolicy()
        case "lru": return LRUPolicy(keep: lruKeep)
        case "cost-aware": return CostAwarePolicy()
        default: return nil
        }
    }

    /// Every built-in policy.
    public static var all: [any CleanupPolicy] { builtInNames.compactMap { named($0) } }
}
