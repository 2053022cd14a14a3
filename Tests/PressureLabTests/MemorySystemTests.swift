@testable import PressureLab
import Testing

/// Each release's memory system (``OSRelease/memorySystem``) and the runtime's door to it,
/// admission (``MemoryAdmission``).
@Suite("Memory systems: one per kernel, chosen once by the release; admission as a protocol")
struct MemorySystemTests {
    @Test("every OSRelease case has a memory system of its platform, whose rules are a read release's and lead back to that system")
    func everyReleaseHasASystem() {
        for release in OSRelease.allCases {
            let system = release.memorySystem
            #expect(system.kernel == (release.isApple ? .xnu : .android), "\(release)")
            #expect(OSRelease.memoryRuleReleases(apple: release.isApple).contains(system.rulesRelease), "\(release)")
            // A read release's system is its own: the choice is made once.
            #expect(system.rulesRelease.memorySystem.rulesRelease == system.rulesRelease, "\(release)")
            #expect(system.sourceTag == release.sourceTag, "\(release)")
            #expect(system.seesSecondaryProcesses == !release.isApple, "\(release)")
        }
    }

    @Test("the read releases of each kernel are exactly its release type's cases, each with its source tag")
    func readReleases() {
        #expect(XNURelease.allCases.map(\.osRelease) == [.iOS12, .iOS18])
        #expect(AndroidRelease.allCases.map(\.osRelease) == [.android10, .android14])
        #expect(XNURelease.allCases.map(\.sourceTag) == ["xnu-4903.270.47", "xnu-11417.101.15"])
        #expect(AndroidRelease.allCases.map(\.sourceTag) == ["android-10.0.0_r1", "android-14.0.0_r1"])
    }

    @Test("a system lends the other family's rules to policies run on it: Android gets iOS 18's jetsam and freezer, iOS gets Android 10's lmkd and trims")
    func lentRules() {
        let android = OSRelease.android14.memorySystem, iPhone = OSRelease.iOS13.memorySystem
        #expect(android.jetsam == JetsamRules(.iOS18) && android.freezer == FreezerRules(.iOS18))
        #expect(android.lowMemoryKiller == LowMemoryKillerRules(.android14) && android.trimMemory == TrimMemoryRules(.android14))
        #expect(iPhone.jetsam == JetsamRules(.iOS12) && iPhone.freezer == FreezerRules(.iOS12))
        #expect(iPhone.lowMemoryKiller == LowMemoryKillerRules(.android10) && iPhone.trimMemory == TrimMemoryRules(.android10))
    }

    @Test("only Android 14's previous app expires, 60 s after it left the front (computeOomAdjLSP)")
    func previousAppExpiry() {
        #expect(OSRelease.android14.memorySystem.previousAppHasExpired(since: 0, now: 60.5))
        #expect(!OSRelease.android14.memorySystem.previousAppHasExpired(since: 0, now: 60))
        #expect(!OSRelease.android10.memorySystem.previousAppHasExpired(since: 0, now: 3600))
        #expect(!OSRelease.iOS18.memorySystem.previousAppHasExpired(since: 0, now: 3600))
    }

    @Test("an allocation that does not fit reclaims before it is answered, and the step's outcome says so: granted after the suspended app was killed")
    func admissionReclaimInTheOutcome() throws {
        let first = try XNUFidelityTests.bigApp("first", bytes: 6 << 20)
        let second = try XNUFidelityTests.bigApp("second", bytes: 6 << 20)
        let device = XNUFidelityTests.device([first, second], budget: 10 << 20)
        let launched = try device.perform(.launch("first"))
        #expect(launched.admissionReclaims.isEmpty)
        let switched = try device.perform(.switchTo("second"))
        let reclaim = try #require(switched.admissionReclaims.first)
        #expect(reclaim.app == "second" && reclaim.granted && reclaim.freedBytes >= 6 << 20)
        #expect(switched.marks.contains(.kill(app: "first", reason: .vmPageShortage)))
        #expect(!first.state.hasProcess && second.state == .active)
    }

    @Test("an allocation over the app's limit is refused without a reclaim")
    func admissionRefusedAtTheLimit() throws {
        let app = try XNUFidelityTests.bigApp("big", bytes: 6 << 20)
        let device = XNUFidelityTests.device([app], budget: 64 << 20, limit: 4 << 20)
        let admission = try #require(app.runtime.memoryGate.admission)
        #expect(admission.admit(AdmissionRequest(bytes: 1024)) == .granted)
        let outcome = try device.perform(.launch("big"))
        #expect(outcome.admissionReclaims.isEmpty)
        #expect(!app.state.hasProcess)
        _ = device
    }
}
