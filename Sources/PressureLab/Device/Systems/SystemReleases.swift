/// The XNU releases whose memorystatus rules were read (docs/fidelity.md, "Sources").
///
/// A release difference inside XNU is a `switch` over this type: a new case makes the compiler
/// list every rule that must say what it does there.
public enum XNURelease: String, CaseIterable, Sendable, Codable {
    /// iOS 12, read from `xnu-4903.270.47` (iOS before 18 follows it).
    case iOS12
    /// iOS 18, read from `xnu-11417.101.15`.
    case iOS18

    /// The OS release whose rules these are.
    public var osRelease: OSRelease {
        switch self {
        case .iOS12: return .iOS12
        case .iOS18: return .iOS18
        }
    }

    /// The source tag the rules were read from.
    public var sourceTag: String {
        switch self {
        case .iOS12: return "xnu-4903.270.47"
        case .iOS18: return "xnu-11417.101.15"
        }
    }
}

/// The Android releases whose ActivityManager, lmkd and kernel rules were read
/// (docs/fidelity.md, "Sources").
///
/// A release difference inside Android is a `switch` over this type, as for ``XNURelease``.
public enum AndroidRelease: String, CaseIterable, Sendable, Codable {
    /// Android 10, read from `android-10.0.0_r1` (the Pixel 3's release in Fleet's artifact).
    case android10
    /// Android 14, read from `android-14.0.0_r1`.
    case android14

    /// The OS release whose rules these are.
    public var osRelease: OSRelease {
        switch self {
        case .android10: return .android10
        case .android14: return .android14
        }
    }

    /// The source tag the rules were read from.
    public var sourceTag: String {
        switch self {
        case .android10: return "android-10.0.0_r1"
        case .android14: return "android-14.0.0_r1"
        }
    }
}
