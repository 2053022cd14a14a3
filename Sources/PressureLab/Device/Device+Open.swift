import PressureLabHeap

/// Bringing an app to the front: Home for the app in front, then a thaw, a resume or a cold
/// launch, timed, and the budget enforced.
extension Device {
    /// Brings `name` to the front: the current foreground app goes home (it saves and is
    /// suspended), then `name` is thawed, resumed or cold-launched (timed), then the
    /// budget is enforced.
    @discardableResult
    public func open(_ name: String) throws -> LaunchKind {
        guard let target = installed(name) else { throw RuntimeError.unknownApp(name) }
        now += 1
        // Already in front: nothing to launch or count, but the step still ends with the
        // device evaluating pressure.
        if target === foreground, target.app.state == .active {
            enforce()
            metrics.sampleCachedApps(cachedAppCount)
            return .resume
        }
        var leaving: InstalledApp?
        let fromHome = foreground == nil
        if let current = foreground, current !== target {
            leaving = current
            try sendHome(current)
            activityManager.appLeftFront(current, at: now)
        }
        // From Home the launcher was in front: it is the previous process now.
        activityManager.appComesToFront(target, fromHome: fromHome)
        target.backgroundUntil = nil
        target.app.runtime.trace.record(app: name, controller: nil, .launchBegan)
        let start = MonotonicClock.now()
        let workBefore = target.app.runtime.work
        // The system runs for the launch: what reclaim took of its working set is read again,
        // in the launch's time (with the kernel's books only).
        linuxKernel?.systemTouchesItsPages(chargingTo: target, on: self)
        let thawed = freezer.thawForLaunch(target, on: self)
        // The app runs again: the app-wide data comes back now (from the pool or the swap
        // file); each controller's memory comes back when it is touched (what is on screen,
        // as the app resumes).
        target.isFullyCompressed = false
        if !target.app.pageInAppData() || !target.app.swapInSecondaryProcesses() {
            // A compressed block or a swapped region cannot be read back: the process is
            // lost, as a kill.
            kill(target, reason: .policy)
            target.app.runtime.memoryGate.reset()
        }
        let launched: LaunchKind?
        do {
            launched = try target.app.launch()
        } catch where isRefused(target) {
            // The launch ran out of memory. A cold launch that failed has already ended its
            // process: an out-of-memory crash, with no launch counted; otherwise the process
            // dies at the end of the step.
            if !target.app.state.hasProcess {
                let isLimit: Bool
                if case .appLimit = target.app.runtime.memoryGate.refusal { isLimit = true } else { isLimit = false }
                if isLimit { metrics.limitKills += 1 }
                recordCrash(of: target, reason: isLimit ? .perProcessLimit : .vmPageShortage)
                target.app.runtime.memoryGate.reset()
                if foreground === target { foreground = nil }
                target.app.runtime.trace.record(app: name, controller: nil, .launchEnded)
                try finishLeaving(leaving)
                enforce()
                metrics.sampleCachedApps(cachedAppCount)
                return .cold
            }
            launched = nil
        }
        let elapsed = MonotonicClock.now() &- start
        let kind: LaunchKind = thawed ? .thaw : (launched ?? .resume)
        switch kind {
        case .cold:
            metrics.coldLaunches += 1
            notes.coldLaunch = name
        case .resume:
            metrics.resumes += 1
            notes.resume = name
        case .thaw:
            metrics.thaws += 1
            notes.thaw = name
        }
        activityManager.appCameToFront(target, at: now)
        metrics.recordLaunch(kind, app: name, nanoseconds: elapsed,
                             deviceNanoseconds: target.app.runtime.deviceNanoseconds(since: workBefore))
        target.app.runtime.trace.record(app: name, controller: nil, .launchEnded)
        foreground = target
        touch(target)
        // Android: the app that left is stopped once the next one is in front.
        try finishLeaving(leaving)
        enforce()
        metrics.sampleCachedApps(cachedAppCount)
        return kind
    }
}

extension TraceEventKind {
    /// A launch (cold, resume or thaw) began and ended: a duration in a Chrome trace.
    public static let launchBegan = TraceEventKind("launchBegan")
    /// A launch finished (its first frame is on screen).
    public static let launchEnded = TraceEventKind("launchEnded")
}
