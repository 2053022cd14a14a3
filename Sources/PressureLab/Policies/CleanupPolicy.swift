/// What a controller can give back under pressure.
public enum ReleasableItem: String, CaseIterable, Sendable, Codable, Comparable {
    /// The purgeable cache (refilled on the next appearance).
    case cache
    /// The bitmaps of an off-screen view (redrawn when shown).
    case backingStores
    /// An off-screen view, with its tree and bitmaps (reloaded from its description).
    case view
    /// The model (read back from disk when the view next appears).
    case model

    public static func < (lhs: ReleasableItem, rhs: ReleasableItem) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The reload path that gets this item back.
    public var reloadKind: ReloadKind {
        switch self {
        case .cache: return .cacheRefill
        case .backingStores: return .backingStoreRedraw
        case .view: return .viewReload
        case .model: return .modelReload
        }
    }
}

/// How a policy's view releases run.
public enum ViewUnloadStyle: String, Sendable, Codable {
    /// iPhone OS 2.2: the view goes with no callback; outlets stay unless the controller
    /// releases them when its view is cleared (`releasesOutlets`).
    case iPhoneOS2
    /// iPhone OS 3 to iOS 5: `viewWillUnload` (iOS 5 runtimes), the view goes, `viewDidUnload`.
    case unloadCycle
    /// iOS 6 and later, by hand: `view = nil`, outlets released when `releasesOutlets`.
    case setViewNil
}

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

/// The releases a policy decided on.
public struct CleanupPlan: Sendable, Equatable {
    /// What each controller releases.
    public var releases: [ControllerID: Set<ReleasableItem>]
    /// How view releases run.
    public var viewUnloadStyle: ViewUnloadStyle

    public init(releases: [ControllerID: Set<ReleasableItem>] = [:], viewUnloadStyle: ViewUnloadStyle = .setViewNil) {
        self.releases = releases
        self.viewUnloadStyle = viewUnloadStyle
    }

    /// Adds a release.
    public mutating func release(_ item: ReleasableItem, of controller: ControllerID) {
        releases[controller, default: []].insert(item)
    }
}

/// Decides what an app's controllers release under pressure.
///
/// Requirements:
/// - ``plan(for:)`` is a pure decision: it reads the context and returns a plan; the
///   runtime carries the plan out while it delivers the warning (each controller's
///   `didReceiveMemoryWarning` releases its part) or the trim level.
/// - A plan must not release the view or the bitmaps of a controller that is on screen
///   (``ControllerState/isOnScreen``); the runtime refuses such releases and counts them
///   in ``CleanupCounters/refusedOnScreen``.
/// - Given the same context (and the same measured costs), a policy decides the same plan.
///
/// Write your own in Swift:
///
/// ```swift
/// struct DropModelsFirst: CleanupPolicy {
///     let name = "drop-models-first"
///     func plan(for context: CleanupContext) -> CleanupPlan {
///         var plan = CleanupPlan()
///         for state in context.controllers where state.holds(.model) {
///             plan.release(.model, of: state.id)
///         }
///         return plan
///     }
/// }
/// runtime.cleanupPolicy = DropModelsFirst()
/// ```
public protocol CleanupPolicy {
    /// The policy's name in reports (`[a-z0-9-]+`).
    var name: String { get }
    /// The UIKit generation whose memory-warning behaviour the policy models, when it models
    /// one (iPhone OS 2.2's or iOS 3's unload cycle); nil: today's (iOS 6 and later).
    var generation: OSRelease? { get }
    /// Decides what to release.
    func plan(for context: CleanupContext) -> CleanupPlan
}

extension CleanupPolicy {
    /// Most policies model no generation of their own.
    public var generation: OSRelease? { nil }
}

/// What cleanups released, counted.
public struct CleanupCounters: Sendable, Equatable, Codable {
    public var warnings = 0
    public var viewUnloads = 0
    public var backingStorePurges = 0
    public var cachePurges = 0
    public var modelReleases = 0
    /// Releases of on-screen views or bitmaps that a plan asked for and the runtime refused.
    public var refusedOnScreen = 0
}
