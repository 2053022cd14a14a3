/// The freezer: a suspended app's memory written to a file (compressed, with a codec) and
/// freed, and read back on its next launch (a thaw), as XNU's freezer does
/// (``FreezerRules``, ``FreezePolicy``). Device time: the storage written and read, plus
/// the compression of what was not compressed yet.
extension Device {
    /// Writes a suspended app's memory to its freezer file and frees it; what is already in
    /// the compressed pool moves to the file as it is. The app then sits in the frozen band
    /// (`memorystatus_freeze_jetsam_band`) and counts as frozen until it dies.
    @discardableResult
    public func freeze(_ installed: InstalledApp) -> Bool {
        freeze(installed, limitBytes: nil) == .frozen
    }

    /// What a freeze under the budget came to.
    enum FreezeResult: Equatable {
        case frozen
        /// iOS 18's cap left nothing to write: the app stays as it was.
        case nothingFitsTheBudget
        /// A write failed (see ``pageOut(_:to:name:limitBytes:)``).
        case failed
    }

    /// Freezes `installed` as the release's freezer does: on iOS 18 at most the budget left
    /// (``FreezerRules/capsFreezeAtBudget``: resident memory is written region by region, a
    /// controller's memory or the app's data at a time, while the next region fits what is
    /// left; XNU stops at the page, an estimate here), on iOS 12 whole.
    func freezeWithinBudget(_ installed: InstalledApp) -> FreezeResult {
        let cap = system.freezer.capsFreezeAtBudget ? max(0, freezerBudget.remainingBytes) : nil
        return freeze(installed, limitBytes: cap)
    }

    private func freeze(_ installed: InstalledApp, limitBytes: Int?) -> FreezeResult {
        guard installed.app.state == .suspended, !installed.isFrozen else { return .failed }
        let written: Freezer.Transfer
        switch pageOut(installed, to: freezer, name: installed.name, limitBytes: limitBytes) {
        case .written(let transfer): written = transfer
        case .nothingFitsTheBudget: return .nothingFitsTheBudget
        case .failed: return .failed
        }
        installed.app.runtime.count { $0.bytesCompressed += (written.originalBytes ?? 0) - written.relocatedBytes }
        freezerState.budget.spend(written.storageBytes)
        metrics.freezes += 1
        notes.freezes += 1
        metrics.frozenBytesWritten += written.storageBytes
        installed.isFrozen = true
        installed.isFullyCompressed = false
        installed.hasBeenFrozen = true
        installed.isRefreezeEligible = false
        installed.app.runtime.trace.record(app: installed.name, controller: nil, .frozen)
        refreshPriorities()
        return .frozen
    }

    /// Reads a frozen app's memory back. It stays frozen in XNU's books
    /// (`P_MEMSTAT_FROZEN` survives `memorystatus_on_resume`) and becomes eligible for a
    /// refreeze (`P_MEMSTAT_REFREEZE_ELIGIBLE`).
    func thaw(_ installed: InstalledApp) throws {
        let read = try freezer.thaw(installed.app, name: installed.name)
        installed.app.runtime.count { work in
            work.bytesDecompressed += read.originalBytes ?? 0
            work.storageReadBytes += read.storageBytes
            work.storageReads += 1
        }
        installed.isFrozen = false
        installed.isRefreezeEligible = true
    }

    /// What paging an app out came to.
    enum PageOutResult {
        case written(Freezer.Transfer)
        case nothingFitsTheBudget
        /// Nothing was written (when memory moved from the pool could not all be written, the
        /// app was killed: it cannot be put together again).
        case failed
    }

    /// Writes a suspended app's memory to `storage`'s file `name` (at most `limitBytes` of its
    /// resident memory, when given) and frees it, counting the storage written.
    func pageOut(_ installed: InstalledApp, to storage: Freezer, name: String, limitBytes: Int? = nil) -> PageOutResult {
        switch storage.freeze(installed.app, name: name, limitBytes: limitBytes) {
        case .success(let written):
            installed.app.runtime.count { work in
                work.storageWriteBytes += written.storageBytes
                work.storageWrites += 1
            }
            return .written(written)
        case .failure(.nothingWritten):
            return .failed
        case .failure(.nothingFits):
            return .nothingFitsTheBudget
        case .failure(.lost):
            kill(installed, reason: .policy)
            return .failed
        }
    }

    func removeFreezerFile(_ installed: InstalledApp) {
        freezer.remove(installed.app, name: installed.name)
    }
}

extension TraceEventKind {
    /// A launch (cold, resume or thaw) began and ended: a duration in a Chrome trace.
    public static let launchBegan = TraceEventKind("launchBegan")
    /// A launch finished (its first frame is on screen).
    public static let launchEnded = TraceEventKind("launchEnded")
    /// The freezer froze the app.
    public static let frozen = TraceEventKind("frozen")
    /// The app was thawed.
    public static let thawed = TraceEventKind("thawed")
}
