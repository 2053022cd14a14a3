/// The operating-system release whose memory rules the termination policies follow: which
/// XNU or AOSP source the jetsam, freezer, compressor, `oom_score_adj`, trim-level and lmkd
/// rules were read from. (UIKit's unload cycle is separate: a scenario's `os`, ``OSRelease``.)
///
/// | release | read from |
/// |---|---|
/// | iOS 12 | XNU tag `xnu-4903.270.47` (apple-oss-distributions/xnu) |
/// | iOS 18 | XNU tag `xnu-11417.101.15` (apple-oss-distributions/xnu) |
/// | Android 10 | lmkd at `android-10.0.0_r1` (`system/core/lmkd/lmkd.c`); ActivityManager's Android 10 `OomAdjuster`, `ProcessList` |
/// | Android 14 | lmkd at `android-14.0.0_r1` (`system/memory/lmkd/lmkd.cpp`); ActivityManager's Android 14 `OomAdjuster`, `AppProfiler` |
///
/// Every rule that differs between them is listed, with its source, in `docs/fidelity.md`.
public enum SystemRelease: String, CaseIterable, Sendable, Codable, CustomStringConvertible {
    case iOS12 = "ios-12"
    case iOS18 = "ios-18"
    case android10 = "android-10"
    case android14 = "android-14"

    /// Whether the release is Apple's (XNU) rather than Android's.
    public var isApple: Bool { self == .iOS12 || self == .iOS18 }

    /// The release number as a profile's `release:` writes it (`12`, `18`, `10`, `14`).
    public var number: String {
        switch self {
        case .iOS12: return "12"
        case .iOS18: return "18"
        case .android10: return "10"
        case .android14: return "14"
        }
    }

    /// The releases of a platform (`ios: true` for Apple's), oldest first.
    public static func releases(apple: Bool) -> [SystemRelease] {
        allCases.filter { $0.isApple == apple }
    }

    /// The release a profile that names none gets: the oldest modelled one of its platform
    /// (iOS 12, the iPhone XS's; Android 10, what the Pixel 3 ran in Fleet's artifact).
    public static func defaultRelease(apple: Bool) -> SystemRelease { apple ? .iOS12 : .android10 }

    /// The source tag the release's rules were read from.
    public var sourceTag: String {
        switch self {
        case .iOS12: return "xnu-4903.270.47"
        case .iOS18: return "xnu-11417.101.15"
        case .android10: return "android-10.0.0_r1"
        case .android14: return "android-14.0.0_r1"
        }
    }

    public var description: String {
        isApple ? "iOS \(number)" : "Android \(number)"
    }
}
