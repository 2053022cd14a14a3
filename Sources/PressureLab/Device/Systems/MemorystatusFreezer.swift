/// XNU's freezer on a device: its state (the write budget over time, when its thread may run
/// next) and freezing itself, a suspended app's memory written to a file (compressed, with a
/// codec) and freed, read back on its next launch (a thaw), as memorystatus's freezer does
/// (``FreezerRules``, ``FreezePolicy``). Device time: the storage written and read, plus the
/// compression of what was not compressed yet.
///
/// Every device has one, with its system's freezer rules (an Android system lends iOS 18's), so
/// that the `freeze` policy runs anywhere as a what-if; the device asks it when the policy
/// freezes or its thread ran, at a launch (thaw), when a process dies and when the policy
/// reads the device (``snapshot(of:now:)``).
final class MemorystatusFreezer {
    /// The rules it follows (its system's, ``MemorySystem/freezer``).
    let rules: FreezerRules
    /// Its storage (files in the apps' bundles).
    let storage: Freezer
    /// The write budget over time.
#if !PRESSURELAB_EXCLUSIVITY_CHECKED
    @exclusivity(unchecked)
#endif
    var budget: FreezerBudget
    /// When the freezer thread may run next, simulated seconds
    /// (`memorystatus_freezer_thread_next_run_ts`, ``FreezerRules/runIntervalSeconds``).
    var nextRun: Double = 0

    /// The freezer of a device `model` under `rules`, compressing with `pool`'s codec when the
    /// device compresses.
    init(rules: FreezerRules, model: DeviceModel, pool: CompressedPool?) {
        self.rules = rules
        self.storage = Freezer(compression: pool.map { ($0.codec, $0.pageBytes) })
        self.budget = FreezerBudget(windowBytes: model.freezeWriteBudgetBytes)
    }

    /// What a freeze under the budget came to.
    enum FreezeResult: Equatable {
        case frozen
        /// iOS 18's cap left nothing to write: the app stays as it was.
        case nothingFitsTheBudget
        /// A write failed (see ``pageOut(_:limitBytes:on:)``).
        case failed
    }

    /// What paging an app out came to.
    enum PageOutResult {
        case written(Freezer.Transfer)
        case nothingFitsTheBudget
        /// Nothing was written (when memory moved from the pool could not all be written, the
        /// app was killed: it cannot be put together again).
        case failed
    }

    // MARK: Events

    /// Its thread ran at `now` (whether or not it froze anyone): it runs again
    /// ``FreezerRules/runIntervalSeconds`` later.
    func ran(at now: Double) {
        nextRun = now + FreezerRules.runIntervalSeconds
    }

    /// Freezes `installed` as the release's freezer does: on iOS 18 at most the budget left
    /// (``FreezerRules/capsFreezeAtBudget``: resident memory is written region by region, a
    /// controller's memory or the app's data at a time, while the next region fits what is
    /// left; XNU stops at the page, an estimate here), on iOS 12 whole.
    func freezeWithinBudget(_ installed: Device.InstalledApp, on device: Device) -> FreezeResult {
        let cap = rules.capsFreezeAtBudget ? max(0, budget.remainingBytes) : nil
        return freeze(installed, limitBytes: cap, on: device)
    }

    /// Writes a suspended app's memory (at most `limitBytes` of it, when given) to its freezer
    /// file and frees it; what is already in the compressed pool moves to the file as it is.
    /// The app then sits in the frozen band (`memorystatus_freeze_jetsam_band`) and counts as
    /// frozen until it dies.
    func freeze(_ installed: Device.InstalledApp, limitBytes: Int?, on device: Device) -> FreezeResult {
        guard installed.app.state == .suspended, !installed.isFrozen else { return .failed }
        let written: Freezer.Transfer
        switch pageOut(installed, limitBytes: limitBytes, on: device) {
        case .written(let transfer): written = transfer
        case .nothingFitsTheBudget: return .nothingFitsTheBudget
        case .failed: return .failed
        }
        installed.app.runtime.count { $0.bytesCompressed += (written.originalBytes ?? 0) - written.relocatedBytes }
        budget.spend(written.storageBytes)
        device.metrics.freezes += 1
        device.notes.freezes += 1
        device.metrics.frozenBytesWritten += written.storageBytes
        installed.isFrozen = true
        installed.isFullyCompressed = false
        installed.hasBeenFrozen = true
        installed.isRefreezeEligible = false
        installed.app.runtime.trace.record(app: installed.name, controller: nil, .frozen)
        device.refreshPriorities()
        return .frozen
    }

    /// Reads a frozen app's memory back. It stays frozen in XNU's books
    /// (`P_MEMSTAT_FROZEN` survives `memorystatus_on_resume`) and becomes eligible for a
    /// refreeze (`P_MEMSTAT_REFREEZE_ELIGIBLE`).
    func thaw(_ installed: Device.InstalledApp) throws {
        let read = try storage.thaw(installed.app, name: installed.name)
        installed.app.runtime.count { work in
            work.bytesDecompressed += read.originalBytes ?? 0
            work.storageReadBytes += read.storageBytes
            work.storageReads += 1
        }
        installed.isFrozen = false
        installed.isRefreezeEligible = true
    }

    /// `installed` launches: if it is frozen its memory is read back (``thaw(_:)``); when it
    /// cannot be, the process is lost, as a kill. Returns whether it was thawed.
    func thawForLaunch(_ installed: Device.InstalledApp, on device: Device) -> Bool {
        guard installed.isFrozen else { return false }
        do {
            try thaw(installed)
            installed.app.runtime.trace.record(app: installed.name, controller: nil, .thawed)
            return true
        } catch {
            // The frozen memory cannot be read back: the process is lost, as a kill.
            device.kill(installed, reason: .policy)
            installed.app.runtime.memoryGate.reset()
            return false
        }
    }

    /// Writes a suspended app's memory to its file (at most `limitBytes` of its resident
    /// memory, when given) and frees it, counting the storage written.
    func pageOut(_ installed: Device.InstalledApp, limitBytes: Int? = nil, on device: Device) -> PageOutResult {
        switch storage.freeze(installed.app, name: installed.name, limitBytes: limitBytes) {
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
            device.kill(installed, reason: .policy)
            return .failed
        }
    }

    /// `installed`'s process died: a frozen one's file is removed.
    func processDied(_ installed: Device.InstalledApp) {
        guard installed.isFrozen else { return }
        installed.isFrozen = false
        storage.remove(installed.app, name: installed.name)
    }

    /// The freezer as a policy sees it at `now` (its budget rolled over first), counting the
    /// live processes of `apps` frozen once and those thawed since.
    func snapshot(of apps: [Device.InstalledApp], now: Double) -> FreezerSnapshot {
        var frozenCount = 0
        var refreezeEligibleCount = 0
        for installed in apps where installed.hasBeenFrozen && installed.app.state.hasProcess {
            frozenCount += 1
            if installed.isRefreezeEligible { refreezeEligibleCount += 1 }
        }
        budget.advance(to: now)
        return FreezerSnapshot(budgetBytes: budget.remainingBytes, frozenCount: frozenCount,
                               refreezeEligibleCount: refreezeEligibleCount, mayRunNow: now >= nextRun)
    }
}

extension TraceEventKind {
    /// The freezer froze the app.
    public static let frozen = TraceEventKind("frozen")
    /// The app was thawed.
    public static let thawed = TraceEventKind("thawed")
}
