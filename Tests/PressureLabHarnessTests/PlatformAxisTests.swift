import Foundation
import PressureLab
import PressureLabHarness
import Testing

/// One axis for the platform (issue 55, item 2): a profile's release decides both the memory
/// system and the app life cycle, and a scenario may name only a release of its platform.
@Suite("The platform axis: a profile's release decides the memory system and the life cycle")
struct PlatformAxisTests {
    static func scenario(device: String) -> String {
        """
        scenario: 1
        name: axis
        device: { memory: 64MiB\(device) }
        apps:
          a: { screens: { s: { backing: 1MiB } }, root: s }
        script:
          - launch: a

        """
    }

    /// The column (from 1) of `needle` on line 3, the `device:` line of ``scenario(device:)``.
    static func deviceColumn(of needle: String, in text: String) -> Int {
        let line = text.split(separator: "\n", omittingEmptySubsequences: false)[2]
        return line.distance(from: line.startIndex, to: line.range(of: needle)!.lowerBound) + 1
    }

    static func diagnostics(_ text: String) -> [ScenarioDiagnostic] {
        do {
            _ = try ScenarioLoader().parse(text, path: "axis.yaml")
            return []
        } catch {
            return error.diagnostics
        }
    }

    @Test("an iOS release on an Android profile, or an Android one on an iPhone or without a profile, is refused at its line and column",
          arguments: [(", profile: pixel-3-2018, os: \"13\"", "\"13\"", "android-10, android-14"),
                      (", profile: iphone-xs-2018, os: android-10", "android-10", "2.2, 3, 4, 5, 6, 7, 12, 13, 18"),
                      (", os: android-14", "android-14", "2.2, 3, 4, 5, 6, 7, 12, 13, 18")])
    func otherPlatformRefused(device: String, value: String, valid: String) {
        let text = Self.scenario(device: device)
        let found = Self.diagnostics(text)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.key == "device.os")
        #expect(found.first?.line == 3)
        #expect(found.first?.column == Self.deviceColumn(of: value, in: text), "\(found)")
        #expect(found.first?.message.contains("is not a release of the device's platform") == true, "\(found)")
        #expect(found.first?.message.contains(valid) == true, "\(found)")
    }

    @Test("an Android profile runs its own release's life cycle; an iPhone keeps iOS 13's unless the scenario names one")
    func lifeCycleRelease() throws {
        let pixel = try ProfileLibrary.load(ProfileReference("pixel-3-2018"))
        let iPhone = try ProfileLibrary.load(ProfileReference("iphone-xs-2018"))
        let plain = try ScenarioLoader().parse(Self.scenario(device: ""), path: "axis.yaml")
        #expect(DeviceModel(scenario: plain, profile: pixel, seed: 1).os == .android10)
        #expect(DeviceModel(scenario: plain, profile: pixel, seed: 1).release == .android10)
        #expect(DeviceModel(scenario: plain, profile: iPhone, seed: 1).os == .iOS13)
        #expect(DeviceModel(scenario: plain, profile: nil, seed: 1).os == .iOS13)
        // Android's life cycle has no finite background task and no background fetch.
        #expect(DeviceModel(scenario: plain, profile: pixel, seed: 1).os.backgroundTaskLimitSeconds == 0)
        #expect(!DeviceModel(scenario: plain, profile: pixel, seed: 1).os.hasBackgroundFetch)
        let named = try ScenarioLoader().parse(Self.scenario(device: ", profile: pixel-3-2018, os: android-14"), path: "axis.yaml")
        #expect(named.device.os == .android14)
        #expect(DeviceModel(scenario: named, profile: pixel, seed: 1).os == .android14)
        let old = try ScenarioLoader().parse(Self.scenario(device: ", profile: iphone-xs-2018, os: \"3\""), path: "axis.yaml")
        #expect(DeviceModel(scenario: old, profile: iPhone, seed: 1).os == .iPhoneOS3)
    }

    @Test("a profile given on the command line is checked against the scenario's os, located at the scenario's line and column")
    func commandLineProfile() throws {
        let text = Self.scenario(device: ", os: \"13\"")
        let scenario = try ScenarioLoader().parse(text, path: "axis.yaml")
        #expect(throws: Never.self) { try RunPlan(scenarios: [scenario], policies: [.ios6], profile: ProfileReference("iphone-xs-2018")).profiles() }
        do {
            _ = try RunPlan(scenarios: [scenario], policies: [.ios6], profile: ProfileReference("pixel-3-2018")).profiles()
            Issue.record("an iOS release on the Pixel 3 ran")
        } catch {
            guard case .invalidProfile(let problem) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            let diagnostic = try #require(problem.diagnostics.first)
            #expect(diagnostic.path == "axis.yaml" && diagnostic.key == "device.os")
            #expect(diagnostic.line == 3 && diagnostic.column == Self.deviceColumn(of: "\"13\"", in: text), "\(diagnostic)")
            #expect(diagnostic.message.contains("the profile pixel-3-2018 runs Android 10"), "\(diagnostic)")
        }
    }

    @Test("the release type answers the platform: each release's system, its life-cycle releases and the profiles' defaults")
    func releaseType() {
        for release in OSRelease.allCases {
            #expect(release.lifeCycleReleases.contains(release))
            #expect(release.lifeCycleReleases.allSatisfy { $0.kernel == release.kernel })
            #expect(OSRelease.memoryRuleReleases(of: release.kernel).contains(release.memoryRules))
        }
        #expect(OSRelease.defaultRelease(of: .xnu) == .iOS12 && OSRelease.defaultRelease(of: .android) == .android10)
        #expect(DeviceProfile.Platform.ios.kernel == .xnu && DeviceProfile.Platform.android.kernel == .android)
        // A system answers what used to be a branch on the kernel outside Device/Systems/.
        #expect(OSRelease.iOS18.memorySystem.collectorTransitionWaitSeconds == nil)
        #expect(OSRelease.android10.memorySystem.collectorTransitionWaitSeconds == ARTCollectionRules.collectorTransitionWaitSeconds)
        #expect(OSRelease.iOS12.memorySystem.whatIfNote(policy: "jetsam", on: .iOS12) == nil)
        #expect(OSRelease.android14.memorySystem.whatIfNote(policy: "jetsam", on: .android14)?.contains("iOS 18") == true)
    }
}
