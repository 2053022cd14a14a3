import PressureLab
import Testing

@Suite("The device under 10,000 seeded random steps")
struct DeviceRandomTests {
    /// Runs `steps` random steps (open, type, push, pop, home, warnings, idle) and returns
    /// the device and the apps.
    static func randomRun(policy: Termination, seed: UInt64, steps: Int) throws -> (Device, [Application], typed: Int) {
        var random = SeededGenerator(seed: seed)
        let perApp = try DeviceTests.appBytes(bitmap: 256 << 10)
        let device = Device(model: .init(budgetBytes: perApp * 3), termination: try policy.makePolicy())
        let apps = try (0..<6).map { try DeviceTests.app("app\($0)", bitmap: 256 << 10) }
        for app in apps {
            app.runtime.trace.isEnabled = false
            app.runtime.cleanupPolicy = IOS6Policy()
            device.install(app)
        }
        var typed = 0
        for _ in 0..<steps {
            let roll = Double.random(in: 0..<1, using: &random)
            let front = device.foreground?.app
            switch roll {
            case ..<0.35:
                try device.open(apps.randomElement(using: &random)!.name)
            case ..<0.55:
                // Drafts stay small: an app keeps at most 64 KiB of typed data.
                if let top = front?.window.topViewController, top.userDataBytes < 64 << 10 {
                    let bytes = Int.random(in: 1...4096, using: &random)
                    top.type(bytes: bytes)
                    typed += bytes
                }
            case ..<0.70:
                if let navigation = front?.rootViewController as? NavigationController, navigation.viewControllers.count < 6 {
                    // Out of memory, the push fails and the app dies when the step ends.
                    do {
                        try navigation.push(try navigation.runtime.makeController(screen: "compose"))
                    } catch RuntimeError.memoryRefused {}
                }
            case ..<0.80:
                if let navigation = front?.rootViewController as? NavigationController { try navigation.pop() }
            case ..<0.85:
                try device.goHome()
            case ..<0.90:
                device.injectWarning(Bool.random(using: &random) ? .warning : .critical)
            default:
                device.idle(seconds: Double.random(in: 1...60, using: &random))
            }
            try device.finishStep()
        }
        return (device, apps, typed)
    }

    @Test("no data loss for apps that save on entering the background, under every policy that kills or freezes",
          arguments: [Termination.jetsam, .lmk, .largestFirst, .freeze])
    func noDataLoss(policy: Termination) throws {
        let (device, apps, typed) = try Self.randomRun(policy: policy, seed: 2026, steps: 10_000)
        let lost = apps.reduce(0) { $0 + $1.dataLossBytes }
        print("random \(policy): typed \(typed) B, lost \(lost) B, kills \(device.metrics.kills), "
            + "freezes \(device.metrics.freezes), cold \(device.metrics.coldLaunches), resumes \(device.metrics.resumes), "
            + "thaws \(device.metrics.thaws), OOM \(device.metrics.outOfMemoryCrashes)")
        #expect(typed > 0)
        #expect(device.metrics.kills + device.metrics.freezes > 0, "the run never needed to reclaim memory")
        #expect(lost == 0)
        #expect(device.metrics.outOfMemoryCrashes == 0)
        for app in apps { app.kill() }
    }

    @Test("under none, what an out-of-memory crash loses is counted, never silently dropped")
    func noneCountsLoss() throws {
        let (device, apps, typed) = try Self.randomRun(policy: .noTermination, seed: 7, steps: 3_000)
        let lost = apps.reduce(0) { $0 + $1.dataLossBytes }
        print("random none: typed \(typed) B, lost \(lost) B, OOM \(device.metrics.outOfMemoryCrashes)")
        #expect(device.metrics.kills == 0)
        #expect(lost <= typed)
        if lost > 0 { #expect(device.metrics.outOfMemoryCrashes > 0) }
        for app in apps { app.kill() }
    }

    @Test("the same seed gives the same kills, launches and bytes")
    func deterministic() throws {
        let first = try Self.randomRun(policy: .jetsam, seed: 99, steps: 1_500)
        let second = try Self.randomRun(policy: .jetsam, seed: 99, steps: 1_500)
        #expect(first.0.metrics.killOrder == second.0.metrics.killOrder)
        #expect(first.0.metrics.coldLaunches == second.0.metrics.coldLaunches)
        #expect(first.2 == second.2)
        #expect(first.0.usedBytes == second.0.usedBytes)
        for app in first.1 + second.1 { app.kill() }
    }
}
