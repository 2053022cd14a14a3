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
        // 4 suspended, 40% available (under the 50% threshold): the thread runs, may not freeze,
        // and sleeps 10 s (memorystatus_freezer_thread_next_run_ts is set after every run).
        #expect(device.metrics.freezes == 0)
        #expect(Double(device.usedBytes) / Double(80 << 20) > 0.5)
        try device.open("app5")
        #expect(device.metrics.freezes == 0)
        device.idle(seconds: 10)
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
        #expect(OSRelease.iOS12.memorySystem.freezer.dailyBudgetBytes == 1024 << 20)
        #expect(OSRelease.iOS18.memorySystem.freezer.dailyBudgetBytes == 2048 << 20)
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

    /// A snapshot of the freezer's decision: `apps` on a device with half of it available, the
    /// freezer's counts as XNU keeps them.
    static func freezerSnapshot(_ apps: [AppSnapshot], frozen: Int, release: OSRelease = .iOS18) -> DeviceSnapshot {
        DeviceSnapshot(apps: apps, usedBytes: 60, budgetBytes: 100, level: .normal, bytesToFree: 0, freezeBudgetBytes: 1 << 30,
                       runningAppsWarned: false, release: release,
                       freezer: FreezerSnapshot(budgetBytes: 1 << 30, frozenCount: frozen, refreezeEligibleCount: 0, mayRunNow: true))
    }

    static func app(_ name: String, _ state: AppState, frozenBefore: Bool = false, order: UInt64) -> AppSnapshot {
        AppSnapshot(name: name, state: state, isForeground: state == .active, isFrozen: false, bytes: 10 << 20,
                    lastUsed: Double(order), useOrder: order, band: state == .active ? .foreground : .idle, oomScoreAdj: 900,
                    hasBeenFrozen: frozenBefore, isRefreezeEligible: frozenBefore)
    }

    @Test("a thawed app still counts as frozen (memorystatus_on_resume keeps memorystatus_frozen_count): suspended - frozen > 4, unsigned (memorystatus_can_freeze_processes)")
    func thawedStillCountsAsFrozen() {
        let fiveSuspended = (1...5).map { Self.app("s\($0)", .suspended, order: UInt64($0)) }
        // F1, frozen before and thawed, is in front: suspended 5 - frozen 1 = 4: no freeze.
        let thawedInFront = Self.freezerSnapshot(fiveSuspended + [Self.app("f1", .active, frozenBefore: true, order: 9)], frozen: 1)
        #expect(!FreezePolicy.freezerRuns(thawedInFront))
        #expect(FreezePolicy().nextAction(thawedInFront) == .freezerRan)
        // F1 goes home: suspended 6 - frozen 1 = 5: the head of the idle band is frozen.
        let thawedSuspended = Self.freezerSnapshot(fiveSuspended + [Self.app("f1", .suspended, frozenBefore: true, order: 9)], frozen: 1)
        #expect(FreezePolicy().nextAction(thawedSuspended) == .freeze("s1"))
        // More frozen than suspended: the unsigned difference wraps and the test passes.
        let wrapped = Self.freezerSnapshot([Self.app("s1", .suspended, order: 1)], frozen: 3)
        #expect(FreezePolicy.freezerRuns(wrapped))
    }

    @Test("iOS 18 caps a freeze at the budget left (vm_map_freeze stops at memorystatus_freeze_budget_pages_remaining); iOS 12 freezes the whole app (xnu-4903 vm_map_freeze ignores its dirty_budget)")
    func freezeCappedAtBudget() throws {
        for release in [OSRelease.iOS18, .iOS12] {
            let app = try DeviceTests.app("a", bitmap: 9 << 20)
            app.appDataBytes = 9 << 20
            let other = try DeviceTests.app("b")
            let device = XNUFidelityTests.device([app, other], budget: 1 << 30, release: release, termination: FreezePolicy(),
                                                 freezeBudget: 12 << 20)
            try device.open("a")
            try device.open("b")
            let installed = device.installed("a")!
            let before = installed.bytes
            #expect(device.freezer.freezeWithinBudget(installed, on: device) == .frozen)
            #expect(installed.isFrozen)
            if release == .iOS18 {
                // The controller's 9 MiB and more fit the 12 MiB left; the app's 9 MiB of data do not: resident.
                #expect(installed.bytes > 9 << 20 && installed.bytes < before / 2 + (1 << 20))
                #expect(device.freezeBudgetBytes >= 0)
            } else {
                #expect(installed.bytes < 1 << 20)
                #expect(device.freezeBudgetBytes < 0)   // the overshoot comes out of the next window
            }
            #expect(try device.open("a") == .thaw)
            #expect(installed.bytes == before)
        }
    }

    @Test("iOS 18: when the budget left fits no region, nothing is written and the app stays as it was, suspended, neither frozen nor killed (memorystatus_freeze_process: the cap passed to vm_map_freeze; nothing fits: an estimate of where pages split)")
    func nothingFitsTheBudget() throws {
        let app = try DeviceTests.app("a", bitmap: 9 << 20)
        let other = try DeviceTests.app("b")
        let device = XNUFidelityTests.device([app, other], budget: 1 << 30, release: .iOS18, termination: FreezePolicy(),
                                             freezeBudget: 512)
        try device.open("a")
        try device.open("b")
        let installed = device.installed("a")!
        let before = installed.bytes
        #expect(device.freezer.freezeWithinBudget(installed, on: device) == .nothingFitsTheBudget)
        #expect(!installed.isFrozen && app.state == .suspended)
        #expect(installed.bytes == before)
        #expect(device.metrics.freezes == 0 && device.metrics.kills == 0 && device.metrics.frozenBytesWritten == 0)
    }
}
