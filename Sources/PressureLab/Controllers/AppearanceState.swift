/// What a controller has built at least once.
struct ReloadHistory: OptionSet {
    let rawValue: UInt8
    static let view = ReloadHistory(rawValue: 1)
    static let backingStores = ReloadHistory(rawValue: 2)
    static let cache = ReloadHistory(rawValue: 4)
    static let model = ReloadHistory(rawValue: 8)
}

/// Where a controller is in its appearance cycle.
public enum AppearanceState: String, Sendable {
    /// Not on screen.
    case disappeared
    /// Between `viewWillAppear` and `viewDidAppear`.
    case appearing
    /// On screen.
    case appeared
    /// Between `viewWillDisappear` and `viewDidDisappear`.
    case disappearing

    /// Whether the view is in the window (appearing, shown, or leaving).
    public var isOnScreen: Bool { self != .disappeared }
}

