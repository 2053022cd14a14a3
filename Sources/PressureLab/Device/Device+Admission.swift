import PressureLabHeap

/// Memory admitted allocation by allocation, and the end of a step.
///
/// XNU enforces a process's limit the moment its footprint crosses it, and when free memory
/// runs out it kills at once, idle apps first; pressure levels and warnings follow. The
/// device does the same: every allocation of simulated memory asks ``admit(_:for:)`` first
/// (through the app's ``MemoryGate``), and ``finishStep()`` ends the processes whose
/// allocations were refused, then evaluates pressure, after every step that changed memory.
/// So the budget, not the host, bounds what a run holds.
extension Device {
    /// Memory all apps hold now, including allocations in progress.
    public var liveUsedBytes: Int {
        var total = 0
        for ledger in ledgers { total += ledger.liveTotal }
        return total
    }

    /// Decides on `bytes` more for `installed` (``DeviceAdmission`` asks for its app).
    ///
    /// - The per-app limit: an allocation that would take the app over it is refused (the
    ///   app is killed at the end of the step, as jetsam kills at the crossing).
    /// - The budget: when the allocation does not fit, other apps are killed or frozen at once
    ///   by the termination policy (no warnings: nobody else runs code now); if it still
    ///   does not fit, it is refused and the app dies out of memory.
    func admit(_ bytes: Int, for installed: InstalledApp) -> AdmissionDecision {
        let size = Heap.sizeClass(for: bytes)
        if model.appLimitBytes != nil || model.appLimitInactiveBytes != nil,
           let limit = model.appLimit(active: system.holdsActiveLimit(installed)),
           installed.footprintBytes.addingSaturating(size) > limit {
            return .refused(.appLimit(limitBytes: limit))
        }
        // Below Linux's min watermark the allocation reclaims first (direct reclaim).
        if let freed = linuxKernel?.admit(size, for: installed, on: self) { return .grantedAfterReclaim(freedBytes: freed) }
        let budget = budgetBytes
        let before = liveUsedBytes
        guard before.addingSaturating(size) > budget else { return .granted }
        // What other apps free now is theirs, not this app's open scope's; so is the device's
        // note of the reclaim (its outcome's memory is the device's, not the app's).
        return installed.app.runtime.ledger.unattributed {
            reclaim(downTo: budget - size, emergencyBytes: size, sparing: installed)
            let after = liveUsedBytes
            let granted = after.addingSaturating(size) <= budgetBytes
            let freed = max(0, before - after)
            notes.admissionReclaims.append(AdmissionReclaim(app: installed.name, requestedBytes: bytes,
                                                            freedBytes: freed, granted: granted))
            return granted ? .grantedAfterReclaim(freedBytes: freed) : .refused(.outOfMemory(budgetBytes: budget))
        }
    }

    /// Ends a step driven from outside the device (a push, a `type`): apps whose allocations
    /// were refused die, then pressure is evaluated if memory changed. (The device's own
    /// steps, `open`, `goHome`, `idle` and warnings, do both as they end.)
    ///
    /// - Throws: ``RuntimeError/memoryRefused(app:_:)`` when the host itself had no memory
    ///   for an allocation: the run cannot go on measuring.
    public func finishStep() throws(RuntimeError) {
        if let failed = apps.first(where: { if case .hostAllocationFailed = $0.app.runtime.memoryGate.refusal { true } else { false } }) {
            throw .memoryRefused(app: failed.name, failed.app.runtime.memoryGate.refusal!)
        }
        if usedBytes != usedAtLastEvaluation || apps.contains(where: { $0.app.runtime.memoryGate.refusal != nil }) {
            enforce()
        }
    }

    /// Ends the processes whose allocations were refused: a limit kill, or an out-of-memory
    /// crash (host failures are left for ``finishStep()`` to report).
    func endRefusedApps() {
        for installed in apps {
            let gate = installed.app.runtime.memoryGate
            guard let refusal = gate.refusal else { continue }
            switch refusal {
            case .hostAllocationFailed:
                continue
            case .appLimit:
                metrics.limitKills += 1
                endForMemory(installed, reason: .perProcessLimit)
            case .outOfMemory, .compressedMemoryLost:
                endForMemory(installed, reason: .vmPageShortage)
            }
            gate.reset()
        }
    }

    /// Whether `installed`'s gate refused an allocation (the app is being killed).
    func isRefused(_ installed: InstalledApp) -> Bool { installed.app.runtime.memoryGate.refusal != nil }

    /// The app whose allocation was refused dies: the foreground app crashes (out of memory,
    /// counted), another is killed.
    private func endForMemory(_ installed: InstalledApp, reason: KillReason) {
        guard installed.app.state.hasProcess else { return }
        if installed === foreground || installed.app.state.isRunning && foreground == nil {
            recordCrash(of: installed, reason: reason)
            installed.app.crash()
            if installed === foreground { foreground = nil }
        } else {
            terminateKilled(installed, reason: reason)
        }
    }
}
