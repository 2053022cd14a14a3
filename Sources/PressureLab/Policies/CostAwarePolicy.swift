/// Frees the bytes that are cheapest to get back: the set of releases with the least
/// expected reload time that frees at least the target.
///
/// Every item an off-screen controller holds is a candidate worth its measured bytes and
/// costing its expected reload time, measured in this run (reloads, else the item's first
/// build; ``CleanupContext/expectedReloadCost(_:of:)``). A controller's bitmaps and its view
/// are alternatives: releasing the view frees its bitmaps too and costs a view reload plus
/// a redraw. The policy solves the covering knapsack (least total cost such that the bytes
/// freed reach the target) by dynamic programming over the bytes in at most 1,024 steps.
/// Item sizes are rounded down to whole steps, so a chosen set always frees the target;
/// the price of the rounding is that a cheaper set within a step per item may be missed. The target is the context's
/// ``CleanupContext/targetBytes`` when the system says how much it needs, else half of
/// what could be freed on a warning and all of it on a critical warning. When the target
/// cannot be reached, everything is released.
///
/// - Complexity: O(groups x 1,024) time and space, groups being the releasable items.
public struct CostAwarePolicy: CleanupPolicy {
    public let name = "cost-aware"
    /// A target of its own, in place of the system's and the default (a comparison at
    /// another policy's bytes freed); nil: the context's.
    public var targetBytes: Int?

    /// The policy, freeing `targetBytes` when given (else the context's target).
    public init(targetBytes: Int? = nil) {
        self.targetBytes = targetBytes
    }

    /// One release the policy can choose.
    struct Option {
        var controller: ControllerID
        var items: [ReleasableItem]
        var bytes: Int
        var cost: UInt64
    }

    public func plan(for context: CleanupContext) -> CleanupPlan {
        let groups = Self.groups(context)
        let available = groups.reduce(0) { $0 + ($1.map(\.bytes).max() ?? 0) }
        let target = min(available, targetBytes ?? context.targetBytes
            ?? (context.trigger.pressure >= .critical ? available : available / 2))
        var plan = CleanupPlan(viewUnloadStyle: .setViewNil)
        guard target > 0 else { return plan }
        let chosen = Self.cheapestCover(groups, target: target) ?? groups.compactMap { $0.max { $0.bytes < $1.bytes } }
        for option in chosen {
            for item in option.items { plan.release(item, of: option.controller) }
        }
        return plan
    }

    /// Per off-screen controller: bitmaps or view (alternatives), cache, model.
    static func groups(_ context: CleanupContext) -> [[Option]] {
        var groups: [[Option]] = []
        for state in context.controllers where !state.isOnScreen {
            var visual: [Option] = []
            let redraw = state.holds(.backingStores) ? context.expectedReloadCost(.backingStores, of: state) : 0
            if state.holds(.backingStores) {
                visual.append(Option(controller: state.id, items: [.backingStores],
                                     bytes: state.releasableBytes(.backingStores), cost: redraw))
            }
            if state.holds(.view) {
                visual.append(Option(controller: state.id, items: [.view], bytes: state.releasableBytes(.view),
                                     cost: context.expectedReloadCost(.view, of: state) &+ redraw))
            }
            if !visual.isEmpty { groups.append(visual) }
            for item in [ReleasableItem.cache, .model] where state.holds(item) {
                groups.append([Option(controller: state.id, items: [item], bytes: state.releasableBytes(item),
                                      cost: context.expectedReloadCost(item, of: state))])
            }
        }
        return groups.map { $0.filter { $0.bytes > 0 } }.filter { !$0.isEmpty }
    }

    /// The options (at most one per group) of least total cost freeing at least `target`
    /// bytes, or nil when even all of them do not.
    static func cheapestCover(_ groups: [[Option]], target: Int) -> [Option]? {
        let steps = 1_024
        let unit = max(1, (target + steps - 1) / steps)
        let goal = (target + unit - 1) / unit
        let unreachable = UInt64.max
        var cost = [UInt64](repeating: unreachable, count: goal + 1)
        cost[0] = 0
        // choice[g][b]: which option of group g reaches b at least cost (-1: none).
        var choice = [[Int16]](repeating: [], count: groups.count)
        for (index, group) in groups.enumerated() {
            var next = cost
            var picks = [Int16](repeating: -1, count: goal + 1)
            for (optionIndex, option) in group.enumerated() {
                let weight = option.bytes / unit
                for reached in 0...goal {
                    let from = max(0, reached - weight)
                    guard cost[from] != unreachable else { continue }
                    let total = cost[from] &+ option.cost
                    if total < next[reached] {
                        next[reached] = total
                        picks[reached] = Int16(optionIndex)
                    }
                }
            }
            cost = next
            choice[index] = picks
        }
        guard cost[goal] != unreachable else { return nil }
        var chosen: [Option] = []
        var reached = goal
        for index in stride(from: groups.count - 1, through: 0, by: -1) {
            let pick = Int(choice[index][reached])
            guard pick >= 0 else { continue }
            let option = groups[index][pick]
            chosen.append(option)
            reached = max(0, reached - option.bytes / unit)
        }
        return chosen
    }
}
