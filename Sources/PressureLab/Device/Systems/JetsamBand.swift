/// XNU's jetsam priority bands (higher survives longer).
public enum JetsamBand: Int, Comparable, Sendable, Codable {
    case idle = 0
    case aging1 = 10
    case aging2 = 20
    case background = 30
    case freezer = 75
    case uiSupport = 80
    case foreground = 100
    case home = 160
    case important = 180
    case critical = 190

    public static func < (lhs: JetsamBand, rhs: JetsamBand) -> Bool { lhs.rawValue < rhs.rawValue }
}
