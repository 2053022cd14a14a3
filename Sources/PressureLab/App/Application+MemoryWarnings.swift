/// Memory warnings (iOS) and trim levels (Android), delivered to a running app.
extension Application {
    /// Delivers a memory warning to a running app: the app delegate, then the
    /// notification's observers, then every controller (containers pass it to all their
    /// children, visible or not).
    ///
    /// With a ``RuntimeContext/cleanupPolicy`` installed, the policy plans the releases
    /// first (`targetBytes`: what the system would like back, if it says) and each
    /// controller carries out its part in its `didReceiveMemoryWarning`.
    public func receiveMemoryWarning(level: PressureLevel = .warning, targetBytes: Int? = nil) {
        guard state.isRunning else { return }
        runtime.cleanupCounters.warnings += 1
        let all = controllers
        runtime.prepareCleanup(for: all, trigger: .memoryWarning(level), targetBytes: targetBytes)
        recordApp(runtime.lifeCycle.memoryWarningKind(level))
        for observer in memoryWarningObservers {
            recordApp(.memoryWarningNotification)
            observer(self)
        }
        rootViewController?.receiveMemoryWarning()
        runtime.finishCleanup(all)
    }

    /// Android's `ComponentCallbacks.onLowMemory`, where ActivityManager sends it
    /// (``MemorySystem/lowMemoryReport(afterDeathOf:reason:on:)``): recorded; nothing is released
    /// by it (the built-in policies answer the trim levels, docs/app-life-cycle.md).
    public func receiveLowMemory() {
        guard state.hasProcess else { return }
        recordApp(.onLowMemory)
    }

    /// Android's `onTrimMemory(level)`: the policy's plan is carried out directly (Android
    /// has no per-controller callback). Suspended apps receive it too, as cached processes
    /// do on Android. Without a policy nothing is released.
    public func trimMemory(_ level: TrimLevel, targetBytes: Int? = nil) {
        guard state.hasProcess else { return }
        recordApp(.onTrimMemory(level))
        let all = controllers
        runtime.prepareCleanup(for: all, trigger: .trimMemory(level), targetBytes: targetBytes)
        runtime.finishCleanup(all)
    }
}
