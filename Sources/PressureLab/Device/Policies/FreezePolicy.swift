/// XNU's freezer beside jetsam (``FreezerRules``): while available memory is at most half
/// the budget, the freezer thread (at most one run every 10 s, one process a run) freezes the
/// head of the idle band (the app suspended longest ago) when more than 4 suspended apps are
/// not frozen, fewer than 20 are frozen and its budget lasts; thawed apps are refrozen as the
/// release says. Jetsam (``JetsamPolicy``) does the rest: it kills only what the freezer
/// would not freeze now.
///
/// XNU's freezer runs before jetsam (its threshold, 50% of memory available, is far above
/// jetsam's) and moves pages already in the compressor into its own segments without
/// decompressing them: a compressed app is frozen like any other.
///
/// On an Android profile this is a what-if: Android ships no such freezer (its
/// `CachedAppOptimizer` freezes a cached app's CPU, not its memory; see
/// ``LowMemoryKillerPolicy``).
public struct FreezePolicy: TerminationPolicy {
    /// `freeze`.
    public let name = "freeze"
    /// The policy.
    public init() {}

    /// The next kill or freeze the rules call for, or nil.
    public func nextAction(_ device: DeviceSnapshot) -> ReclaimAction? {
        if Self.freezerThreadRuns(device) {
            return Self.freezerChoice(device).map { .freeze($0.name) } ?? .freezerRan
        }
        return JetsamPolicy().nextAction(device)
    }

    public func notifications(_ device: DeviceSnapshot, previousLevel: PressureLevel) -> [AppNotification] {
        JetsamPolicy().notifications(device, previousLevel: previousLevel)
    }

    /// Whether the freezer thread runs now (`memorystatus_freeze_thread_should_run`, both
    /// releases): its next run time has come, available memory is at most half the budget
    /// (`<=`), and a slot is free or enough thawed apps wait to be refrozen. It does not test
    /// the budget or the suspended count: the thread itself does, and its next run is set
    /// whether it froze or not (``ReclaimAction/freezerRan``).
    public static func freezerThreadRuns(_ device: DeviceSnapshot) -> Bool {
        let freezer = device.freezer
        return freezer.mayRunNow
            && device.availableBytes <= Int(FreezerRules.availableFraction * Double(device.budgetBytes))
            && (freezer.frozenCount < FreezerRules.maxFrozen || freezer.refreezeEligibleCount >= FreezerRules.refreezeThreshold)
    }

    /// Whether the running thread may freeze (`memorystatus_can_freeze`,
    /// `memorystatus_can_freeze_processes`, both releases): budget left, and
    /// `memorystatus_suspended_count - memorystatus_frozen_count` above 4. Both counts are
    /// XNU's: every suspended process (frozen or not) against every frozen one alive (a
    /// thawed process stays counted: `memorystatus_on_resume` leaves `memorystatus_frozen_count`
    /// alone), and the subtraction is unsigned, so with more frozen than suspended processes it
    /// wraps and the test passes.
    public static func freezerRuns(_ device: DeviceSnapshot) -> Bool {
        guard freezerThreadRuns(device), device.freezer.budgetBytes > 0 else { return false }
        let suspended = device.apps.filter { $0.state == .suspended }.count
        let frozen = device.freezer.frozenCount
        return frozen > suspended || suspended - frozen > FreezerRules.suspendedThreshold
    }

    /// The app the freezer would freeze now, if any (`memorystatus_freeze_pick_process`;
    /// xnu-4903 `memorystatus_freeze_top_process`).
    ///
    /// New candidates: suspended, in the idle band, never frozen, a footprint of at least
    /// 8 MB (`memorystatus_is_process_eligible_for_freeze`), head of the band first.
    /// Refreezes: frozen before, thawed since (`P_MEMSTAT_REFREEZE_ELIGIBLE`), suspended
    /// again, in their band's order; iOS 12 takes them only when 20 are frozen, iOS 18 also
    /// when no new candidate is found and at least 3 were thawed.
    public static func freezerChoice(_ device: DeviceSnapshot) -> AppSnapshot? {
        guard freezerRuns(device) else { return nil }
        let rules = device.system.freezer
        let byBand = device.apps.sorted { ($0.band, $0.bandOrder) < ($1.band, $1.bandOrder) }
        let fresh = byBand.first {
            $0.state == .suspended && !$0.isForeground && $0.band == .idle && !$0.hasBeenFrozen
                && $0.footprintBytes >= FreezerRules.minimumBytes
        }
        let refreeze = byBand.first {
            $0.state == .suspended && !$0.isForeground && $0.hasBeenFrozen && $0.isRefreezeEligible && !$0.isFrozen
        }
        let full = device.freezer.frozenCount >= FreezerRules.maxFrozen
        let enoughThawed = device.freezer.refreezeEligibleCount >= FreezerRules.refreezeThreshold
        // Full: only refreezes (``freezerRuns`` let it run because enough were thawed).
        if full { return refreeze }
        if let fresh { return fresh }
        return rules.refreezesWhenNoNewCandidate && enoughThawed ? refreeze : nil
    }
}
