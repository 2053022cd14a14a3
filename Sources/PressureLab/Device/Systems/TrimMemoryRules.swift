/// Which `onTrimMemory` level ActivityManager sends to whom, for one Android release.
///
/// - Android 10 (`ActivityManagerService.updateLowMemStateLocked`, after
///   `OomAdjuster.updateOomAdjLocked`'s apply loop): the memory factor follows memory, but a
///   worse factor than last time is taken only when a process died by something other than
///   ActivityManager since (`mAllowLowerMemLevel`) and the process count fell
///   (`mLastNumProcesses`); otherwise the last one stays. With the factor normal, an app whose
///   interface was hidden gets `TRIM_MEMORY_UI_HIDDEN` and every stored level is reset. Under
///   pressure, walking the LRU list from its most recent end, processes at `PROCESS_STATE_HOME`
///   or below in importance (the launcher, the previous app, cached apps; empty processes are
///   not modelled) get COMPLETE, then MODERATE, then BACKGROUND, stepping every `factor` =
///   max(`numTrimming` / 3, 2 + 1 for the home process + 1 for a previous one) processes; the
///   launcher takes its step (it is a process, not an app here) and cached apps beyond
///   ActivityManager's limit are killed before the walk, neither counted nor trimmed. A level
///   is sent only when it is above the app's stored level (`trimMemoryLevel`), which is
///   overwritten either way. The more important apps get the running level of the factor
///   (MODERATE, LOW, CRITICAL) when their stored level is lower, and store it whatever it was;
///   one at `PROCESS_STATE_IMPORTANT_BACKGROUND` or below in importance (a background task,
///   not a foreground service such as playback or navigation) gets `UI_HIDDEN` first when due.
/// - Android 14 (`AppProfiler.updateLowMemStateLSP` with `use_modern_trim`, default true):
///   only `TRIM_MEMORY_UI_HIDDEN`, to an app whose interface was hidden while its process state
///   is from `PROCESS_STATE_IMPORTANT_BACKGROUND` up to, not including,
///   `PROCESS_STATE_CACHED_ACTIVITY` (not yet cached, and not a foreground service: playback
///   and navigation get none while the service runs, and keep the pending UI clean), and
///   `TRIM_MEMORY_BACKGROUND` when an app becomes cached (sent as `CachedAppOptimizer`
///   schedules its freeze, at `oom_score_adj` 900 and up).
///
/// The memory factor comes from ActivityManager's `LowMemDetector` (PSI) where the kernel
/// has PSI, as on the Pixel 3: PressureLab's level stands for it, normal for
/// `ADJ_MEM_FACTOR_NORMAL`, warning for MODERATE, critical for CRITICAL (the detector's own
/// mapping was not read: an estimate, docs/fidelity.md).
public struct TrimMemoryRules: Sendable, Equatable {
    /// The Android release whose rules these are.
    public let release: AndroidRelease

    /// The rules of an Android release.
    public init(_ release: AndroidRelease) { self.release = release }

    /// The running level ActivityManager gives the apps above `PROCESS_STATE_HOME` for the memory
    /// factor `level` stands for (warning: `TRIM_MEMORY_RUNNING_MODERATE`, critical:
    /// `TRIM_MEMORY_RUNNING_CRITICAL`; the factor's mapping above): what a memory warning is
    /// called on Android (``AndroidActivityLifeCycle``).
    ///
    /// - Parameter level: the pressure level.
    public static func runningLevel(for level: PressureLevel) -> TrimLevel {
        level == .critical ? .runningCritical : .runningModerate
    }

    /// The trims due now, most recently used app first.
    public func notifications(_ device: DeviceSnapshot) -> [AppNotification] {
        let apps = device.apps.filter { $0.state.hasProcess && !$0.isFrozen }.sorted { $0.useOrder > $1.useOrder }
        switch release {
        case .android10: return android10(apps, device: device)
        case .android14: return modern(apps)
        }
    }

    /// Whether ActivityManager counts the app at `PROCESS_STATE_HOME` or below in importance
    /// (the previous app, `PROCESS_STATE_LAST_ACTIVITY`, and cached apps).
    static func isTrimmedAsCached(_ app: AppSnapshot) -> Bool {
        !app.isForeground && app.runningBackgroundMode == nil
    }

    /// The apps ActivityManager's cached limit kills at this update (those past
    /// ``LowMemoryKillerRules/cachedProcessLimit`` in its walk of cached apps and their cached
    /// activity clients, ``LowMemoryKillerRules/cachedWalk(_:processes:)``): killed before the
    /// trim walk.
    static func killedByCachedLimit(_ apps: [AppSnapshot], processes: [ProcessSnapshot] = []) -> Set<String> {
        let walk = LowMemoryKillerRules.cachedWalk(apps, processes: processes)
        guard walk.count > LowMemoryKillerRules.cachedProcessLimit else { return [] }
        return Set(walk.dropFirst(LowMemoryKillerRules.cachedProcessLimit).filter(\.isApp).map(\.name))
    }

    private func android10(_ apps: [AppSnapshot], device: DeviceSnapshot) -> [AppNotification] {
        var out: [AppNotification] = []
        let dying = Self.killedByCachedLimit(apps, processes: device.processes)
        let living = apps.filter { !dying.contains($0.name) }
        // The factor, and the count it is decided at (the launcher is a process too).
        let processCount = device.apps.filter(\.state.hasProcess).count - dying.count + 1
        var factor = device.level
        if factor > device.trimMemFactor, !device.allowLowerMemLevel || processCount >= device.trimProcessCount {
            factor = device.trimMemFactor
        }
        out.append(.storeMemoryFactor(factor, processCount: processCount))
        guard factor > .normal else {
            for app in living {
                if app.isUIHiddenPending, !app.isForeground, Self.getsUIHidden(app), app.trimLevel < TrimLevel.uiHidden.rawValue {
                    out.append(.trimMemory(app.name, .uiHidden))
                }
                if app.trimLevel != 0 || app.isUIHiddenPending { out.append(.storeTrimLevel(app.name, 0)) }
            }
            return out
        }
        // The LRU walk, most recent first, the launcher at its place.
        enum Entry { case app(AppSnapshot), launcher }
        var walk: [Entry] = living.map(Entry.app)
        // Never brought to the front in this run: the oldest process.
        let launcher = device.launcherUseOrder ?? 0
        walk.insert(.launcher, at: living.firstIndex { $0.useOrder < launcher } ?? living.count)
        let trimming = living.filter(Self.isTrimmedAsCached)
        let hasPrevious = trimming.contains { $0.isPrevious }
        let numTrimming = trimming.count + 1
        let factorSteps = max(numTrimming / 3, 2 + 1 + (hasPrevious ? 1 : 0))
        let running = Self.runningLevel(for: factor)
        var current = TrimLevel.complete
        var step = 0
        func advance() {
            step += 1
            if step >= factorSteps {
                step = 0
                if current == .complete { current = .moderate } else if current == .moderate { current = .background }
            }
        }
        for entry in walk {
            guard case .app(let app) = entry else {
                advance()
                continue
            }
            if Self.isTrimmedAsCached(app) {
                out.append(app.trimLevel < current.rawValue ? .trimMemory(app.name, current) : .storeTrimLevel(app.name, current.rawValue))
                advance()
            } else {
                var stored = app.trimLevel
                if !app.isForeground, app.isUIHiddenPending, Self.getsUIHidden(app), stored < TrimLevel.uiHidden.rawValue {
                    out.append(.trimMemory(app.name, .uiHidden))
                    stored = TrimLevel.uiHidden.rawValue
                }
                if stored < running.rawValue { out.append(.trimMemory(app.name, running)) }
                out.append(.storeTrimLevel(app.name, running.rawValue))
            }
        }
        return out
    }

    /// Whether a running app's process state is `PROCESS_STATE_IMPORTANT_BACKGROUND` or below in
    /// importance, where `UI_HIDDEN` is sent: a background task (a started service) is; the app
    /// in front and a foreground service (playback, navigation: perceptible) are not.
    static func getsUIHidden(_ app: AppSnapshot) -> Bool {
        !app.isForeground && passesUIHiddenTest(app.runningBackgroundMode)
    }

    /// Whether a process in the background running `mode` is at `PROCESS_STATE_IMPORTANT_BACKGROUND`
    /// or below, where ActivityManager sends UI_HIDDEN and clears the pending UI clean: a
    /// foreground service (audio, location) is above it.
    static func passesUIHiddenTest(_ mode: BackgroundMode?) -> Bool {
        switch mode {
        case .audio, .location: return false
        case .task, nil: return true
        }
    }

    private func modern(_ apps: [AppSnapshot]) -> [AppNotification] {
        var out: [AppNotification] = []
        for app in apps where !app.isForeground {
            let cached = app.oomScoreAdj >= LowMemoryKillerRules.cachedAdjRange.lowerBound
            if cached {
                if app.trimLevel < TrimLevel.background.rawValue { out.append(.trimMemory(app.name, .background)) }
            } else if app.isUIHiddenPending, Self.passesUIHiddenTest(app.runningBackgroundMode),
                      app.trimLevel < TrimLevel.uiHidden.rawValue {
                out.append(.trimMemory(app.name, .uiHidden))
            }
        }
        return out
    }
}
