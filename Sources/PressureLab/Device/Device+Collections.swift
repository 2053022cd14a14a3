/// ART's collections in the background: when an Android app's runtime collects after it left
/// the front, and what the collection reads back (``BackgroundCollection``, ``ARTCollectionRules``).
extension Device {
    /// Runs every collection that is due by now, once an app (a collection reads the live heap;
    /// two in one step read it once), and schedules the next one of an app that collects as it
    /// allocates in the background.
    func runDueCollections() {
        for installed in apps {
            guard let due = installed.nextCollection, due <= now else { continue }
            let app = installed.app
            guard app.state.hasProcess, installed !== foreground, !installed.isFrozen else {
                installed.nextCollection = nil
                continue
            }
            installed.nextCollection = app.backgroundCollectionSeconds.map { now + $0 }
            collect(installed)
        }
    }

    /// One collection in the background: under Android 10's ART it reads the whole live heap,
    /// so the app-wide data (the region that holds the heap) comes back from zram or the swap
    /// file; under Fleet's runtime it reads only objects that stayed in memory.
    func collect(_ installed: InstalledApp) {
        metrics.backgroundCollections += 1
        let app = installed.app
        app.recordApp(.collectedInBackground)
        guard termination.backgroundCollection == .wholeHeap, app.isAppDataCompressed || app.isAppDataSwapped else { return }
        if app.pageInAppData() {
            metrics.collectionPageIns += 1
            metrics.collectionPageInBytes += app.appDataHeldBytes
        } else {
            // A compressed block or a swapped region that cannot be read back: the process is
            // lost, as when it resumes.
            kill(installed, reason: .policy)
            app.runtime.memoryGate.reset()
        }
    }
}

extension TraceEventKind {
    /// The app's runtime collected in the background (Android's ART).
    public static let collectedInBackground = TraceEventKind("collectedInBackground")
}
