/// What keeps an app running in Background after it leaves the foreground (UIKit's
/// background modes and finite-length tasks). Without one, an app is suspended as soon as
/// `didEnterBackground` returns.
public enum BackgroundMode: Sendable, Equatable {
    /// Audio playback (`UIBackgroundModes: audio`): runs while it plays; nil: until the app
    /// comes back or dies.
    case audio(seconds: Double?)
    /// Location updates (`UIBackgroundModes: location`), as long as they last (nil: no end).
    case location(seconds: Double?)
    /// A finite-length task (`beginBackgroundTask`): runs for its duration, at most the OS
    /// release's limit (``OSRelease/backgroundTaskLimitSeconds``), then is suspended.
    case task(seconds: Double)

    /// How long the app may run in Background on `release`, seconds (infinity: no end).
    public func runningSeconds(on release: OSRelease) -> Double {
        switch self {
        case .audio(let seconds), .location(let seconds): return seconds ?? .infinity
        case .task(let seconds): return min(seconds, release.backgroundTaskLimitSeconds)
        }
    }

    /// The mode as scenarios write it: `audio`, `location`, `task:30s`.
    public var label: String {
        func duration(_ seconds: Double) -> String {
            seconds == seconds.rounded() ? "\(Int(seconds))s" : "\(seconds)s"
        }
        switch self {
        case .audio(let seconds): return seconds.map { "audio:\(duration($0))" } ?? "audio"
        case .location(let seconds): return seconds.map { "location:\(duration($0))" } ?? "location"
        case .task(let seconds): return "task:\(duration(seconds))"
        }
    }
}
