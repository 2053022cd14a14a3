/// An operating-system release: one type for everything that changes with the OS.
///
/// - **UIKit's memory-warning behaviour** (the unload cycle, ``unloadCycle``): a scenario's
///   `device: { os: ... }`, a cleanup policy's ``CleanupPolicy/generation``, a runtime's.
/// - **The app life cycle**: whether Home suspends or terminates an app
///   (``hasMultitasking``), how long a background task may run
///   (``backgroundTaskLimitSeconds``), background fetch (iOS 7 and later).
/// - **The kernel's and system's memory rules** (jetsam, the freezer, the compressor,
///   `oom_score_adj`, trim levels, lmkd): a device profile's `release:`; the rules were read
///   from the sources of iOS 12, iOS 18, Android 10 and Android 14 (``sourceTag``), and any
///   other release follows the nearest of them (``memoryRules``).
///
/// | release | unload cycle | Home | background task limit | memory rules |
/// |---|---|---|---|---|
/// | iPhone OS 2.2 | view released, no `viewDidUnload` | terminates the app | none | iOS 12's |
/// | iPhone OS 3, iOS 4 | `viewDidUnload` | iPhone OS 3 terminates, iOS 4 suspends (multitasking) | 600 s (iOS 4) | iOS 12's |
/// | iOS 5 | `viewWillUnload`, `viewDidUnload` | suspends | 600 s | iOS 12's |
/// | iOS 6 | views kept, bitmaps purged | suspends | 600 s | iOS 12's |
/// | iOS 7, iOS 12 | as iOS 6 | suspends | 180 s | iOS 12's (read from `xnu-4903.270.47`) |
/// | iOS 13, iOS 18 | as iOS 6 | suspends | about 30 s | iOS 18's (read from `xnu-11417.101.15`) from iOS 18, else iOS 12's |
/// | Android 10, 14 | as iOS 6 (views are kept) | suspends | none | Android 10's, Android 14's |
///
/// Sources: Apple's iOS App Programming Guide, "App States and Multitasking" (multitasking
/// from iOS 4; before it, Home terminated the app); `backgroundTimeRemaining` counting down
/// from 599 s on iOS 4 to 6 and BackBoard's `permittedBackgroundDuration: 180.000000` from
/// iOS 7 (developer reports, Stack Overflow 3762200 and 22051324); on iOS 13 Apple DTS
/// observed expiry after about 30 s (Apple Developer Forums, thread 391799). The unload
/// cycles: UIKit's `UIViewController` documentation of each release (docs/fidelity.md).
public enum OSRelease: String, CaseIterable, Sendable, Codable, CustomStringConvertible {
    /// iPhone OS 2.2: no `viewDidUnload`; Home terminates.
    case iPhoneOS2 = "2.2"
    /// iPhone OS 3: views unloaded; Home terminates.
    case iPhoneOS3 = "3"
    /// iOS 4: multitasking; views unloaded.
    case iOS4 = "4"
    /// iOS 5: `viewWillUnload` added.
    case iOS5 = "5"
    /// iOS 6: views no longer unloaded; bitmaps purged.
    case iOS6 = "6"
    /// iOS 7: Background App Refresh; 180 s of background time.
    case iOS7 = "7"
    /// iOS 12: XNU `xnu-4903.270.47`'s memory rules.
    case iOS12 = "12"
    /// iOS 13: about 30 s of background time.
    case iOS13 = "13"
    /// iOS 18: XNU `xnu-11417.101.15`'s memory rules.
    case iOS18 = "18"
    /// Android 10: ActivityManager's and lmkd's rules at `android-10.0.0_r1`.
    case android10 = "android-10"
    /// Android 14: their rules at `android-14.0.0_r1`.
    case android14 = "android-14"

    /// Whether the release is Apple's rather than Android's.
    public var isApple: Bool {
        switch memorySystem.kernel {
        case .xnu: return true
        case .android: return false
        }
    }

    /// The iOS major version (2 for iPhone OS 2.2), nil for Android: releases compare by it.
    public var iOSVersion: Int? {
        switch self {
        case .iPhoneOS2: return 2
        case .iPhoneOS3: return 3
        case .iOS4: return 4
        case .iOS5: return 5
        case .iOS6: return 6
        case .iOS7: return 7
        case .iOS12: return 12
        case .iOS13: return 13
        case .iOS18: return 18
        case .android10, .android14: return nil
        }
    }

    /// The iOS releases a scenario's `device: { os: ... }` may name, oldest first.
    public static let appleReleases = allCases.filter(\.isApple)

    public var description: String {
        switch self {
        case .iPhoneOS2: return "iPhone OS 2.2"
        case .iPhoneOS3: return "iPhone OS 3"
        case .android10: return "Android 10"
        case .android14: return "Android 14"
        default: return "iOS \(rawValue)"
        }
    }

    // MARK: - UIKit's unload cycle

    /// The release whose memory-warning behaviour this one has: iPhone OS 2.2's (the view
    /// released, no `viewDidUnload`), iPhone OS 3's (iPhone OS 3 and iOS 4: `viewDidUnload`),
    /// iOS 5's (`viewWillUnload` first) or iOS 6's (views never unloaded; Android keeps its
    /// views too).
    public var unloadCycle: OSRelease {
        switch self {
        case .iPhoneOS2: return .iPhoneOS2
        case .iPhoneOS3, .iOS4: return .iPhoneOS3
        case .iOS5: return .iOS5
        case .iOS6, .iOS7, .iOS12, .iOS13, .iOS18, .android10, .android14: return .iOS6
        }
    }

    /// The four unload cycles, oldest first.
    public static let unloadCycles: [OSRelease] = [.iPhoneOS2, .iPhoneOS3, .iOS5, .iOS6]

    /// Whether a warning releases off-screen views.
    public var unloadsViews: Bool { unloadCycle != .iOS6 }
    /// Whether `viewDidUnload` exists.
    public var hasViewDidUnload: Bool { unloadCycle == .iPhoneOS3 || unloadCycle == .iOS5 }
    /// Whether `viewWillUnload` exists.
    public var hasViewWillUnload: Bool { unloadCycle == .iOS5 }

    /// UIKit's default `didReceiveMemoryWarning` of this release, as the built-in policy
    /// that models it: ``IOS2Policy``, ``IOS3Policy`` (iOS 5's `viewWillUnload` follows
    /// from the runtime's release), ``IOS6Policy``. The default response of a controller
    /// with no policy installed is this policy's plan for it
    /// (``ViewController/performDefaultMemoryWarningResponse()``).
    public var defaultCleanupPolicy: any CleanupPolicy {
        switch unloadCycle {
        case .iPhoneOS2: return IOS2Policy()
        case .iPhoneOS3, .iOS5: return IOS3Policy()
        default: return IOS6Policy()
        }
    }

    // MARK: - The app life cycle

    /// Whether Home suspends apps (iOS 4 and later, and Android) rather than terminating them.
    public var hasMultitasking: Bool {
        switch self {
        case .iPhoneOS2, .iPhoneOS3: return false
        case .iOS4, .iOS5, .iOS6, .iOS7, .iOS12, .iOS13, .iOS18, .android10, .android14: return true
        }
    }

    /// The longest a finite-length background task may run, seconds (0 without multitasking
    /// or without such tasks: Android's are services).
    public var backgroundTaskLimitSeconds: Double {
        switch self {
        case .iPhoneOS2, .iPhoneOS3, .android10, .android14: return 0
        case .iOS4, .iOS5, .iOS6: return 600
        case .iOS7, .iOS12: return 180
        case .iOS13, .iOS18: return 30
        }
    }

    /// The releases a scenario's `device.os` may name on a device of this memory release: those
    /// of its platform (the same ``kernel``), oldest first.
    public var lifeCycleReleases: [OSRelease] { Self.allCases.filter { $0.kernel == kernel } }

    /// The release whose app life cycle a device of this memory release runs, `named` being the
    /// one a scenario names (`device.os`), of the same platform: on Android, `named` or this
    /// release itself (the profile's release decides both its memory system and its life cycle);
    /// on iOS, `named` or iOS 13 (the life cycle scenarios ran before they named a release,
    /// whatever the profile's memory rules). A `named` of another platform is refused where the
    /// scenario is read (``kernel`` differs); here it gives way to the default.
    public func appLifeCycleRelease(named: OSRelease?) -> OSRelease {
        if let named, lifeCycleReleases.contains(named) { return named }
        switch kernel {
        case .xnu: return .iOS13
        case .android: return self
        }
    }

    /// Android's API level (`Build.VERSION.SDK_INT`: 29 for Android 10, 34 for Android 14), nil
    /// for Apple's releases. An app is taken to target its device's level, so API 28 and later
    /// save an activity's state after `onStop` (``AndroidActivityLifeCycle``).
    public var androidAPILevel: Int? {
        switch self {
        case .android10: return 29
        case .android14: return 34
        case .iPhoneOS2, .iPhoneOS3, .iOS4, .iOS5, .iOS6, .iOS7, .iOS12, .iOS13, .iOS18: return nil
        }
    }

    /// A new app life cycle of this release, for one app: UIKit's on Apple's releases, Android's
    /// activities on Android's (docs/app-life-cycle.md). The ``Device`` installs it on every app.
    public func makeAppLifeCycle() -> any AppLifeCycle {
        guard let apiLevel = androidAPILevel else { return UIKitLifeCycle() }
        // ActivityThread.callActivityOnStop: after onStop unless the app targets below P (28).
        return AndroidActivityLifeCycle(savesStateAfterStop: apiLevel >= 28)
    }

    /// Whether Background App Refresh exists (iOS 7 and later).
    public var hasBackgroundFetch: Bool { (iOSVersion ?? 0) >= 7 }

    // MARK: - Memory rules

    /// The release whose memory rules this one follows: the read release itself, else the
    /// nearest read one (iOS before 18: iOS 12's; iOS 18; Android 10 and 14).
    public var memoryRules: OSRelease { memorySystem.rulesRelease }

    /// The kernel family the release runs (its ``memorySystem``'s).
    public var kernel: Kernel { memorySystem.kernel }

    /// The releases whose memory rules were read, of a platform (`apple: true` for Apple's),
    /// oldest first: what a device profile's `release:` may name.
    public static func memoryRuleReleases(apple: Bool) -> [OSRelease] { memoryRuleReleases(of: apple ? .xnu : .android) }

    /// The releases whose memory rules were read, of a kernel family, oldest first.
    public static func memoryRuleReleases(of kernel: Kernel) -> [OSRelease] {
        switch kernel {
        case .xnu: return XNURelease.allCases.map(\.osRelease)
        case .android: return AndroidRelease.allCases.map(\.osRelease)
        }
    }

    /// The release a profile that names none gets: the oldest read one of its platform (iOS
    /// 12, the iPhone XS's; Android 10, what the Pixel 3 ran in Fleet's artifact).
    public static func defaultRelease(apple: Bool) -> OSRelease { defaultRelease(of: apple ? .xnu : .android) }

    /// The release a profile of `kernel`'s platform that names none gets (``defaultRelease(apple:)``).
    public static func defaultRelease(of kernel: Kernel) -> OSRelease {
        switch kernel {
        case .xnu: return .iOS12
        case .android: return .android10
        }
    }

    /// The release number as a profile's `release:` writes it (`12`, `18`, `10`, `14`).
    public var number: String {
        switch self {
        case .android10: return "10"
        case .android14: return "14"
        case .iPhoneOS2, .iPhoneOS3, .iOS4, .iOS5, .iOS6, .iOS7, .iOS12, .iOS13, .iOS18: return rawValue
        }
    }

    /// The source tag the memory rules were read from (the rules this release follows).
    public var sourceTag: String { memorySystem.sourceTag }
}
