import Foundation
import PressureLab
@testable import PressureLabHarness
import Testing
import TestSupport

@Suite("DeviceModel: what a profile and a scenario say about the device, in one value")
struct DeviceModelTests {
    static let scenario = """
        scenario: 1
        name: m
        device: { memory: 96MiB, app_limit: 40MiB, app_limit_inactive: 20MiB, os: "6", content: { backing: 9 } }
        apps:
          a:
            screens: { s: { tree: { depth: 1, fanout: 2, bytes: 1KiB }, model: 64KiB } }
            root: s
        script: [ { launch: a } ]
        """

    @Test("the scenario's budget, limits and iOS release; the profile's memory, page, compressor, release, costs and contents, the scenario's content overriding kind by kind")
    func fromScenarioAndProfile() throws {
        let scenario = try ScenarioLoader().parse(Self.scenario, path: "m.yaml")
        // An iPhone's profile: the scenario's iOS 6 is its platform's release (on an Android
        // profile the release decides the life cycle, and an iOS one is refused: PlatformAxisTests).
        let profile = try ProfileLibrary.load(ProfileReference("iphone-xs-2018"))
        let model = DeviceModel(scenario: scenario, profile: profile, seed: 5)
        #expect(model.budgetBytes == 96 << 20 && model.appLimitBytes == 40 << 20 && model.appLimitInactiveBytes == 20 << 20)
        #expect(model.os == .iOS6 && model.release == profile.release && model.memoryBytes == profile.memoryBytes)
        #expect(model.pageBytes == profile.pageBytes && model.compressor == profile.compressor)
        #expect(model.costs == profile.costs && model.purgesBackingStoresInBackground)
        #expect(model.contents?.ratio(of: .backing) == 9)
        #expect(model.contents?.ratio(of: .cache) == profile.content[.cache] ?? 2)
        #expect(DeviceModel(scenario: scenario, profile: profile, compressor: Compressor.none, seed: 5).compressor == Compressor.none)
        let bare = DeviceModel(scenario: scenario, profile: nil, seed: 5)
        #expect(bare.costs == nil && bare.contents == nil && bare.pageBytes == 4096 && bare.compressor == Compressor.none)
        #expect(!bare.purgesBackingStoresInBackground)
    }

    @Test("the device gives every app it installs the model's page size, costs, charged compressor and contents, even after its screens are registered")
    func appliedOnInstall() throws {
        let scenario = try ScenarioLoader().parse(Self.scenario, path: "m.yaml")
        let profile = try ProfileLibrary.load(ProfileReference("pixel-3-2018"))
        let model = DeviceModel(scenario: scenario, profile: profile, seed: 5)
        let app = try scenario.apps[0].makeApplication(generation: .iOS6, cleanup: IOS6Policy(), trace: TraceRecorder(isEnabled: false),
                                                       statistics: ReloadStatistics())
        #expect(app.runtime.costModel == nil && app.runtime.contents == nil)
        let device = Device(model: model, termination: JetsamPolicy())
        device.install(app)
        #expect(app.runtime.costModel == profile.costs && app.runtime.compressor == profile.compressor)
        #expect(app.runtime.pageBytes == profile.pageBytes && app.runtime.contents?.ratio(of: .backing) == 9)
        app.kill()
    }

    /// The checksums of screen `s`'s memory once shown, with `contents` set before or after
    /// the screen is registered (nil: none).
    static func checksums(contents: MemoryContents?, setAfterRegistering: Bool) throws -> [UInt64] {
        let runtime = try RuntimeContext(app: "c")
        if !setAfterRegistering { runtime.contents = contents }
        try runtime.register(ScreenSpec(name: "s", view: try .single(bytes: 256), modelBytes: 64 << 10))
        if setAfterRegistering { runtime.contents = contents }
        let controller = try runtime.makeController(screen: "s")
        try Window().show(controller)
        return controller.memoryChecksums
    }

    @Test("a model file declared before the contents are set is written with them (the device sets them at install)")
    func modelFilledAfterRegistering() throws {
        let contents = MemoryContents(ratios: [.model: 3], pageBytes: 4096, seed: 11)
        let before = try Self.checksums(contents: contents, setAfterRegistering: false)
        let after = try Self.checksums(contents: contents, setAfterRegistering: true)
        let none = try Self.checksums(contents: nil, setAfterRegistering: true)
        #expect(before.count == 3)  // the view's storage and backing store, and the model, read when shown
        #expect(before == after)
        #expect(before != none)
    }
}
