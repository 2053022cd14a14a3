/// Secondary processes as ActivityManager handles them: found by name, killed alone, started
/// again when its restart comes (docs/fidelity.md, "Processes").
extension ActivityManager {
    /// The running secondary process named `APP:PROCESS` on `device`, with its app.
    func secondaryProcess(named name: String, on device: Device) -> (Device.InstalledApp, SecondaryProcess)? {
        guard let colon = name.firstIndex(of: ":"), let owner = device.installed(String(name[..<colon])),
              let process = owner.processes.first(where: { $0.name == name }),
              owner.app.isRunning(process: process.spec) else { return nil }
        return (owner, process)
    }

    /// Kills one secondary process: its memory goes, its app lives on, and ActivityManager
    /// starts it again after ``ServiceRestartRules/delay(now:lastStart:lastDelay:)`` (spaced
    /// from the other restarts scheduled), or when its app next comes to the front if sooner.
    func kill(_ process: SecondaryProcess, of owner: Device.InstalledApp, reason: KillReason, on device: Device) {
        let now = device.now
        process.restartDelay = ServiceRestartRules.delay(now: now, lastStart: process.lastStart, lastDelay: process.restartDelay)
        process.restartAt = spacedRestartTime(now + process.restartDelay, for: process, on: device)
        device.metrics.kills += 1
        device.metrics.recordKill(of: process.name, reason: reason)
        device.notes.kills.append(.killProcess(app: owner.name, process: process.spec.name, reason: reason))
        processDied(of: nil, reason: reason)
        owner.app.runtime.trace.record(app: owner.name, controller: nil, TraceEventKind("killed:\(process.spec.name):\(reason.rawValue)"))
        owner.app.endSecondaryProcess(process.spec)
        device.refreshPriorities()
    }

    /// Starts again the secondary processes killed alone whose restart time has come, while
    /// their app lives (``ServiceRestartRules``): each a process start, its memory allocated
    /// (and admitted) now. The device's time moves by steps: a restart due within a step
    /// happens at its end (an estimate of when within it).
    func restartKilledServices(on device: Device) {
        let now = device.now
        for installed in device.apps {
            for process in installed.processes {
                guard let at = process.restartAt, at <= now else { continue }
                process.restartAt = nil
                guard installed.app.state.hasProcess else { continue }
                if installed.app.startSecondaryProcess(process.spec) {
                    process.lastStart = now
                    installed.app.runtime.trace.record(app: installed.name, controller: nil,
                                                       TraceEventKind("restarted:\(process.spec.name)"))
                }
            }
        }
    }

    /// `at`, moved past every other scheduled restart closer to it than
    /// ``ServiceRestartRules/minimumSecondsBetween``, again after each move until none is
    /// (`scheduleServiceRestartLocked` repeats its walk of the restarting services the same way).
    func spacedRestartTime(_ at: Double, for process: SecondaryProcess, on device: Device) -> Double {
        let others = device.apps.flatMap(\.processes).filter { $0 !== process }.compactMap(\.restartAt)
        var time = at
        var moved = true
        while moved {
            moved = false
            for scheduled in others where abs(scheduled - time) < ServiceRestartRules.minimumSecondsBetween {
                time = scheduled + ServiceRestartRules.minimumSecondsBetween
                moved = true
                break
            }
        }
        return time
    }

    /// The secondary processes that run on `device`, as a policy sees them (none where the
    /// kernel does not see them, ``MemorySystem/seesSecondaryProcesses``). The processes of the app whose
    /// allocation waits (`sparing`) are left out: its memory is being counted (they go only
    /// after the step, when memory is read again).
    func processSnapshots(sparing: Device.InstalledApp?, on device: Device) -> [ProcessSnapshot] {
        guard device.system.seesSecondaryProcesses else { return [] }
        var out: [ProcessSnapshot] = []
        for installed in device.apps where installed.app.state.hasProcess && installed !== sparing {
            let clientAdj = installed.oomScoreAdj
            for process in installed.processes where installed.app.isRunning(process: process.spec) {
                // A bound or isolated process follows its client; a started service does not.
                let isBound = process.spec.kind != .service
                let adj = process.oomScoreAdj
                // A started service's process state stays a service's, counted with neither
                // the cached nor the empty processes (`updateOomAdjLocked`'s default case); a
                // bound or isolated one of a cached client (which keeps its activities) is a
                // cached activity client, counted with the cached apps.
                out.append(ProcessSnapshot(name: process.name, app: installed.name, kind: process.spec.kind,
                                           bytes: installed.app.bytes(of: process.spec), oomScoreAdj: adj,
                                           adjOrder: process.adjOrder, useOrder: installed.useOrder, isEmpty: false,
                                           isCachedActivityClient: isBound && LowMemoryKillerRules.cachedAdjRange.contains(clientAdj)))
            }
        }
        return out
    }
}
