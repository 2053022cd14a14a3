/// ART's collections in the background on a device: when an Android app's runtime collects
/// after it left the front, and what the collection reads back (``BackgroundCollection``,
/// ``ARTCollectionRules``). Android's system runs it when a step ends
/// (``MemorySystem/stepEnding(on:)``); the app's next collection is kept in its
/// ActivityManager record (``Device/InstalledApp/nextCollection``).
struct ARTBackgroundCollector {
    /// What a collection reads of the heap (the termination policy's runtime, Android 10's or Fleet's).
    let reads: BackgroundCollection

    /// Runs every collection that is due by now on `device`, once an app (a collection reads
    /// the live heap; two in one step read it once), and schedules the next one of an app that
    /// collects as it allocates in the background.
    func runDue(on device: Device) {
        for installed in device.apps {
            guard let due = installed.nextCollection, due <= device.now else { continue }
            let app = installed.app
            guard app.state.hasProcess, installed !== device.foreground, !installed.isFrozen else {
                installed.nextCollection = nil
                continue
            }
            installed.nextCollection = app.backgroundCollectionSeconds.map { device.now + $0 }
            collect(installed, on: device)
        }
    }

    /// One collection in the background: under Android 10's ART it reads the whole live heap,
    /// so the app-wide data (the region that holds the heap) comes back from zram or the swap
    /// file; under Fleet's runtime it reads only objects that stayed in memory.
    func collect(_ installed: Device.InstalledApp, on device: Device) {
        device.metrics.backgroundCollections += 1
        let app = installed.app
        app.recordApp(.collectedInBackground)
        guard reads == .wholeHeap, app.isAppDataCompressed || app.isAppDataSwapped else { return }
        if app.pageInAppData() {
            device.metrics.collectionPageIns += 1
            device.metrics.collectionPageInBytes += app.appDataHeldBytes
        } else {
            // A compressed block or a swapped region that cannot be read back: the process is
            // lost, as when it resumes.
            device.kill(installed, reason: .policy)
            app.runtime.memoryGate.reset()
        }
    }
}

extension TraceEventKind {
    /// The app's runtime collected in the background (Android's ART).
    public static let collectedInBackground = TraceEventKind("collectedInBackground")
}
