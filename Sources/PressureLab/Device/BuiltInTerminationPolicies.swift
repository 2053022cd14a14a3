/// No termination: apps are warned, and crossing the budget crashes the foreground app
/// (an out-of-memory crash, its unsaved data lost).
public struct NoTermination: TerminationPolicy {
    public let name = "none"
    public init() {}
    public func nextAction(_ device: DeviceSnapshot) -> ReclaimAction? {
        if !device.runningAppsWarned { return .warnRunningApps }
        return device.usedBytes > device.budgetBytes ? .killForeground : nil
    }
}

/// XNU's jetsam: idle and suspended apps first (lowest band first, least recently used
/// first within a band), one kill at a time; running apps are warned only when kills are
/// not enough; the foreground app is killed last. Frozen apps hold no memory and are spared.
public struct JetsamPolicy: TerminationPolicy {
    public let name = "jetsam"
    public init() {}
    public func nextAction(_ device: DeviceSnapshot) -> ReclaimAction? {
        if let victim = Self.victims(device).first { return .kill(victim.name) }
        if !device.runningAppsWarned { return .warnRunningApps }
        return device.usedBytes > device.budgetBytes ? .killForeground : nil
    }

    /// Kill candidates in jetsam order: lowest band first, least recently used first.
    public static func victims(_ device: DeviceSnapshot) -> [AppSnapshot] {
        device.apps.filter { $0.isKillableInBackground && !$0.isFrozen }
            .sorted { ($0.band, $0.useOrder) < ($1.band, $1.useOrder) }
    }

    /// An app's band (XNU's memorystatus priority, semantics.md §5): the foreground app 100,
    /// a frozen app 75, an app running in the background 30, suspended apps sink to idle (0).
    public static func band(isForeground: Bool, isFrozen: Bool, state: AppState) -> JetsamBand {
        if isForeground { return .foreground }
        if isFrozen { return .freezer }
        switch state {
        case .active, .inactive: return .foreground
        case .background: return .background
        case .suspended, .notRunning: return .idle
        }
    }
}

/// The largest background app first.
public struct LargestFirstPolicy: TerminationPolicy {
    public let name = "largest-first"
    public init() {}
    public func nextAction(_ device: DeviceSnapshot) -> ReclaimAction? {
        let victims = device.apps.filter { $0.isKillableInBackground && !$0.isFrozen }
            .sorted { ($0.bytes, -Int($0.useOrder)) > ($1.bytes, -Int($1.useOrder)) }
        if let victim = victims.first { return .kill(victim.name) }
        if !device.runningAppsWarned { return .warnRunningApps }
        return device.usedBytes > device.budgetBytes ? .killForeground : nil
    }
}

/// Android's lmkd: kills from the highest `oom_score_adj` down (cached apps 900-999, least
/// recently used highest), one per decision; perceptible (200) and better are spared unless
/// the level is critical. Delivers `onTrimMemory` as apps leave the foreground and as
/// pressure rises.
public struct LowMemoryKillerPolicy: TerminationPolicy {
    public let name = "lmk"
    /// `oom_score_adj` values (Android's ProcessList, semantics.md §6).
    public static let foregroundAdj = 0
    /// A foreground service the user notices: playback, location (perceptible).
    public static let perceptibleAdj = 200
    /// A service finishing work.
    public static let serviceAdj = 500
    /// The app the user left last.
    public static let previousAppAdj = 700
    /// Cached apps, from the most recently used up.
    public static let cachedAdjRange = 900...999
    /// No process.
    public static let notRunningAdj = 1000
    /// `oom_score_adj` at or below this is spared unless the level is critical (perceptible).
    public static let sparedAtOrBelow = perceptibleAdj
    public init() {}

    /// An app's `oom_score_adj`: foreground 0; running in the background, perceptible (200)
    /// for audio and location, a service (500) for a task; cached apps by `cachedRank` (0:
    /// the most recently used, the previous app, 700; then 900 and up, at most 999); 1000
    /// without a rank (no process).
    public static func oomScoreAdj(isForeground: Bool, runningInBackground mode: BackgroundMode?, cachedRank: Int?) -> Int {
        if isForeground { return foregroundAdj }
        switch mode {
        case .audio, .location: return perceptibleAdj
        case .task: return serviceAdj
        case nil: break
        }
        guard let rank = cachedRank else { return notRunningAdj }
        return rank == 0 ? previousAppAdj : min(cachedAdjRange.upperBound, cachedAdjRange.lowerBound + rank - 1)
    }

    public func nextAction(_ device: DeviceSnapshot) -> ReclaimAction? {
        let victims = device.apps.filter { $0.isKillableInBackground && !$0.isFrozen }
            .filter { $0.oomScoreAdj > Self.sparedAtOrBelow || device.level == .critical }
            .sorted { ($0.oomScoreAdj, -Int($0.useOrder)) > ($1.oomScoreAdj, -Int($1.useOrder)) }
        if let victim = victims.first { return .kill(victim.name) }
        return device.usedBytes > device.budgetBytes ? .killForeground : nil
    }

    public func trimLevels(whenBackgrounded app: AppSnapshot) -> [TrimLevel] { [.uiHidden, .background] }

    public func trimLevels(forLevel level: PressureLevel, apps: [AppSnapshot]) -> [(app: String, level: TrimLevel)] {
        guard level > .normal else { return [] }
        return apps.filter { $0.state.hasProcess }.map { app in
            if app.isForeground { return (app.name, level == .critical ? .runningCritical : .runningModerate) }
            return (app.name, level == .critical ? .complete : .moderate)
        }
    }
}

/// Freezes suspended apps (least recently used first) instead of killing them, while the
/// freezer's write budget lasts; then falls back to jetsam's kills.
public struct FreezePolicy: TerminationPolicy {
    public let name = "freeze"
    public init() {}
    public func nextAction(_ device: DeviceSnapshot) -> ReclaimAction? {
        let freezable = device.apps.filter { $0.state == .suspended && !$0.isFrozen && !$0.isCompressed && !$0.isForeground }
            .filter { $0.bytes > 0 && $0.bytes <= device.freezeBudgetBytes }
            .sorted { $0.useOrder < $1.useOrder }
        if let candidate = freezable.first { return .freeze(candidate.name) }
        return JetsamPolicy().nextAction(device)
    }
}

/// The built-in termination policies, as a type: what the command line accepts.
public enum TerminationKind: String, CaseIterable, Sendable, Codable {
    case none, jetsam, lmk
    case largestFirst = "largest-first"
    case freeze

    /// A policy of this kind.
    public var policy: any TerminationPolicy {
        switch self {
        case .none: return NoTermination()
        case .jetsam: return JetsamPolicy()
        case .lmk: return LowMemoryKillerPolicy()
        case .largestFirst: return LargestFirstPolicy()
        case .freeze: return FreezePolicy()
        }
    }
}

/// The built-in termination policies by name.
public enum TerminationPolicies {
    public static let builtInNames = TerminationKind.allCases.map(\.rawValue)

    public static func named(_ name: String) -> (any TerminationPolicy)? {
        TerminationKind(rawValue: name)?.policy
    }
}
