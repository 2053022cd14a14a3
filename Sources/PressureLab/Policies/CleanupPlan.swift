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

/// The releases a policy decided on.
public struct CleanupPlan: Sendable, Equatable {
    /// What each controller releases.
    public var releases: [ControllerID: Set<ReleasableItem>]
    /// How view releases run.
    public var viewUnloadStyle: ViewUnloadStyle

    /// A plan of `releases`, views released as `viewUnloadStyle` says.
    public init(releases: [ControllerID: Set<ReleasableItem>] = [:], viewUnloadStyle: ViewUnloadStyle = .setViewNil) {
        self.releases = releases
        self.viewUnloadStyle = viewUnloadStyle
    }

    /// Adds a release.
    public mutating func release(_ item: ReleasableItem, of controller: ControllerID) {
        releases[controller, default: []].insert(item)
    }
}
