import Foundation
@testable import PressureLab
import PressureLabHeap
import Testing

/// XNU's freezer (`bsd/kern/kern_memorystatus_freeze.c`; in xnu-4903 `kern_memorystatus.c`),
/// rule by rule: docs/fidelity.md's freezer rows.
@Suite("XNU fidelity: the freezer")
struct FreezerFidelityTests {
    /// Apps of about 9.5 MiB (over FREEZE_PAGES_MIN, 8 MB).
    static func apps(_ count: Int) throws -> [Application] {
        try (0..<count).map { try DeviceTests.app("app\($0)", bitmap: 9 << 20) }
    }

    static func device(_ apps: [Application], budget: Int, release: OSRelease = .iOS12, compressor: Compressor = .none,
                       termination: any TerminationPolicy = FreezePolicy()) -> Device {
        XNUFidelityTests.device(apps, budget: budget, release: release, termination: termination, compressor: compressor)
    }

    @Test("the freezer needs more than 4 suspended apps not frozen (FREEZE_SUSPENDED_THRESHOLD_DEFAULT, memorystatus_can_freeze), then takes the head of the idle band into its band (UI_SUPPORT on iOS 12)")
    func suspendedThreshold() throws {
        let apps = try Self.apps(6)
        let device = Self.device(apps, budget: 80 << 20)
        for app in apps.prefix(5) { try device.open(app.name) }
        // 4 suspended, 40% available (under the 50% threshold): no freeze.
        #expect(device.metrics.freezes == 0)
        #expect(Double(device.usedBytes) / Double(80 << 20) > 0.5)
        try device.open("app5")
        #expect(device.metrics.freezes == 1)
        let frozen = device.installed("app0")!
        #expect(frozen.isFrozen && frozen.hasBeenFrozen)
        #expect(device.band(of: frozen) == .uiSupport)
        #expect(device.metrics.kills == 0)
    }

    @Test("one process a run, a run every 10 s (memorystatus_freezer_thread_next_run_ts); a thaw keeps P_MEMSTAT_FROZEN: on iOS 18 the app is back in band 75 once suspended, refreeze-eligible")
    func cadenceAndThaw() throws {
        let apps = try Self.apps(8)
        let device = Self.device(apps, budget: 100 << 20, release: .iOS18)
        for app in apps.prefix(6) { try device.open(app.name) }
        device.idle(seconds: 3)
        #expect(device.metrics.freezes == 1)
        try device.open("app6")
        #expect(device.metrics.freezes == 1)  // the next run is 10 s after the last
        device.idle(seconds: 10)
        #expect(device.metrics.freezes == 2)
        #expect(device.installed("app0")!.isFrozen && device.installed("app1")!.isFrozen)
        #expect(try device.open("app0") == .thaw)
        let thawed = device.installed("app0")!
        #expect(!thawed.isFrozen && thawed.hasBeenFrozen && thawed.isRefreezeEligible)
        try device.open("app7")
        #expect(device.band(of: thawed) == .freezer)
    }

    @Test("the budget (memorystatus_freeze_calculate_new_budget): a window's bytes, what is unused rolls over, an overshoot comes out of the next window")
    func budgetWindow() {
        var budget = FreezerBudget(windowBytes: 100, windowSeconds: 10)
        budget.spend(60)
        #expect(budget.remainingBytes == 40)
        budget.advance(to: 9.9)
        #expect(budget.remainingBytes == 40)
        budget.advance(to: 10)
        #expect(budget.remainingBytes == 140)
        budget.spend(200)
        #expect(budget.remainingBytes == -60)
        budget.advance(to: 35)  // two windows end (20 and 30)
        #expect(budget.remainingBytes == 140)
        #expect(FreezerRules(release: .iOS12).dailyBudgetBytes == 1024 << 20)
        #expect(FreezerRules(release: .iOS18).dailyBudgetBytes == 2048 << 20)
    }

    @Test("freezing a compressed app moves its compressed pages to the file as they are (vm_object_compressed_freezer_pageout, vm_compressor_pager_relocate): nothing is compressed again, the thaw gives every byte back")
    func compressedAppIsFrozen() throws {
        let apps = try Self.apps(2)
        let device = Self.device(apps, budget: 1 << 30, compressor: .lz4)
        try device.open("app0")
        try device.open("app1")
        let installed = device.installed("app0")!
        let before = installed.app.controllers.map(\.memoryChecksums)
        #expect(device.compress(installed))
        let stored = installed.app.runtime.compressedBytes
        let compressedWork = installed.app.runtime.work.bytesCompressed
        let regions = installed.app.runtime.compressedRegions
        let segments = device.compressedPool!.segmentsNow
        #expect(regions > 0)
        #expect(device.freeze(installed))
        #expect(installed.app.runtime.work.bytesCompressed == compressedWork)
        #expect(installed.app.runtime.compressedBytes == 0 && !installed.isCompressed)
        #expect(device.compressedPool!.relocations == regions)
        // The file holds the pool's pages as they were (header and stored bytes), without the
        // header of each segment that held them in the pool.
        #expect(segments > 0 && device.metrics.frozenBytesWritten == stored - segments * CompressedPageChain.segmentHeaderBytes)
        #expect(try device.open("app0") == .thaw)
        #expect(installed.app.controllers.map(\.memoryChecksums) == before)
    }

    @Test("whom the freezer picks (memorystatus_freeze_pick_process; xnu-4903 memorystatus_freeze_top_process): new candidates first, refreezes when full or, on iOS 18, when none is new and 3 were thawed")
    func choice() {
        func app(_ name: String, band: JetsamBand, order: UInt64, frozen: Bool = false, thawed: Bool = false,
                 bytes: Int = 16 << 20, state: AppState = .suspended) -> AppSnapshot {
            AppSnapshot(name: name, state: state, isForeground: state == .active, isFrozen: false, bytes: bytes, lastUsed: 0,
                        useOrder: order, band: band, oomScoreAdj: 900, bandOrder: order, hasBeenFrozen: frozen,
                        isRefreezeEligible: thawed)
        }
        let fillers = (0..<5).map { app("idle\($0)", band: .idle, order: UInt64(10 + $0), bytes: 1 << 20) }
        var snapshot = DeviceSnapshot(apps: fillers + [app("new", band: .idle, order: 20), app("thawed", band: .freezer, order: 1,
                                                                                           frozen: true, thawed: true)],
                                      usedBytes: 60, budgetBytes: 100, level: .normal, bytesToFree: 0, freezeBudgetBytes: 1 << 30,
                                      runningAppsWarned: false, release: .iOS18,
                                      freezer: FreezerSnapshot(budgetBytes: 1 << 30, frozenCount: 1, refreezeEligibleCount: 3))
        // The small idle apps are under 8 MB: the first eligible new candidate is "new".
        #expect(FreezePolicy.freezerChoice(snapshot)?.name == "new")
        // None new: iOS 18 refreezes (3 thawed), iOS 12 does not until 20 are frozen.
        snapshot.apps.removeAll { $0.name == "new" }
        #expect(FreezePolicy.freezerChoice(snapshot)?.name == "thawed")
        snapshot.release = .iOS12
        #expect(FreezePolicy.freezerChoice(snapshot) == nil)
        snapshot.freezer.frozenCount = 20
        #expect(FreezePolicy.freezerChoice(snapshot)?.name == "thawed")
        // More than half available, the thread's time not come, or no budget: the freezer does not run.
        snapshot.freezer.frozenCount = 1
        snapshot.release = .iOS18
        snapshot.usedBytes = 40
        #expect(!FreezePolicy.freezerRuns(snapshot))
        snapshot.usedBytes = 60
        snapshot.freezer.mayRunNow = false
        #expect(!FreezePolicy.freezerRuns(snapshot))
        snapshot.freezer.mayRunNow = true
        snapshot.freezer.budgetBytes = 0
        #expect(!FreezePolicy.freezerRuns(snapshot))
    }

    /// Wraps the freeze policy and notes every kill it asks for while the freezer would
    /// freeze someone.
    final class Watch: TerminationPolicy {
        let name = "freeze-watched"
        var violations: [String] = []
        var kills = 0
        func nextAction(_ device: DeviceSnapshot) -> ReclaimAction? {
            let action = FreezePolicy().nextAction(device)
            if case .kill(let victim, _) = action {
                kills += 1
                if let choice = FreezePolicy.freezerChoice(device) { violations.append("\(victim) killed while \(choice.name) was freezable") }
            }
            return action
        }
    }

    @Test("no freezable app is killed by jetsam while the freezer has slots and budget (its threshold is far above jetsam's)")
    func noFreezableAppKilled() throws {
        let apps = try Self.apps(12)
        let watch = Watch()
        let device = Self.device(apps, budget: 90 << 20, release: .iOS18, termination: watch)
        for pass in 0..<2 {
            for app in apps {
                try device.open(app.name)
                if pass == 0 { device.idle(seconds: 5) }
            }
        }
        #expect(watch.violations.isEmpty, "\(watch.violations)")
        #expect(device.metrics.freezes > 0)
        #expect(watch.kills > 0)
    }
}
