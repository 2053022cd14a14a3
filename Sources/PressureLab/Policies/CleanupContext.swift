/// One controller as a policy sees it: where it is, what it holds (measured), what it
/// would cost to get each item back (measured in this run).
public struct ControllerState {
    /// The controller (read its properties; let the plan do the releasing).
    public let controller: ViewController
    /// Its view is on screen: policies must not release its view or bitmaps.
    public let isOnScreen: Bool
    /// When it last appeared (higher is more recent; 0: never).
    public let lastAppearance: UInt64
    /// Measured bytes per category.
    public let bytes: [MemoryCategory: Int]

    /// The controller's identity.
    public var id: ControllerID { controller.id }

    /// Whether the item is held now (releasing it would free something).
    public func holds(_ item: ReleasableItem) -> Bool {
        switch item {
        case .cache: return controller.cache != nil
        case .backingStores: return controller.hasBackingStores
        case .view: return controller.isViewLoaded
        case .model: return controller.model != nil
        }
    }

    /// The measured bytes releasing `item` would free (a view includes its bitmaps).
    public func releasableBytes(_ item: ReleasableItem) -> Int {
        guard holds(item) else { return 0 }
        switch item {
        case .cache: return max(0, bytes[.cache] ?? 0)
        case .backingStores: return max(0, bytes[.backingStore] ?? 0)
        case .view: return max(0, (bytes[.viewTree] ?? 0) + (bytes[.backingStore] ?? 0))
        case .model: return max(0, bytes[.model] ?? 0)
        }
    }
}

/// What a policy is asked: why, how much, and about which controllers.
public struct CleanupContext {
    /// A warning at a level, or an Android trim level.
    public let trigger: CleanupTrigger
    /// Every controller of the app.
    public let controllers: [ControllerState]
    /// The bytes the system would like back (to clear the pressure level), if known.
    public let targetBytes: Int?
    /// Measured reload latencies so far.
    public let statistics: ReloadStatistics

    /// The expected nanoseconds to get `item` of `state` back: measured in this run for
    /// that screen, else for any screen, else an estimate of 1 ns per 4 bytes (a memory
    /// bandwidth of about 4 GB/s).
    public func expectedReloadCost(_ item: ReleasableItem, of state: ControllerState) -> UInt64 {
        if let measured = statistics.expectedCost(item.reloadKind, screen: state.controller.screen.name), measured > 0 {
            return measured
        }
        return UInt64(max(1, state.releasableBytes(item) / 4))
    }
}
