/// The unload cycle: what a memory warning does to a controller, per OS generation.
extension ViewController {
    /// Delivers a memory warning: records `didReceiveMemoryWarning` and runs it, then passes
    /// it to every child (visible or not) and to the presented controller.
    public final func receiveMemoryWarning() {
        record(.didReceiveMemoryWarning)
        didReceiveMemoryWarning()
        if !children.isEmpty {
            for child in children { child.receiveMemoryWarning() }
        }
        presentedViewController?.receiveMemoryWarning()
    }

    /// What UIKit's default `didReceiveMemoryWarning` did in the runtime's generation, for
    /// a controller whose view is not on screen (one that is on screen keeps everything):
    ///
    /// - iPhone OS 2.2: the view is released, with no `viewDidUnload`. Outlets survive
    ///   unless the controller releases them when its view is cleared (`releasesOutlets`,
    ///   the `setView:` override of the time); forgotten outlets keep their subviews.
    /// - iOS 3 to 4: the view is released, then `viewDidUnload` (iOS 5: `viewWillUnload`
    ///   first).
    /// - iOS 6 and later: the view stays; its backing stores are purged.
    ///
    /// In every generation the cache of an off-screen controller is released, and the
    /// screen's ``ManualUnloadIdiom`` runs (the iOS 6 idiom, correct or not).
    ///
    /// When the runtime has a ``RuntimeContext/cleanupPolicy``, the policy's plan decides
    /// instead: this controller releases its part of the plan being delivered.
    public final func performDefaultMemoryWarningResponse() {
        if screen.manualUnload != .none { applyManualUnloadIdiom() }
        let runtime = self.runtime
        if runtime.hasCleanupPolicy {
            if !runtime.pendingCleanup.isEmpty, let items = runtime.pendingCleanup.removeValue(forKey: id) {
                performCleanup(items, style: runtime.pendingUnloadStyle)
            }
            return
        }
        guard !appearance.isOnScreen else { return }
        switch runtime.generation {
        case .iPhoneOS2:
            if isViewLoaded {
                releaseView()
                if screen.releasesOutlets { releaseOutlets() }
            }
        case .iOS3, .iOS5:
            if isViewLoaded { runUnloadCycle() }
        case .iOS6:
            purgeBackingStores()
        }
        purgeCache()
    }

    /// iOS 3 to 5: `viewWillUnload` (iOS 5), release the view, `viewDidUnload`.
    final func runUnloadCycle() {
        if runtime.generation.hasViewWillUnload {
            record(.viewWillUnload)
            viewWillUnload()
        }
        releaseView()
        record(.viewDidUnload)
        viewDidUnload()
    }

    private func applyManualUnloadIdiom() {
        switch screen.manualUnload {
        case .none:
            return
        case .checkingIsViewLoaded:
            guard isViewLoaded else { return }
        case .withoutCheckingIsViewLoaded:
            // `view.window == nil` asks for the view, and asking loads it.
            guard (try? loadViewIfNeeded()) != nil else { return }
        }
        guard !appearance.isOnScreen else { return }
        releaseView()
        if screen.releasesOutlets { releaseOutlets() }
    }
}
