/// Carrying out a cleanup plan's part for one controller.
extension ViewController {
    /// Releases `items` in the plan's style. The view and bitmaps of an on-screen
    /// controller are never released (refusals are counted).
    final func performCleanup(_ items: Set<ReleasableItem>, style: ViewUnloadStyle) {
        let onScreen = appearance.isOnScreen
        if items.contains(.view) {
            if onScreen {
                runtime.cleanupCounters.refusedOnScreen += 1
            } else if isViewLoaded {
                unloadView(style: style)
                runtime.cleanupCounters.viewUnloads += 1
            }
        }
        if items.contains(.backingStores) {
            if onScreen {
                runtime.cleanupCounters.refusedOnScreen += 1
            } else if purgeBackingStores() > 0 {
                runtime.cleanupCounters.backingStorePurges += 1
            }
        }
        if items.contains(.cache), purgeCache() { runtime.cleanupCounters.cachePurges += 1 }
        if items.contains(.model), releaseModel() { runtime.cleanupCounters.modelReleases += 1 }
    }

    /// Releases the view in `style` (see ``ViewUnloadStyle``).
    public final func unloadView(style: ViewUnloadStyle) {
        pageInIfCompressed()
        guard isViewLoaded, !appearance.isOnScreen else { return }
        switch style {
        case .iPhoneOS2, .setViewNil:
            releaseView()
            if screen.releasesOutlets { releaseOutlets() }
        case .unloadCycle:
            runUnloadCycle()
        }
    }
}
