/// Enforcing the budget: pressure levels, the termination policy's notifications and
/// actions one at a time, per-app limits, and kills.
extension Device {
    /// Evaluates pressure, delivers the policy's warnings or trim levels, and lets the
    /// termination policy act, one action at a time, until it has nothing more to do.
    /// Per-app limits are enforced first, under every policy.
    public func enforce() {
        suspendAppsWhoseBackgroundTimeIsOver()
        activityManager.restartKilledServices(on: self)
        // The runtime's work due by now (Android: ART's collections in the background).
        system.stepEnding(on: self)
        endRefusedApps()
        if let linuxKernel { linuxKernel.runKswapd(on: self) } else { system.trimPageCache(on: self) }
        refreshPriorities()
        system.enforceProcessLimits(on: self)
        let previousMeasured = measuredLevel
        // Each source asked once, in order (a source may keep state: hysteresis, a pending
        // warning); the highest level overall, of measured use, and of the other sources.
        let used = usedBytes
        var highest = PressureLevel.normal, measured = PressureLevel.normal, injected = PressureLevel.normal
        for source in pressureSources {
            let sourceLevel = source.level(usedBytes: used, budgetBytes: budgetBytes)
            highest = max(highest, sourceLevel)
            if source is MeasuredPressure { measured = max(measured, sourceLevel) } else { injected = max(injected, sourceLevel) }
        }
        level = highest
        measuredLevel = measured
        injectedLevel = injected
        // A warning from a source other than measured use (a script, a live bridge) is
        // delivered to the running apps as such, whatever the policy.
        if injected > .normal {
            for installed in apps where installed.app.state.isRunning {
                installed.app.receiveMemoryWarning(level: injected)
            }
        }
        let clear = Int(model.thresholds.warningClear * Double(budgetBytes))
        // The policy's warnings and trims follow measured use (an injected warning went out above).
        var noticed = deviceSnapshot(used: usedBytes, target: clear, warned: false)
        noticed.level = measuredLevel
        deliver(termination.notifications(noticed, previousLevel: previousMeasured))
        reclaim(downTo: clear, emergencyBytes: 0, sparing: nil)
        level = pressureSources.first.map { $0.level(usedBytes: usedBytes, budgetBytes: budgetBytes) } ?? .normal
        if pressureSources.first is MeasuredPressure { measuredLevel = level }
        usedAtLastEvaluation = usedBytes
        linuxKernel?.stepEnded()
    }

    /// Delivers warnings and trim levels. A suspended app whose memory is paged out
    /// (compressed or frozen) is not trimmed: freeing would first page its memory back in,
    /// under pressure (its stored level is kept as sent).
    func deliver(_ notifications: [AppNotification]) {
        for notification in notifications {
            switch notification {
            case .memoryWarning(let name, let warningLevel):
                guard let target = installed(name), target.app.state.isRunning else { continue }
                target.app.receiveMemoryWarning(level: warningLevel)
            case .trimMemory, .storeTrimLevel, .storeMemoryFactor:
                activityManager.deliver(notification, on: self)
            }
        }
    }

    /// Lets the termination policy act, one action at a time, until it returns nil.
    ///
    /// The compressor goes first: while use is above `target` under pressure (or an
    /// allocation waits), suspended apps are compressed, least recently used first, before
    /// the policy is asked (a suspended app compressed is an app not killed).
    ///
    /// - Parameters:
    ///   - emergencyBytes: the device's memory ran out in the middle of a step; this many
    ///     bytes are wanted for `sparing`'s allocation. Only other apps are killed or frozen,
    ///     at the critical level; no warnings (apps run no code in the middle of another's
    ///     allocation), and the foreground app is never killed here (the waiting allocation
    ///     is refused instead).
    ///   - sparing: the app whose allocation waits; it is treated as in front.
    func reclaim(downTo target: Int, emergencyBytes: Int, sparing: InstalledApp?) {
        let emergency = emergencyBytes > 0
        var warned = emergency
        var kills = 0
        let eventLevel = emergency ? PressureLevel.critical : level
        let bound = Self.actionsPerReclaimBound(apps: apps.count)
        var rounds = 0, lastAsked: ReclaimAction?
        reclaim: while true {
            rounds += 1
            guard rounds <= bound else {
                // The policy was still acting at the bound: it never returns nil.
                if let lastAsked { recordMistake(lastAsked, .neverDone(bound: bound)) }
                break reclaim
            }
            lastAsked = nil
            let used = liveUsedBytes
            // With the kernel's books, kswapd did the background reclaim (its own balance of
            // file and anonymous pages); here only an allocation's emergency or memory past min.
            let wantsRoom = emergency ? used > budgetBytes - emergencyBytes
                : linuxKernel != nil ? used > budgetBytes : (level > .normal && used > target) || used > budgetBytes
            if emergency && !wantsRoom { break reclaim }
            if wantsRoom, let candidate = compressor?.candidate(sparing: sparing, on: self), compress(candidate) { continue reclaim }
            // Then the swap file, when there is one.
            if wantsRoom, let candidate = swapFile?.candidate(sparing: sparing, on: self), swapOut(candidate) { continue reclaim }
            refreshPriorities()
            var state = deviceSnapshot(used: used, target: emergency ? budgetBytes - emergencyBytes : target,
                                       emergencyBytes: emergencyBytes, sparing: sparing, warned: warned)
            state.killsInThisEvent = kills
            state.eventLevel = eventLevel
            guard let action = policyCalls.marking(.nextAction, { termination.nextAction(state) }) else { break reclaim }
            lastAsked = action
            // An action the device cannot carry out is the policy's mistake (docs/extending.md).
            if let mistake = mistake(in: action, emergency: emergency) {
                recordMistake(action, mistake)
                break reclaim
            }
            switch action {
            case .kill(let name, let reason):
                // An app's secondary process (Android), else the app.
                let process = activityManager.secondaryProcess(named: name, on: self), victim = installed(name)
                guard process != nil || (victim != nil && victim !== sparing) else { break reclaim }
                // Clean pages go before anyone is killed.
                if system.dropBackgroundCleanPages(sparing: sparing, on: self) > 0 { continue reclaim }
                if let (owner, process) = process {
                    activityManager.kill(process, of: owner, reason: reason, on: self)
                } else if let victim {
                    kill(victim, reason: reason)
                }
                if !reason.isActivityManagers { kills += 1 }
                if !emergency { readPressureAgain() }
            case .freeze(let name):
                guard let victim = installed(name), victim !== sparing else { break reclaim }
                freezer.ran(at: now)
                switch freezer.freezeWithinBudget(victim, on: self) {
                case .frozen, .nothingFitsTheBudget: break
                case .failed: kill(victim, reason: .policy)
                }
            case .freezerRan:
                freezer.ran(at: now)
            case .compact(let name):
                guard let victim = installed(name), victim !== sparing, activityManager.compact(victim, on: self) else { break reclaim }
            case .warnRunningApps:
                guard !emergency else { break reclaim }
                warned = true
                for installed in apps where installed.app.state.isRunning {
                    installed.app.receiveMemoryWarning(level: level, targetBytes: used - target)
                }
            case .killForeground(let reason):
                guard !emergency, let victim = foreground else { break reclaim }
                if system.dropBackgroundCleanPages(sparing: sparing, on: self) > 0 { continue reclaim }
                recordCrash(of: victim, reason: reason)
                victim.app.crash()
                foreground = nil
                kills += 1
                readPressureAgain()
            }
        }
    }

    /// Memory read again after a kill, before the policy decides again: lmkd kills one process
    /// per call and decides the next on fresh figures (Android 10 `mp_event_common` polls its
    /// handler every 10 ms after an event, each call reading `/proc/meminfo` again but keeping
    /// the event's level, ``LowMemoryKillerRules/holdsEventLevel``; Android 14 `mp_event_psi`
    /// decides afresh, waiting for the victim to die first), and jetsam's thread re-tests memory
    /// after each kill (`memorystatus_thread`). The measured level moves with its hysteresis; a
    /// level injected this step (a script's warning) stays.
    func readPressureAgain() {
        guard let measured = pressureSources.first as? MeasuredPressure else { return }
        let now = measured.level(usedBytes: usedBytes, budgetBytes: budgetBytes)
        measuredLevel = now
        level = max(now, injectedLevel)
    }
}
