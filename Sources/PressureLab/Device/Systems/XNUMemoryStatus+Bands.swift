/// Jetsam's bands as XNU keeps them: a list per band, a process appended at its tail whenever
/// its priority is updated; jetsam and the freezer take from the head
/// (`memstat_update_priority_locked`, `memorystatus_kill_top_process`).
extension XNUMemoryStatus {
    /// Recomputes every app's band (with aging), stamping the order of each change from
    /// `order`. Apps whose band changes together keep their relative order.
    static func updateBands(of apps: [Device.InstalledApp], foreground: Device.InstalledApp?, now: Double,
                            rules: JetsamRules, order: inout UInt64) {
        var moved: [(Device.InstalledApp, JetsamBand)] = []
        for installed in apps {
            let state = installed.app.state
            let isFront = installed === foreground
            if !state.hasProcess {
                installed.agingUntil = nil
            } else if installed.band > .idle, !isFront, !installed.hasBeenFrozen, state == .suspended,
                      installed.agingUntil == nil, installed.band != rules.appAging?.band, let aging = rules.appAging {
                // An idle request from a higher band ages first (memstat_update_priority_locked).
                installed.agingUntil = now + aging.seconds
            }
            if isFront || state.isRunning { installed.agingUntil = nil }
            let aging = installed.agingUntil.map { now < $0 } ?? false
            let band = state.hasProcess
                ? rules.band(isForeground: isFront, state: state, frozen: installed.hasBeenFrozen, aging: aging) : .idle
            if band != installed.band || !state.hasProcess && installed.bandOrder != 0 { moved.append((installed, band)) }
        }
        for (installed, band) in moved.sorted(by: { $0.0.bandOrder < $1.0.bandOrder }) {
            installed.band = band
            if installed.app.state.hasProcess {
                order += 1
                installed.bandOrder = order
            } else {
                installed.bandOrder = 0
            }
        }
    }
}
