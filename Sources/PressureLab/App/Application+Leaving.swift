/// Leaving the foreground and ending the process: Home, the background, suspension,
/// termination, kills and crashes.
extension Application {
    /// The user presses Home: the app resigns, enters the background (saving its archive)
    /// and is suspended.
    public func home() throws {
        try enterBackground()
        suspend()
        try finishLeavingFront()
    }

    /// `willResignActive`, `didEnterBackground` (the app releases what it declared in
    /// ``releasesOnBackground``), then the restoration archive is saved.
    ///
    /// The bytes the app's ledger dropped over the whole transition (measured, never declared
    /// sizes) are counted as `heap_trim` work: the runtime hands those free pages back to the
    /// system: ART requests a trim after the background collector transition
    /// (`art/runtime/gc/heap.cc`, `Heap::UpdateProcessState`, `Heap::RequestTrim`, then
    /// `Heap::Trim`, which `madvise`s free pages away); libmalloc hands pages back on pressure
    /// (`malloc_zone_pressure_relief`), charged here at the background transition too (a
    /// simplification; docs/formats.md, "Device profile").
    ///
    /// - Parameter purgingBackingStores: the system then discards every view's drawn bitmap,
    ///   as iOS does for an app entering the background (see ``purgeBackingStoresInBackground()``).
    public func enterBackground(purgingBackingStores: Bool = false) throws {
        guard state == .active || state == .inactive else { return }
        let heldBefore = runtime.ledger.total
        defer {
            let released = heldBefore - runtime.ledger.total
            if released > 0 { runtime.count { $0[bytes: .heapTrim] += released } }
        }
        if state == .active {
            recordApp(.willResignActive)
            state = .inactive
        }
        runtime.lifeCycle.willLeaveFront(self)
        recordApp(.didEnterBackground)
        state = .background
        releaseOnEnteringBackground()
        if runtime.lifeCycle.savesWhenEnteringBackground { try saveRestorationArchive() }
        if purgingBackingStores { purgeBackingStoresInBackground() }
    }

    /// The app's interface is no longer visible: another app (or the launcher) is in front. On
    /// Android its activity is stopped and its state saved (the archive written then,
    /// ``AppLifeCycle/didLeaveFront(_:save:)``), memory paged out meanwhile read back first as
    /// the activity's code runs; UIKit's app saved in `didEnterBackground` and does nothing here.
    public func finishLeavingFront() throws {
        guard state == .background || state == .suspended else { return }
        try runtime.lifeCycle.didLeaveFront(self) {
            for controller in controllers { controller.pageInIfCompressed() }
            try saveRestorationArchive()
        }
    }

    /// The app stops running code: it may now be killed without notice.
    public func suspend() {
        guard state == .background else { return }
        state = .suspended
        recordApp(.suspended)
    }

    /// The system terminates the app. A running app gets `willTerminate` (and saves); a
    /// suspended app is simply removed, as a kill.
    public func terminate() {
        guard state.hasProcess else { return }
        if state.isRunning {
            recordApp(.willTerminate)
            try? saveRestorationArchive()
            endProcess()
        } else {
            kill()
        }
    }

    /// The system kills the process without notice (jetsam, lmkd). User data typed since
    /// the last save is lost and counted.
    public func kill() {
        guard state.hasProcess else { return }
        recordApp(.processKilled)
        dataLossBytes += unsavedUserDataBytes
        endProcess()
    }

    /// The process crashes (for instance out of memory while active): no callback; user
    /// data typed since the last save is lost and counted.
    public func crash() {
        guard state.hasProcess else { return }
        recordApp(.processCrashed)
        dataLossBytes += unsavedUserDataBytes
        endProcess()
    }

    /// Frees everything the process held. Controllers go without trace events: a dead
    /// process runs no code.
    func endProcess() {
        dataLossBytes += runtime.lostInputBytes
        runtime.lostInputBytes = 0
        let tracing = runtime.trace.isEnabled
        runtime.trace.isEnabled = false
        pendingInterface = nil
        // Compressed memory dies with the process without being read back.
        for controller in controllers {
            controller.discardCompressedMemory()
            controller.discardSwappedMemory()
        }
        discardCompressedAppData()
        discardSwappedAppData()
        window.tearDown()
        runtime.ledger.measure(owner: appDataOwner) { appData = nil }
        runtime.ledger.remove(owner: appDataOwner)
        appDataGrowth = 0
        endGraphicsContext()
        endSecondaryProcesses()
        runtime.lifeCycle.processDidEnd()
        runtime.trace.isEnabled = tracing
        state = .notRunning
    }
}
