/// Applying a user's or the system's action to the device.
extension Device {
    /// Applies `action` and ends the step: refused allocations end their apps, pressure is
    /// evaluated and limits enforced (``finishStep()``).
    ///
    /// - Returns: what the step did (``StepOutcome``): whether the action applied (a `pop`
    ///   with nothing to pop, a `push` with no navigation stack in front, Home with no app in
    ///   front do not: nothing changed and the step counts as skipped), and what the device
    ///   did meanwhile, noted where it happened. When the host itself refused an allocation
    ///   the step is not finished and the outcome says so
    ///   (``StepOutcome/hostAllocationFailure``): the run cannot go on measuring.
    /// - Throws: what the app's runtime throws (a screen that cannot be built);
    ///   ``PolicyError/mistake(_:)`` with the step's first ``PolicyMistake`` (an action or a
    ///   plan the device could not carry out), unless ``lenientPolicies``: the step is
    ///   finished first, without the rest of the policy's actions of that reclaim.
    @discardableResult
    public func perform(_ action: UserAction) throws -> StepOutcome {
        notes = StepNotes()
        let mistakesBefore = policyMistakes.count
        let applied: Bool
        do {
            applied = try apply(action)
        } catch where apps.contains(where: { $0.app.runtime.memoryGate.refusal != nil }) {
            // An allocation was refused in the middle of the step: the app is being killed,
            // and what failed with it does not fail the run (finishStep ends the process).
            applied = true
        }
        if let failed = apps.first(where: { if case .hostAllocationFailed = $0.app.runtime.memoryGate.refusal { true } else { false } }) {
            return StepOutcome(applied: applied, marks: notes.marks(warning: false),
                               hostAllocationFailure: .init(app: failed.name, refusal: failed.app.runtime.memoryGate.refusal!),
                               admissionReclaims: notes.admissionReclaims)
        }
        try finishStep()
        collectCleanupMistakes()
        if !lenientPolicies, policyMistakes.count > mistakesBefore { throw PolicyError.mistake(policyMistakes[mistakesBefore]) }
        let isWarning: Bool
        if case .warning = action { isWarning = true } else { isWarning = false }
        return StepOutcome(applied: applied, marks: notes.marks(warning: isWarning), admissionReclaims: notes.admissionReclaims)
    }

    /// Applies one action; false when it does not apply now.
    private func apply(_ action: UserAction) throws -> Bool {
        let front = foreground?.app
        switch action {
        case .launch(let app), .switchTo(let app):
            try open(app)
        case .home:
            guard foreground != nil else { return false }
            try goHome()
        case .idle(let seconds):
            idle(seconds: seconds)
        case .interrupt(let seconds):
            return interrupt(seconds: seconds)
        case .launchBackground(let app):
            return try launchInBackground(app)
        case .backgroundFetch(let app):
            return try backgroundFetch(app)
        case .warning(let level):
            injectWarning(level)
        case .push(let screen):
            guard let app = front, app.runtime.registeredScreens[screen] != nil, let navigation = app.window.frontNavigation
            else { return false }
            try navigation.push(try app.runtime.makeController(screen: screen))
        case .pop(let count):
            guard let navigation = front?.window.frontNavigation, navigation.viewControllers.count > 1 else { return false }
            try navigation.pop(count: count)
        case .popToRoot:
            guard let navigation = front?.window.frontNavigation, navigation.viewControllers.count > 1 else { return false }
            try navigation.popToRoot()
        case .selectTab(let index):
            guard let tabs = front?.window.visibleControllers.first(where: { $0 is TabBarController }) as? TabBarController,
                  tabs.tabs.indices.contains(index) else { return false }
            try tabs.select(index)
        case .present(let screen):
            guard let app = front, app.runtime.registeredScreens[screen] != nil,
                  let context = app.window.presentationContext else { return false }
            try context.present(try app.runtime.makeController(screen: screen))
        case .dismiss:
            guard let top = front?.window.presentationContext, top.presentingViewController != nil else { return false }
            try top.dismiss()
        case .type(let bytes):
            guard let top = front?.window.topViewController else { return false }
            top.type(bytes: bytes)
        case .scroll(let rows):
            guard let table = front?.window.topViewController as? TableViewController else { return false }
            table.scroll(by: rows)
        case .grow(let bytes):
            guard let app = front else { return false }
            return app.grow(by: bytes)
        }
        return true
    }
}

extension Device {
    /// How long a background fetch may run: "up to 30 seconds of wall-clock time" (UIKit,
    /// `UIApplicationDelegate.application(_:performFetchWithCompletionHandler:)`, iOS 7).
    public static let backgroundFetchSeconds: Double = 30

    /// Background App Refresh (iOS 7 and later; README, "The app life cycle"): an
    /// app with no process is launched into the background, a suspended one is woken there;
    /// either runs for ``backgroundFetchSeconds`` (or longer, if its background mode lets it),
    /// then is suspended when that time is over. False when the release has no background
    /// fetch, the app is in front (nothing to model), or frozen (waking a frozen process is
    /// not modelled).
    private func backgroundFetch(_ name: String) throws -> Bool {
        guard let target = installed(name) else { throw RuntimeError.unknownApp(name) }
        guard model.os.hasBackgroundFetch else { return false }
        switch target.app.state {
        case .notRunning:
            guard try launchInBackground(name), target.app.state.hasProcess else { return true }
        case .suspended:
            guard !target.isFrozen else { return false }
            now += 1
        case .background:
            break
        case .active, .inactive:
            return false
        }
        if target.app.state == .suspended {
            target.app.state = .background
            target.app.recordApp(.runningInBackground)
        }
        target.backgroundUntil = max(target.backgroundUntil ?? 0, now + Self.backgroundFetchSeconds)
        enforce()
        return true
    }
}

extension Window {
    /// The last navigation stack among the visible controllers: where pushes and pops go.
    var frontNavigation: NavigationController? {
        visibleControllers.last { $0 is NavigationController } as? NavigationController
    }
}
