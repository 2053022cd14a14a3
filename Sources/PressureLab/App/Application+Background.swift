/// Interruptions, work in `didEnterBackground`, and launches into the background.
extension Application {
    /// A call, an alert or the notification centre covers the app: `willResignActive`, and
    /// it stays Inactive (in front, receiving no events) until ``endInterruption()``.
    public func interrupt() {
        guard state == .active else { return }
        recordApp(.willResignActive)
        runtime.lifeCycle.willLeaveFront(self)
        state = .inactive
    }

    /// The interruption is over: `didBecomeActive`, with no trip through the background.
    public func endInterruption() {
        guard state == .inactive, pendingInterface == nil else { return }
        recordApp(.didBecomeActive)
        state = .active
        runtime.lifeCycle.didReturn(self)
    }

    /// Launched straight into the background (a location or fetch relaunch): the process
    /// starts, the hierarchy is restored or built but not shown, `didFinishLaunching`, then
    /// `didEnterBackground`. No Inactive or Active state, no view loaded. The archive is not
    /// saved (the interface the user left has not been shown again).
    public func launchIntoBackground() throws {
        guard state == .notRunning else { return }
        state = .background
        let (root, modals) = try startProcess()
        pendingInterface = (root, modals)
        recordApp(.didEnterBackground)
    }

    /// Whether the app was launched into the background and has not been shown yet.
    public var isInterfacePending: Bool { pendingInterface != nil }

    /// The first foreground of an app launched into the background: `willEnterForeground`,
    /// the interface is shown (views load and appear), `didBecomeActive`.
    func showForTheFirstTime(_ interface: (root: ViewController, modals: [ViewController])) throws {
        recordApp(.willEnterForeground)
        state = .inactive
        pendingInterface = nil
        lifeCycleWillShow(interface.root, modals: interface.modals)
        try showInterface(interface.root, modals: interface.modals)
        runtime.count { $0.firstFrames += 1 }
        state = .active
        recordApp(.didBecomeActive)
        runtime.lifeCycle.didShowInterface(of: self)
    }

    /// Tells the life cycle a new process shows `root` with `modals` presented over it: the
    /// controller in front, and every controller restored from the archive, if it was.
    func lifeCycleWillShow(_ root: ViewController, modals: [ViewController]) {
        var front = modals.last ?? root
        while let child = front.visibleChild { front = child }
        var restored: [ViewController] = []
        if startedFromArchive {
            for top in [root] + modals { top.forEachInHierarchy { restored.append($0) } }
        }
        runtime.lifeCycle.willShowInterface(of: self, front: front, restored: restored)
    }

    /// What the app itself releases in `didEnterBackground` (``releasesOnBackground``),
    /// counted as cleanup.
    func releaseOnEnteringBackground() {
        guard !releasesOnBackground.isEmpty else { return }
        for controller in controllers {
            if releasesOnBackground.contains(.cache), controller.purgeCache() { runtime.cleanupCounters.cachePurges += 1 }
            if releasesOnBackground.contains(.model), controller.releaseModel() { runtime.cleanupCounters.modelReleases += 1 }
            if releasesOnBackground.contains(.backingStores), controller.purgeBackingStores() > 0 {
                runtime.cleanupCounters.backingStorePurges += 1
            }
        }
    }

    /// What iOS reclaims by itself from an app entering the background: the backing store
    /// of every Core Animation layer (drawn views), on screen or not. The layers stay; their
    /// contents are drawn again when the app comes back. (Apple's iOS App Programming Guide,
    /// "Memory Usage for Background Apps": the system releases the backing store for all
    /// Core Animation layers and removes references to cached images; Apple Developer
    /// Forums thread 9550: "any memory used to represent drawn UIViews is discarded".)
    /// Android's twin: a stopped activity's decor view is made invisible
    /// (`ActivityThread.handleStopActivity`, `updateVisibility(r, false)`), and
    /// `ViewRootImpl.performTraversals`, seeing the window no longer visible, calls
    /// `destroyHardwareResources()`: the renderer's surfaces and GPU buffers go (the
    /// `Gfx dev`/`GL mtrack` rows of `dumpsys meminfo`) and are drawn again on return.
    public func purgeBackingStoresInBackground() {
        var purged = 0
        for controller in controllers { purged += controller.purgeBackingStores(evenOnScreen: true) }
        if purged > 0 { recordApp(.backingStoresPurgedInBackground) }
    }
}

extension TraceEventKind {
    /// The system discarded the app's drawn views as it entered the background.
    public static let backingStoresPurgedInBackground = TraceEventKind("backingStoresPurgedInBackground")
    /// A background task's time ran out (or audio, location stopped): the app is suspended.
    public static let backgroundTimeExpired = TraceEventKind("backgroundTimeExpired")
    /// The app keeps running in the background (a background mode or task).
    public static let runningInBackground = TraceEventKind("runningInBackground")
}
