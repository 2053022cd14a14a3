/// The unload cycle: what a memory warning does to a controller, per OS release.
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

    /// What UIKit's default `didReceiveMemoryWarning` did in the runtime's release, for a
    /// controller whose view is not on screen (one that is on screen keeps everything): the
    /// plan of that release's built-in policy for this controller
    /// (``OSRelease/defaultCleanupPolicy``: ``IOS2Policy``, ``IOS3Policy``, ``IOS6Policy``),
    /// so that each release's rule is written once, in its policy:
    ///
    /// - iPhone OS 2.2: the view is released, with no `viewDidUnload`. Outlets survive
    ///   unless the controller releases them when its view is cleared (`releasesOutlets`,
    ///   the `setView:` override of the time); forgotten outlets keep their subviews.
    /// - iPhone OS 3 and iOS 4: the view is released, then `viewDidUnload` (iOS 5:
    ///   `viewWillUnload` first).
    /// - iOS 6 and later: the view stays; its backing stores are purged.
    ///
    /// In every release the cache of an off-screen controller is released, and the screen's
    /// ``ManualUnloadIdiom`` runs first (the iOS 6 idiom, correct or not).
    ///
    /// When the runtime has a ``RuntimeContext/cleanupPolicy``, that policy's plan, made for
    /// the whole app as the warning arrived, decides instead: this controller releases its part.
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
        let plan = runtime.generation.defaultCleanupPolicy.plan(
            for: runtime.cleanupContext(for: [self], trigger: .memoryWarning(.warning), targetBytes: nil))
        if let items = plan.releases[id] { performCleanup(items, style: plan.viewUnloadStyle) }
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
