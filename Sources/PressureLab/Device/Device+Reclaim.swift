/// Enforcing the budget: pressure levels, the termination policy's actions one at a time,
/// per-app limits, and kills.
extension Device {
    /// Evaluates pressure and lets the termination policy reclaim memory, one action at a
    /// time, until use is below the warning clear threshold (and the budget) or the policy
    /// has nothing more to do. Per-app limits are enforced first, under every policy.
    public func enforce() {
        suspendAppsWhoseBackgroundTimeIsOver()
        endRefusedApps()
        enforceAppLimits()
        let previous = level
        let levels = pressureSources.map { ($0, $0.level(usedBytes: usedBytes, budgetBytes: configuration.budgetBytes)) }
        level = levels.map(\.1).max() ?? .normal
        // A warning from a source other than measured use (a script, a live bridge) is
        // delivered to the running apps as such, whatever the policy.
        let injected = levels.filter { !($0.0 is MeasuredPressure) }.map(\.1).max() ?? .normal
        if injected > .normal {
            for installed in apps where installed.app.state.isRunning {
                installed.app.receiveMemoryWarning(level: injected)
            }
        }
        if level > previous {
            let snapshots = snapshots()
            for (name, trim) in termination.trimLevels(forLevel: level, apps: snapshots) {
                // A suspended app whose memory is paged out (compressed or frozen) is not
                // trimmed: freeing would first page its memory back in, under pressure.
                guard let target = installed(name), !target.isFrozen,
                      !(target.isCompressed && target.app.state == .suspended) else { continue }
                target.app.trimMemory(trim)
            }
        }
        let clear = Int(configuration.thresholds.warningClear * Double(configuration.budgetBytes))
        if level > .normal || usedBytes > configuration.budgetBytes {
            reclaim(downTo: clear, emergency: false, sparing: nil)
        }
        level = pressureSources.first.map { $0.level(usedBytes: usedBytes, budgetBytes: configuration.budgetBytes) } ?? .normal
        usedAtLastEvaluation = usedBytes
    }

    /// Lets the termination policy act, one action at a time, until use is at most `target`
    /// (and within the budget) or the policy has nothing more to do.
    ///
    /// - Parameters:
    ///   - emergency: the device's memory ran out in the middle of a step (of `sparing`, whose
    ///     allocation waits): only other apps are killed or frozen, at the critical level; no
    ///     warnings (apps run no code in the middle of another's allocation), and the
    ///     foreground app is never killed here (the waiting allocation is refused instead).
    ///   - sparing: the app whose allocation waits; it is treated as in front.
    func reclaim(downTo target: Int, emergency: Bool, sparing: InstalledApp?) {
        var warned = emergency
        reclaim: for _ in 0..<(apps.count * 2 + 4) {
            let used = liveUsedBytes
            guard used > target || used > configuration.budgetBytes else { break reclaim }
            var snapshots = snapshots()
            // The app whose allocation waits is treated as in front.
            if let sparing, let index = apps.firstIndex(where: { $0 === sparing }) { snapshots[index].isForeground = true }
            let state = DeviceSnapshot(apps: snapshots, usedBytes: used, budgetBytes: configuration.budgetBytes,
                                       level: emergency ? .critical : level,
                                       bytesToFree: used - min(target, configuration.budgetBytes),
                                       freezeBudgetBytes: freezeBudgetBytes, runningAppsWarned: warned)
            // The compressor goes first: a suspended app compressed is an app not killed.
            if let candidate = compressionCandidate(sparing: sparing), compress(candidate) { continue reclaim }
            guard let action = termination.nextAction(state) else { break reclaim }
            switch action {
            case .kill(let name):
                guard let victim = installed(name), victim.app.state.hasProcess, victim !== foreground, victim !== sparing
                else { break reclaim }
                kill(victim)
            case .freeze(let name):
                guard let victim = installed(name), victim.app.state == .suspended, !victim.isFrozen, victim !== sparing
                else { break reclaim }
                if !freeze(victim) { kill(victim) }
            case .warnRunningApps:
                guard !emergency else { break reclaim }
                warned = true
                for installed in apps where installed.app.state.isRunning {
                    installed.app.receiveMemoryWarning(level: level, targetBytes: used - target)
                }
            case .killForeground:
                guard !emergency, let victim = foreground else { break reclaim }
                metrics.outOfMemoryCrashes += 1
                metrics.killOrder.append(victim.name)
                victim.app.crash()
                foreground = nil
            }
        }
    }

    func enforceAppLimits() {
        guard let limit = configuration.appLimitBytes else { return }
        for installed in apps where installed.app.state.hasProcess {
            let bytes = installed.bytes
            if bytes > limit {
                metrics.limitKills += 1
                if installed === foreground {
                    metrics.outOfMemoryCrashes += 1
                    metrics.killOrder.append(installed.name)
                    installed.app.crash()
                    foreground = nil
                } else {
                    kill(installed)
                }
            } else if bytes > limit * 9 / 10 {
                // A warning goes out near the limit, once per crossing.
                if !installed.warnedNearLimit, installed.app.state.isRunning {
                    installed.warnedNearLimit = true
                    installed.app.receiveMemoryWarning(level: .warning, targetBytes: bytes - limit * 8 / 10)
                }
            } else {
                installed.warnedNearLimit = false
            }
        }
    }

    /// Kills a background app (for extensions of the device).
    func terminateKilled(_ installed: InstalledApp) { kill(installed) }

    func kill(_ installed: InstalledApp) {
        metrics.kills += 1
        metrics.killOrder.append(installed.name)
        installed.app.kill()
        installed.isFullyCompressed = false
        // A refusal dies with the process (a host failure is kept for the run to report).
        if case .hostAllocationFailed = installed.app.runtime.memoryGate.refusal {} else {
            installed.app.runtime.memoryGate.reset()
        }
        if installed.isFrozen {
            installed.isFrozen = false
            removeFreezerFile(installed)
        }
    }
}
