/// An iOS release, for what changed with it: the unload cycle (``OSGeneration``), whether
/// leaving the foreground suspends or terminates an app, and how long a finite-length
/// background task may run.
///
/// | release | Home | background task limit |
/// |---|---|---|
/// | iPhone OS 2.2, 3.x | terminates the app (`applicationWillTerminate`, exit) | none |
/// | iOS 4 to 6 | suspends it (multitasking) | 600 s |
/// | iOS 7 to 12 | suspends it | 180 s |
/// | iOS 13 and later | suspends it | about 30 s |
///
/// Sources: Apple's iOS App Programming Guide, "App States and Multitasking" (multitasking
/// from iOS 4; before it, Home terminated the app); `backgroundTimeRemaining` counting down
/// from 599 s on iOS 4 to 6 and BackBoard's `permittedBackgroundDuration: 180.000000` from
/// iOS 7 (developer reports, Stack Overflow 3762200 and 22051324); on iOS 13 Apple DTS
/// observed expiry after about 30 s (Apple Developer Forums, thread 391799).
public enum OSRelease: String, CaseIterable, Sendable, Codable {
    case iPhoneOS2 = "2.2"
    case iPhoneOS3 = "3"
    case iOS4 = "4"
    case iOS5 = "5"
    case iOS6 = "6"
    case iOS7 = "7"
    case iOS13 = "13"

    /// The default controller's memory-warning behaviour on this release.
    public var generation: OSGeneration {
        switch self {
        case .iPhoneOS2: return .iPhoneOS2
        case .iPhoneOS3, .iOS4: return .iOS3
        case .iOS5: return .iOS5
        case .iOS6, .iOS7, .iOS13: return .iOS6
        }
    }

    /// Whether Home suspends apps (iOS 4 and later) rather than terminating them.
    public var hasMultitasking: Bool { self != .iPhoneOS2 && self != .iPhoneOS3 }

    /// The longest a finite-length background task may run, seconds (0 without multitasking).
    public var backgroundTaskLimitSeconds: Double {
        switch self {
        case .iPhoneOS2, .iPhoneOS3: return 0
        case .iOS4, .iOS5, .iOS6: return 600
        case .iOS7: return 180
        case .iOS13: return 30
        }
    }
}
