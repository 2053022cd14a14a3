import PressureLab
import PressureLabHarness
import Testing

/// A device profile's `zram:` key: the zram device's size, read into the device a run builds.
@Suite("Profiles: the zram device's size")
struct ProfileZramTests {
    @Test("zram is read, optional, and checked with its location; the Pixel 3's is 2 GiB (fstab.mainline.hardware)")
    func reading() throws {
        #expect(try ProfileDisplayScaleTests.profile(nil).zramBytes == nil)
        #expect(try ProfileDisplayScaleTests.profile("zram: 512MiB").zramBytes == 512 << 20)
        do {
            _ = try ProfileDisplayScaleTests.profile("zram: 0")
            Issue.record("accepted: zram: 0")
        } catch {
            let found = error.diagnostics.first { $0.key == "zram" }
            #expect(found?.message == "the zram device's size must be more than 0 bytes (leave 'zram' out for none)", "\(error.description)")
            #expect((found?.line ?? 0) > 1)
        }
        let pixel = try #require(try ProfileLibrary.all().first { $0.name == "pixel-3-2018" })
        #expect(pixel.zramBytes == 2 << 30)
    }

    @Test("the device has the zram size only when the run compresses")
    func deviceModel() throws {
        let pixel = try #require(try ProfileLibrary.all().first { $0.name == "pixel-3-2018" })
        let scenario = try Scenario(name: "z", device: .init(memoryBytes: 64 << 20),
                                    apps: [.init(name: "a", screens: [try .plain("s")], root: .screen("s"))], script: [.launch("a")])
        #expect(DeviceModel(scenario: scenario, profile: pixel, seed: 1).zramBytes == 2 << 30)
        #expect(DeviceModel(scenario: scenario, profile: pixel, compressor: Compressor.none, seed: 1).zramBytes == nil)
    }
}
