import PressureLab
import Testing

/// What `Device.perform` returns: the step's outcome, noted by the device where each thing
/// happened (no counters compared before and after).
@Suite("Step outcomes")
struct StepOutcomeTests {
    /// Kills the least recently used background app while use is above the clear target.
    struct LeastRecentlyUsed: TerminationPolicy {
        let name = "least-recently-used"
        func nextAction(_ device: DeviceSnapshot) -> ReclaimAction? {
            guard device.isAboveClearTarget else { return nil }
            return device.apps.filter(\.isKillableInBackground).min { $0.useOrder < $1.useOrder }.map { .kill($0.name, .policy) }
        }
    }

    @Test("a launch that needs room: the kill (with its reason) and the cold launch, in the order results list them")
    func launchWithKill() throws {
        let perApp = try DeviceTests.appBytes()
        // Room for two apps under the warning level (80%): opening the third kills the least
        // recently used one.
        let device = Device(model: .init(budgetBytes: perApp * 13 / 4), termination: LeastRecentlyUsed())
        for name in ["a", "b", "c"] { device.install(try DeviceTests.app(name)) }
        #expect(try device.perform(.launch("a")) == StepOutcome(applied: true, marks: [.coldLaunch("a")]))
        #expect(try device.perform(.switchTo("b")) == StepOutcome(applied: true, marks: [.coldLaunch("b")]))
        let third = try device.perform(.switchTo("c"))
        #expect(third == StepOutcome(applied: true, marks: [.kill(app: "a", reason: .policy), .coldLaunch("c")]))
        #expect(try device.perform(.switchTo("b")) == StepOutcome(applied: true, marks: [.resume("b")]))
        #expect(try device.perform(.switchTo("a")).marks == [.kill(app: "c", reason: .policy), .coldLaunch("a")])
    }

    @Test("a step that does not apply is skipped with no marks; a warning step is marked; each step starts with none")
    func skippedAndWarning() throws {
        let device = Device(model: .init(budgetBytes: 1 << 30), termination: JetsamPolicy())
        device.install(try DeviceTests.app("a"))
        #expect(try device.perform(.pop(1)) == StepOutcome(applied: false))
        #expect(try device.perform(.launch("a")).marks == [.coldLaunch("a")])
        #expect(try device.perform(.warning(.critical)) == StepOutcome(applied: true, marks: [.warning]))
        #expect(try device.perform(.home) == StepOutcome(applied: true))
        #expect(try device.perform(.interrupt(5)) == StepOutcome(applied: false))
    }
}

/// The process-wide registry, in a process of its own (`pressurelab-probe policy-registry`):
/// registering in the test process would change what `all` and lists mean for every other test.
@Suite("The policy registry")
struct PolicyRegistryTests {
    @Test("a registered policy is known by name, listed after the built-ins and read back from files; a second registration, a built-in's name or an invalid name is refused")
    func registry() throws {
        let figures = try QuietProcessProbe.run("policy-registry")
        #expect(figures == ["knownBefore": 0, "knownAfter": 1, "makes": 1, "listedAfterBuiltIns": 1, "decodedRuns": 1,
                            "secondRefused": 1, "builtInNameRefused": 1, "invalidNameRefused": 1,
                            "terminationVariantRefused": 1])
    }
}
