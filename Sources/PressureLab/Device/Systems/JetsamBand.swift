/// XNU's jetsam priority bands (higher survives longer).
public enum JetsamBand: Int, Comparable, Sendable, Codable {
    /// `JETSAM_PRIORITY_IDLE`: suspended apps.
    case idle = 0
    /// `JETSAM_PRIORITY_AGING_BAND1`.
    case aging1 = 10
    /// `JETSAM_PRIORITY_AGING_BAND2` (iOS 18: apps age here first).
    case aging2 = 20
    /// `JETSAM_PRIORITY_BACKGROUND`: apps running in the background.
    case background = 30
    /// `JETSAM_PRIORITY_FREEZER`: frozen apps.
    case freezer = 75
    /// `JETSAM_PRIORITY_UI_SUPPORT`.
    case uiSupport = 80
    /// `JETSAM_PRIORITY_FOREGROUND`: the app in front.
    case foreground = 100
    /// `JETSAM_PRIORITY_HOME`.
    case home = 160
    /// `JETSAM_PRIORITY_IMPORTANT`.
    case important = 180
    /// `JETSAM_PRIORITY_CRITICAL`.
    case critical = 190

    public static func < (lhs: JetsamBand, rhs: JetsamBand) -> Bool { lhs.rawValue < rhs.rawValue }
}
