import Foundation
@testable import PressureLab
import PressureLabHeap
import Testing

/// The rules of docs/fidelity.md's XNU table, each built as a situation and checked against
/// the outcome XNU's source prescribes (the test names the file and symbol).
@Suite("XNU fidelity: jetsam, per-process limits, footprints, the freezer")
struct XNUFidelityTests {
    static func device(_ apps: [Application], budget: Int, release: OSRelease = .iOS12,
                       termination: any TerminationPolicy = JetsamPolicy(), compressor: Compressor = .none,
                       limit: Int? = nil, inactiveLimit: Int? = nil, freezeBudget: Int? = nil) -> Device {
        let device = Device(model: .init(budgetBytes: budget, appLimitBytes: limit, appLimitInactiveBytes: inactiveLimit,
                                                 freezeWriteBudgetBytes: freezeBudget, compressor: compressor, release: release),
                            termination: termination)
        for app in apps { device.install(app) }
        return device
    }

    /// An app holding `bytes` of app-wide data (anonymous memory) besides its screens.
    static func bigApp(_ name: String, bytes: Int) throws -> Application {
        let app = try LifeCycleTests.app(name)
        app.appDataBytes = bytes
        return app
    }

    @Test("memory rules by release: the two XNU trees read (xnu-4903 for iOS 12 and earlier, xnu-11417 for iOS 18) and the two Android trees")
    func memoryRulesByRelease() {
        let rules = Dictionary(uniqueKeysWithValues: OSRelease.allCases.map { ($0, $0.memoryRules) })
        #expect(rules == [.iPhoneOS2: .iOS12, .iPhoneOS3: .iOS12, .iOS4: .iOS12, .iOS5: .iOS12, .iOS6: .iOS12,
                          .iOS7: .iOS12, .iOS12: .iOS12, .iOS13: .iOS12, .iOS18: .iOS18,
                          .android10: .android10, .android14: .android14])
    }

    @Test("page-shortage thresholds (memorystatus_init): iOS 18 by memory size 5/10%, 4/9%, 4/8%, the classes binary (3 GiB, 6 GiB); iOS 12 5% + the 5% idle offset")
    func thresholds() {
        let gigabyte = 1_000_000_000
        let rules = OSRelease.iOS18.memorySystem.jetsam
        #expect(rules.pageShortage(memoryBytes: 2 * gigabyte) == (0.05, 0.10))
        #expect(rules.pageShortage(memoryBytes: 4 << 30) == (0.04, 0.09))
        #expect(rules.pageShortage(memoryBytes: 8 * gigabyte) == (0.04, 0.08))
        // MEMORYSTATUS_SMALL_MEMORY_THRESHOLD = 3UL * (1UL << 30), _MEDIUM_ = 6UL * (1UL << 30):
        // 3 GiB (3,221,225,472 B) is small, 6 GiB medium; decimal gigabytes were wrong by 7%.
        #expect(rules.pageShortage(memoryBytes: 3 << 30) == (0.05, 0.10))
        #expect(rules.pageShortage(memoryBytes: (3 << 30) + 1) == (0.04, 0.09))
        #expect(rules.pageShortage(memoryBytes: 6 << 30) == (0.04, 0.09))
        #expect(rules.pageShortage(memoryBytes: (6 << 30) + 1) == (0.04, 0.08))
        #expect(OSRelease.iOS12.memorySystem.jetsam.pageShortage(memoryBytes: 4 << 30) == (0.05, 0.10))
    }

    @Test("within a band the head goes first: the app that entered it longest ago (memstat_update_priority_locked appends at the tail), not the least recently used")
    func withinBandEntryOrder() throws {
        // a is used first but plays audio for 5 s in the background; b is suspended before a's
        // audio stops, so b enters the idle band first and is killed first.
        let a = try LifeCycleTests.app("a", mode: .audio(seconds: 5))
        let b = try LifeCycleTests.app("b")
        let c = try LifeCycleTests.app("c")
        let device = Self.device([a, b, c], budget: 512 << 20)
        for app in [a, b, c] { try device.open(app.name) }
        #expect(device.band(of: device.installed("a")!) == .background)
        device.idle(seconds: 6)
        #expect(a.state == .suspended && b.state == .suspended)
        #expect(device.installed("a")!.useOrder < device.installed("b")!.useOrder)
        #expect(device.installed("b")!.bandOrder < device.installed("a")!.bandOrder)
        device.reclaim(downTo: 0, emergencyBytes: device.model.budgetBytes, sparing: nil)
        #expect(device.metrics.killOrder == ["b", "a"])
    }

    @Test("aging (memstat_update_priority_locked): on iOS 18 an app that asks for idle spends 2 s in band 20 first; iOS 12's legacy policy sends it straight to idle")
    func aging() throws {
        for release in [OSRelease.iOS18, .iOS12] {
            let a = try LifeCycleTests.app("a"), b = try LifeCycleTests.app("b")
            let device = Self.device([a, b], budget: 512 << 20, release: release)
            try device.open("a")
            try device.open("b")
            let installed = device.installed("a")!
            #expect(device.band(of: installed) == (release == .iOS18 ? .aging2 : .idle), "\(release)")
            device.idle(seconds: 1)
            #expect(device.band(of: installed) == (release == .iOS18 ? .aging2 : .idle), "\(release)")
            device.idle(seconds: 1)
            #expect(device.band(of: installed) == .idle, "\(release)")
        }
        // Idle-threshold kills take band 0 only: an aging app is spared until memory is critical.
        let aging = AppSnapshot(name: "aging", state: .suspended, isForeground: false, isFrozen: false, bytes: 1,
                                lastUsed: 0, useOrder: 1, band: .aging2, oomScoreAdj: 900)
        var snapshot = DeviceSnapshot(apps: [aging], usedBytes: 92, budgetBytes: 100, level: .warning, bytesToFree: 1,
                                      freezeBudgetBytes: 0, runningAppsWarned: false, release: .iOS18, memoryBytes: 4 << 30)
        #expect(JetsamPolicy().nextAction(snapshot) == nil)
        snapshot.usedBytes = 97
        #expect(JetsamPolicy().nextAction(snapshot) == .kill("aging", .vmPageShortage))
    }

    @Test("pressure notifications (memorystatus_update_vm_pressure): each running app once per rise, the lowest band first, the largest first within a band")
    func levelRiseWarnings() {
        func app(_ name: String, _ band: JetsamBand, _ state: AppState, bytes: Int, front: Bool = false) -> AppSnapshot {
            AppSnapshot(name: name, state: state, isForeground: front, isFrozen: false, bytes: bytes, lastUsed: 0,
                        useOrder: 0, band: band, oomScoreAdj: 0)
        }
        let snapshot = DeviceSnapshot(apps: [app("front", .foreground, .active, bytes: 9, front: true),
                                             app("music", .background, .background, bytes: 1),
                                             app("maps", .background, .background, bytes: 5),
                                             app("idle", .idle, .suspended, bytes: 50)],
                                      usedBytes: 85, budgetBytes: 100, level: .warning, bytesToFree: 0,
                                      freezeBudgetBytes: 0, runningAppsWarned: false)
        #expect(JetsamPolicy().notifications(snapshot, previousLevel: .normal)
            == [.memoryWarning("maps", .warning), .memoryWarning("music", .warning), .memoryWarning("front", .warning)])
        // The level holds: nobody is told again.
        #expect(JetsamPolicy().notifications(snapshot, previousLevel: .warning).isEmpty)
    }

    @Test("per-process limits (memstat_update_memlimit_locked): the active limit in front, the inactive one once suspended; crossing a fatal limit kills with PERPROCESSLIMIT")
    func activeAndInactiveLimits() throws {
        let perApp = try DeviceTests.appBytes()
        let a = try DeviceTests.app("a"), b = try DeviceTests.app("b")
        let device = Self.device([a, b], budget: 1 << 30, limit: perApp * 2, inactiveLimit: perApp / 2)
        try device.open("a")
        #expect(a.state == .active)
        try device.open("b")
        #expect(a.state == .notRunning)
        #expect(device.metrics.killReasons == [.perProcessLimit])
        #expect(device.metrics.limitKills == 1)
        #expect(a.runtime.trace.summary.contains("killed:per-process-limit"))
    }

    @Test("the limit's warning (PHYS_FOOTPRINT_WARNING_LEVEL 80%, osfmk/kern/task.c): once when the footprint reaches 80% of the limit, not again while it stays above")
    func limitWarning() throws {
        let perApp = try DeviceTests.appBytes()
        let hog = try DeviceTests.app("hog")
        let limit = perApp * 2
        let device = Self.device([hog], budget: 1 << 30, limit: limit)
        try device.open("hog")
        #expect(hog.runtime.cleanupCounters.warnings == 0)
        // To 85% of the limit: one warning.
        hog.window.topViewController!.type(bytes: limit * 85 / 100 - device.installed("hog")!.footprintBytes)
        try device.finishStep()
        #expect(hog.runtime.cleanupCounters.warnings == 1)
        // Still above 80% (95%): no second warning.
        hog.window.topViewController!.type(bytes: limit / 10)
        try device.finishStep()
        #expect(hog.runtime.cleanupCounters.warnings == 1)
        #expect(hog.state == .active)
    }

    @Test("phys_footprint counts compressed memory at its uncompressed size (init_task_ledgers; the pmap moves a page from internal to internal_compressed whole): compressing leaves the footprint as it was")
    func footprintCountsCompressedWhole() throws {
        let a = try DeviceTests.app("a"), b = try DeviceTests.app("b")
        let device = Self.device([a, b], budget: 1 << 30, compressor: .lz4)
        try device.open("a")
        try device.open("b")
        let installed = device.installed("a")!
        let footprintBefore = installed.footprintBytes, bytesBefore = installed.bytes
        #expect(device.compress(installed))
        let compressed = a.runtime.compressedBytes, original = a.runtime.compressedOriginalBytes
        #expect(compressed > 0 && original > 2 * compressed)
        #expect(installed.footprintBytes == installed.liveBytes - compressed + original)
        // The device's memory shrank by what compression saved; the footprint did not
        // (it differs only by size-class rounding and the pool's bookkeeping).
        #expect(installed.bytes < bytesBefore - original / 2)
        #expect(abs(installed.footprintBytes - footprintBefore) < 64 << 10)
    }

    /// Warnings the app received near its limit (its runtime's count).
    static func warnings(_ app: Application) -> Int { app.runtime.cleanupCounters.warnings }

    @Test("the limit's warning is re-armed when the limit is written again (ledger_set_limit clears LF_WARNED): iOS 18 when the value changes, iOS 12 at every move across the foreground band")
    func limitWarningRearmed() throws {
        func run(release: OSRelease, active: Int, inactive: Int) throws -> Int {
            let app = try XNUFidelityTests.bigApp("a", bytes: 170 << 20)
            let other = try LifeCycleTests.app("b")
            let device = Self.device([app, other], budget: 2 << 30, release: release, limit: active << 20,
                                     inactiveLimit: inactive << 20)
            try device.open("a")        // 170 MiB of a 200 MiB limit: over 80% (160 MiB), warned
            try device.open("b")        // a suspended: its inactive limit; it runs no code, no warning
            try device.open("a")        // in front again: the active limit
            app.window.topViewController!.type(bytes: 1 << 20)
            try device.finishStep()
            #expect(app.state == .active)
            return Self.warnings(app)
        }
        // iOS 18, 200 / 180 MiB: the limit's value changes at each move, the ledger is written
        // (memstat_update_memlimit_locked returns true): warned again.
        #expect(try run(release: .iOS18, active: 200, inactive: 180) == 2)
        // iOS 18, equal limits: the ledger is left alone (the same limit), no second warning.
        #expect(try run(release: .iOS18, active: 200, inactive: 200) == 1)
        // iOS 12, equal limits: every move across the foreground band writes the ledger
        // (task_set_phys_footprint_limit_internal's active flag changes): warned again.
        #expect(try run(release: .iOS12, active: 200, inactive: 200) == 2)
    }

    @Test("the warning needs the footprint above 80% (ledger warn_level_exceeded: balance > level), not at it")
    func limitWarningIsStrict() throws {
        // The footprint of the app in front (measured on a second probe, once the process has
        // walked the paths: a first walk allocates once); then a limit whose 80% is exactly it.
        var footprint = 0
        for _ in 0..<2 {
            let probe = try LifeCycleTests.app("a")
            let probing = Self.device([probe], budget: 1 << 30)
            try probing.open("a")
            footprint = probing.installed("a")!.footprintBytes
        }
        #expect(footprint % 4 == 0)
        let app = try LifeCycleTests.app("a")
        let device = Self.device([app], budget: 1 << 30, limit: footprint * 5 / 4)
        try device.open("a")
        #expect(device.installed("a")!.footprintBytes * 100 == (footprint * 5 / 4) * 80)
        #expect(Self.warnings(app) == 0)
        app.window.topViewController!.type(bytes: 16)
        try device.finishStep()
        #expect(Self.warnings(app) == 1)
    }

    @Test("iOS 12 applies the inactive limit to an app running in the background (its band is below FOREGROUND: memorystatus_update_priority_locked); iOS 18 the active one while it holds an assertion")
    func backgroundRunningLimit() throws {
        for (release, survives) in [(OSRelease.iOS12, false), (.iOS18, true)] {
            let app = try XNUFidelityTests.bigApp("a", bytes: 90 << 20)
            app.backgroundMode = .audio(seconds: nil)
            let other = try LifeCycleTests.app("b")
            let device = Self.device([app, other], budget: 1 << 30, release: release, limit: 120 << 20, inactiveLimit: 60 << 20)
            try device.open("a")
            try device.open("b")       // a plays audio in the background: 90 MiB against 60 or 120
            #expect(app.state.hasProcess == survives, "\(release)")
        }
    }

    @Test("decompression never counts a page twice (pmap_enter_options_internal moves a page from internal_compressed to internal): an app under its limit, most of it compressed, is not killed by its own resume")
    func resumeUnderLimit() throws {
        let app = try XNUFidelityTests.bigApp("a", bytes: 60 << 20)
        try app.runtime.register(ScreenSpec(name: "photo", view: try .single(bytes: 1024, backing: 30 << 20)))
        let viewer = Application(name: "a", runtime: app.runtime, hierarchy: .nav("photo"))
        viewer.appDataBytes = 60 << 20
        let other = try LifeCycleTests.app("b")
        let device = Self.device([viewer, other], budget: 1 << 30, compressor: .lz4, limit: 100 << 20)
        try device.open("a")
        try device.open("b")
        let installed = device.installed("a")!
        #expect(device.compress(installed))
        // 90 MiB and more counted: compressed memory at its uncompressed size, under 100 MiB.
        #expect(installed.footprintBytes > 90 << 20 && installed.footprintBytes < 100 << 20)
        #expect(try device.open("a") == .resume)
        #expect(viewer.state == .active)
        #expect(!device.metrics.killReasons.contains(.perProcessLimit))
        #expect(viewer.runtime.compressedOriginalBytes == 0)
    }
}
