/// Keeps everything: the baseline that frees nothing.
public struct KeepAllPolicy: CleanupPolicy {
    public let name = "keep-all"
    /// The policy.
    public init() {}
    public func plan(for context: CleanupContext) -> CleanupPlan { CleanupPlan() }
}

/// iPhone OS 2.2: off-screen views go with no `viewDidUnload` (forgotten outlets leak);
/// caches of off-screen controllers go.
public struct IOS2Policy: CleanupPolicy {
    public let name = "ios2"
    public var generation: OSRelease? { .iPhoneOS2 }
    /// The policy.
    public init() {}
    public func plan(for context: CleanupContext) -> CleanupPlan {
        OffScreenReleases.plan(context, items: [.view, .cache], style: .iPhoneOS2)
    }
}

/// iPhone OS 3 to iOS 5: off-screen views are unloaded (`viewDidUnload`); caches go.
public struct IOS3Policy: CleanupPolicy {
    public let name = "ios3"
    public var generation: OSRelease? { .iPhoneOS3 }
    /// The policy.
    public init() {}
    public func plan(for context: CleanupContext) -> CleanupPlan {
        OffScreenReleases.plan(context, items: [.view, .cache], style: .unloadCycle)
    }
}

/// iOS 6 and later: views stay; off-screen bitmaps and caches go.
public struct IOS6Policy: CleanupPolicy {
    public let name = "ios6"
    /// The policy.
    public init() {}
    public func plan(for context: CleanupContext) -> CleanupPlan {
        OffScreenReleases.plan(context, items: [.backingStores, .cache], style: .setViewNil)
    }
}

/// Everything an off-screen controller can give back: view, bitmaps, cache and model.
public struct AggressivePolicy: CleanupPolicy {
    public let name = "aggressive"
    /// The policy.
    public init() {}
    public func plan(for context: CleanupContext) -> CleanupPlan {
        OffScreenReleases.plan(context, items: [.view, .cache, .model], style: .setViewNil)
    }
}

/// Keeps the views of the `k` most recently shown off-screen controllers; the others
/// release their views and caches (Chromium discards tabs least recently selected first).
public struct LRUPolicy: CleanupPolicy {
    /// How many recently shown off-screen controllers keep everything.
    public let keep: Int
    public var name: String { "lru" }
    /// The policy, keeping the `keep` most recently shown.
    public init(keep: Int = 2) { self.keep = max(0, keep) }
    public func plan(for context: CleanupContext) -> CleanupPlan {
        var plan = CleanupPlan(viewUnloadStyle: .setViewNil)
        let offScreen = context.controllers.filter { !$0.isOnScreen && $0.holds(.view) }
            .sorted { ($0.lastAppearance, $0.id) > ($1.lastAppearance, $1.id) }
        for state in offScreen.dropFirst(keep) {
            plan.release(.view, of: state.id)
            if state.holds(.cache) { plan.release(.cache, of: state.id) }
        }
        return plan
    }
}

/// Shared rule of the generation policies: every off-screen controller releases `items`
/// it holds.
enum OffScreenReleases {
    static func plan(_ context: CleanupContext, items: [ReleasableItem], style: ViewUnloadStyle) -> CleanupPlan {
        var plan = CleanupPlan(viewUnloadStyle: style)
        for state in context.controllers where !state.isOnScreen {
            for item in items where state.holds(item) { plan.release(item, of: state.id) }
        }
        return plan
    }
}
