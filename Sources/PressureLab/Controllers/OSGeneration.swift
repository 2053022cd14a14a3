/// Which UIKit generation's memory-warning behaviour the default controller follows.
///
/// | generation | off-screen controller, on a warning |
/// |---|---|
/// | ``iPhoneOS2`` | the view is released; no `viewDidUnload`: forgotten outlets leak their subviews |
/// | ``iOS3`` | view released, then `viewDidUnload` (iPhone OS 3.0 to iOS 4) |
/// | ``iOS5`` | as iOS 3, with `viewWillUnload` before the view goes (iOS 5) |
/// | ``iOS6`` | the view stays; backing stores are purged and caches released (iOS 6 and later) |
public enum OSGeneration: String, CaseIterable, Sendable, Codable {
    /// iPhone OS 2.2.
    case iPhoneOS2 = "2.2"
    /// iPhone OS 3.0 to iOS 4.
    case iOS3 = "3"
    /// iOS 5: the unload cycle of iOS 3 with `viewWillUnload` first.
    case iOS5 = "5"
    /// iOS 6 and later: views are never unloaded.
    case iOS6 = "6"

    /// Whether a warning releases off-screen views.
    public var unloadsViews: Bool { self != .iOS6 }
    /// Whether `viewDidUnload` exists.
    public var hasViewDidUnload: Bool { self == .iOS3 || self == .iOS5 }
    /// Whether `viewWillUnload` exists.
    public var hasViewWillUnload: Bool { self == .iOS5 }
}
