/// Interruptions, launches into the background, and apps running in the background.
extension Device {
    /// A call or an alert covers the foreground app for `seconds`: `willResignActive`, the
    /// device runs (time passes, pressure is evaluated), then `didBecomeActive`. False when
    /// no app is in front.
    @discardableResult
    public func interrupt(seconds: Double) -> Bool {
        guard let target = foreground, target.app.state == .active else { return false }
        target.app.interrupt()
        metrics.interruptions += 1
        notes.interrupted = true
        now += max(0, seconds)
        enforce()
        if foreground === target { target.app.endInterruption() }
        metrics.sampleCachedApps(cachedAppCount)
        return true
    }

    /// Launches `name` straight into the background (a location or fetch relaunch):
    /// `didFinishLaunching`, `didEnterBackground`, no interface shown. It then runs as its
    /// background mode allows, or is suspended at once. False when it already has a
    /// process.
    @discardableResult
    public func launchInBackground(_ name: String) throws -> Bool {
        guard let target = installed(name) else { throw RuntimeError.unknownApp(name) }
        now += 1
        guard !target.app.state.hasProcess else {
            enforce()
            return false
        }
        do {
            try target.app.launchIntoBackground()
        } catch where isRefused(target) {
            // The launch ran out of memory: the process is gone (or dies at the step's end).
        }
        if target.app.state == .background {
            metrics.backgroundLaunches += 1
            notes.backgroundLaunch = name
            runInBackgroundOrSuspend(target)
        }
        enforce()
        metrics.sampleCachedApps(cachedAppCount)
        return true
    }

    /// An app in the background runs on while its background mode allows (until
    /// ``InstalledApp/backgroundUntil``), else it is suspended at once.
    func runInBackgroundOrSuspend(_ installed: InstalledApp) {
        if let mode = installed.app.backgroundMode, mode.runningSeconds(on: model.os) > 0 {
            installed.backgroundUntil = now + mode.runningSeconds(on: model.os)
            installed.app.recordApp(.runningInBackground)
        } else {
            installed.app.suspend()
        }
    }

    /// Suspends the apps whose background time is over (a task's time ran out, audio or
    /// location stopped).
    func suspendAppsWhoseBackgroundTimeIsOver() {
        for installed in apps {
            guard let until = installed.backgroundUntil else { continue }
            guard installed.app.state == .background else {
                installed.backgroundUntil = nil
                continue
            }
            guard until <= now else { continue }
            installed.backgroundUntil = nil
            installed.app.recordApp(.backgroundTimeExpired)
            installed.app.suspend()
            metrics.backgroundExpirations += 1
            notes.backgroundExpirations += 1
        }
    }
}
