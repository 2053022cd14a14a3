/// XNU's jetsam (`bsd/kern/kern_memorystatus.c`, `kern_memorystatus_policy.c`), rule by rule
/// as ``JetsamRules`` gives them for the device's release:
///
/// - Available memory below the idle threshold: kill idle-band (0) processes, head of the
///   band first (xnu-11417 `memorystatus_pick_action`, `MEMORYSTATUS_KILL_IDLE`, cause
///   `IDLE_EXIT`; xnu-4903's critical threshold is raised by the idle offset while the idle
///   band has a process, and its loop records every kill as `VMPAGESHORTAGE`:
///   ``JetsamRules/idleKillReason``). iOS 12 compares `<=`, iOS 18 `<`
///   (``JetsamRules/isShort(_:of:)``).
/// - Below the critical threshold (the system is unhealthy,
///   `memorystatus_is_system_healthy`), or an allocation waiting: kill in any band, lowest
///   band first, head first within a band (`MEMORYSTATUS_KILL_TOP_PROCESS`, cause
///   `VMPAGESHORTAGE`); frozen processes are not skipped, they die at their band (75), and
///   the foreground app (100) after them.
/// - One kill per decision (`memorystatus_kill_top_process` returns after its first kill and
///   the jetsam thread picks its action again).
/// - Warnings are not a rung of this ladder: running apps are told when the pressure level
///   rises (``notifications(_:previousLevel:)``).
public struct JetsamPolicy: TerminationPolicy {
    /// `jetsam`.
    public let name = "jetsam"
    /// The policy.
    public init() {}

    /// The next kill or freeze the rules call for, or nil.
    public func nextAction(_ device: DeviceSnapshot) -> ReclaimAction? {
        let rules = device.system.jetsam
        let shortage = rules.pageShortage(memoryBytes: device.memoryBytes)
        let available = device.availableBytes
        let critical = device.emergencyBytes > 0 || rules.isShort(available, of: Self.threshold(shortage.critical, of: device.budgetBytes))
        let idle = rules.isShort(available, of: Self.threshold(shortage.idle, of: device.budgetBytes))
        if critical {
            guard let victim = Self.victims(device).first else { return nil }
            return victim.isForeground ? .killForeground(.vmPageShortage) : .kill(victim.name, .vmPageShortage)
        }
        if idle, let victim = Self.victims(device).first(where: { $0.band == .idle }) {
            return .kill(victim.name, rules.idleKillReason)
        }
        return nil
    }

    /// Memory warnings when the level rises: XNU notifies each process once per level while
    /// it lasts (`memorystatus_update_vm_pressure`, `task_has_been_notified`), the least
    /// important (lowest band) first, the largest first within a band
    /// (`vm_pressure_select_optimal_candidate_to_notify`); UIKit turns the notification into
    /// `didReceiveMemoryWarning` for a running app (suspended apps run no code).
    public func notifications(_ device: DeviceSnapshot, previousLevel: PressureLevel) -> [AppNotification] {
        guard device.level > previousLevel, device.level > .normal else { return [] }
        return device.apps.filter { $0.state.isRunning }
            .sorted { ($0.band, -$0.footprintBytes, $0.name) < ($1.band, -$1.footprintBytes, $1.name) }
            .map { .memoryWarning($0.name, device.level) }
    }

    /// Kill candidates in jetsam order: every app with a process, lowest band first, head
    /// of the band first (the one that entered it longest ago).
    public static func victims(_ device: DeviceSnapshot) -> [AppSnapshot] {
        device.apps.filter { $0.state.hasProcess }
            .sorted { ($0.band, $0.bandOrder) < ($1.band, $1.bandOrder) }
    }

    /// A fraction of the budget, in bytes.
    static func threshold(_ fraction: Double, of budget: Int) -> Int {
        Int((fraction * Double(budget)).rounded(.down))
    }
}
