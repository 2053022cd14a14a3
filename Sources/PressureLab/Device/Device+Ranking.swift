/// What termination policies see of each app: a snapshot with its jetsam band and its
/// Android `oom_score_adj`, as the policies rank them (``JetsamPolicy/band(isForeground:isFrozen:state:)``,
/// ``LowMemoryKillerPolicy/oomScoreAdj(isForeground:runningInBackground:cachedRank:)``).
extension Device {
    func snapshot(of installed: InstalledApp) -> AppSnapshot {
        snapshot(of: installed, cachedRank: cachedApps().firstIndex { $0 === installed })
    }

    /// Every installed app's snapshot, in installation order; cached apps are ranked once for
    /// all of them.
    func snapshots() -> [AppSnapshot] {
        let cached = cachedApps()
        return apps.map { installed in snapshot(of: installed, cachedRank: cached.firstIndex { $0 === installed }) }
    }

    private func snapshot(of installed: InstalledApp, cachedRank: Int?) -> AppSnapshot {
        let adj = LowMemoryKillerPolicy.oomScoreAdj(isForeground: installed === foreground,
                                                    runningInBackground: installed.runningBackgroundMode, cachedRank: cachedRank)
        return AppSnapshot(name: installed.name, state: installed.app.state, isForeground: installed === foreground,
                           isFrozen: installed.isFrozen, bytes: installed.bytes, lastUsed: installed.lastUsed,
                           useOrder: installed.useOrder, band: band(of: installed), oomScoreAdj: adj,
                           isCompressed: installed.isCompressed)
    }

    /// Apps with a process that are neither in front nor running in the background, most
    /// recently used first (lmk's cached apps).
    private func cachedApps() -> [InstalledApp] {
        apps.filter { $0 !== foreground && $0.app.state.hasProcess && $0.runningBackgroundMode == nil }
            .sorted { $0.useOrder > $1.useOrder }
    }

    /// The app's jetsam band (see ``JetsamPolicy/band(isForeground:isFrozen:state:)``).
    public func band(of installed: InstalledApp) -> JetsamBand {
        JetsamPolicy.band(isForeground: installed === foreground, isFrozen: installed.isFrozen, state: installed.app.state)
    }

    /// The app's Android `oom_score_adj` (see
    /// ``LowMemoryKillerPolicy/oomScoreAdj(isForeground:runningInBackground:cachedRank:)``): cached
    /// apps are ranked by recency, most recently used first.
    public func oomScoreAdj(of installed: InstalledApp) -> Int {
        snapshot(of: installed).oomScoreAdj
    }
}
