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
        let kind = runtime.lifeCycle.memoryWarningKind(level)
        recordApp(kind)
        runtime.lifeCycle.memoryCallbackDelivered(kind, in: self)
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
        runtime.lifeCycle.memoryCallbackDelivered(.onLowMemory, in: self)
    }

    /// Android's `onTrimMemory(level)`, to the app and its activities
    /// (``AppLifeCycle/memoryCallbackDelivered(_:in:)``): the policy's plan is carried out
    /// directly (the controllers have no callback of their own to carry it out in). Suspended
    /// apps receive it too, as cached processes do on Android. Without a policy nothing is
    /// released.
    public func trimMemory(_ level: TrimLevel, targetBytes: Int? = nil) {
        guard state.hasProcess else { return }
        recordApp(.onTrimMemory(level))
        runtime.lifeCycle.memoryCallbackDelivered(.onTrimMemory(level), in: self)
        let all = controllers
        runtime.prepareCleanup(for: all, trigger: .trimMemory(level), targetBytes: targetBytes)
        runtime.finishCleanup(all)
    }
}
