/// What termination policies see of each app: a snapshot with its jetsam band and its
/// Android `oom_score_adj`.
extension Device {
    func snapshot(of installed: InstalledApp) -> AppSnapshot {
        AppSnapshot(name: installed.name, state: installed.app.state, isForeground: installed === foreground,
                    isFrozen: installed.isFrozen, bytes: installed.bytes, lastUsed: installed.lastUsed,
                    useOrder: installed.useOrder, band: band(of: installed), oomScoreAdj: oomScoreAdj(of: installed),
                    isCompressed: installed.isCompressed)
    }

    /// The app's jetsam band: foreground 100, running in the background 30, frozen 75,
    /// suspended apps sink to idle (0).
    public func band(of installed: InstalledApp) -> JetsamBand {
        if installed === foreground { return .foreground }
        if installed.isFrozen { return .freezer }
        switch installed.app.state {
        case .active, .inactive: return .foreground
        case .background: return .background
        case .suspended, .notRunning: return .idle
        }
    }

    /// The app's Android `oom_score_adj`: foreground 0, an app playing audio or tracking
    /// location in the background 200 (a perceptible foreground service), one finishing a
    /// task 500 (a service), the previous app 700, cached apps 900 and up by age (least
    /// recently used highest, at most 999).
    public func oomScoreAdj(of installed: InstalledApp) -> Int {
        if installed === foreground { return 0 }
        if let mode = installed.runningBackgroundMode { return mode.oomScoreAdj }
        let background = apps.filter { $0 !== foreground && $0.app.state.hasProcess && $0.runningBackgroundMode == nil }
            .sorted { $0.useOrder > $1.useOrder }
        guard let rank = background.firstIndex(where: { $0 === installed }) else { return 1000 }
        return rank == 0 ? 700 : min(999, 900 + rank - 1)
    }
}
