/// Which `onTrimMemory` level ActivityManager sends to whom, for one Android release.
///
/// - Android 10 (`ActivityManagerService.updateLowMemStateLocked`): with the memory factor
///   normal, an app whose interface was hidden gets `TRIM_MEMORY_UI_HIDDEN` and every
///   stored level is reset. Under pressure, processes at `PROCESS_STATE_HOME` or below in
///   importance (the previous and cached apps) get COMPLETE, then MODERATE, then BACKGROUND,
///   stepping every `factor` = max(count / 3, 2 + 1 for the home process + 1 for a previous
///   one) processes, walking the LRU list from its most recent end; the others (in front,
///   running in the background) get the running level of the factor (MODERATE, LOW,
///   CRITICAL), a background one `UI_HIDDEN` first. A level is sent only when it is above
///   the app's stored level (`trimMemoryLevel`), which is overwritten either way.
/// - Android 14 (`AppProfiler.updateLowMemStateLSP` with `use_modern_trim`, default true):
///   only `TRIM_MEMORY_UI_HIDDEN`, to an app whose interface was hidden while it is not yet
///   cached, and `TRIM_MEMORY_BACKGROUND` when an app becomes cached (sent as
///   `CachedAppOptimizer` schedules its freeze, at `oom_score_adj` 900 and up).
///
/// The memory factor comes from ActivityManager's `LowMemDetector` (PSI) where the kernel
/// has PSI, as on the Pixel 3: PressureLab's level stands for it, normal for
/// `ADJ_MEM_FACTOR_NORMAL`, warning for MODERATE, critical for CRITICAL (the detector's own
/// mapping was not read: an estimate, docs/fidelity.md).
public struct TrimMemoryRules: Sendable, Equatable {
    public let release: OSRelease

    public init(release: OSRelease) {
        self.release = release.isApple ? .android10 : release
    }

    /// The trims due now, most recently used app first.
    public func notifications(_ device: DeviceSnapshot) -> [AppNotification] {
        let apps = device.apps.filter { $0.state.hasProcess && !$0.isFrozen }.sorted { $0.useOrder > $1.useOrder }
        return release == .android14 ? modern(apps) : android10(apps, level: device.level)
    }

    /// Whether ActivityManager counts the app at `PROCESS_STATE_HOME` or below in importance
    /// (the previous app, `PROCESS_STATE_LAST_ACTIVITY`, and cached apps).
    static func isTrimmedAsCached(_ app: AppSnapshot) -> Bool {
        !app.isForeground && app.runningBackgroundMode == nil
    }

    private func android10(_ apps: [AppSnapshot], level: PressureLevel) -> [AppNotification] {
        var out: [AppNotification] = []
        guard level > .normal else {
            for app in apps {
                if app.isUIHiddenPending, !app.isForeground, app.trimLevel < TrimLevel.uiHidden.rawValue {
                    out.append(.trimMemory(app.name, .uiHidden))
                }
                if app.trimLevel != 0 || app.isUIHiddenPending { out.append(.storeTrimLevel(app.name, 0)) }
            }
            return out
        }
        let trimming = apps.filter(Self.isTrimmedAsCached)
        let hasPrevious = trimming.contains { $0.isPrevious }
        let factor = max(trimming.count / 3, 2 + 1 + (hasPrevious ? 1 : 0))
        let running: TrimLevel = level == .critical ? .runningCritical : .runningModerate
        var current = TrimLevel.complete
        var step = 0
        for app in apps {
            if Self.isTrimmedAsCached(app) {
                out.append(app.trimLevel < current.rawValue ? .trimMemory(app.name, current) : .storeTrimLevel(app.name, current.rawValue))
                step += 1
                if step >= factor {
                    step = 0
                    if current == .complete { current = .moderate } else if current == .moderate { current = .background }
                }
            } else {
                var stored = app.trimLevel
                if !app.isForeground, app.isUIHiddenPending, stored < TrimLevel.uiHidden.rawValue {
                    out.append(.trimMemory(app.name, .uiHidden))
                    stored = TrimLevel.uiHidden.rawValue
                }
                if stored < running.rawValue { out.append(.trimMemory(app.name, running)) }
            }
        }
        return out
    }

    private func modern(_ apps: [AppSnapshot]) -> [AppNotification] {
        var out: [AppNotification] = []
        for app in apps where !app.isForeground {
            let cached = app.oomScoreAdj >= LowMemoryKillerRules.cachedAdjRange.lowerBound
            if cached {
                if app.trimLevel < TrimLevel.background.rawValue { out.append(.trimMemory(app.name, .background)) }
            } else if app.isUIHiddenPending, app.trimLevel < TrimLevel.uiHidden.rawValue {
                out.append(.trimMemory(app.name, .uiHidden))
            }
        }
        return out
    }
}
