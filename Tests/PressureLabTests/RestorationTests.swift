import Foundation
@testable import PressureLab
import Testing

/// The seeded generator the runtime uses for random steps.
typealias SeededGenerator = SplitMix64

@Suite("State restoration: round trips and broken archives")
struct RestorationTests {
    static let screens = ["inbox", "message", "attachment", "settings", "compose", "contacts"]

    private func app(_ hierarchy: HierarchySpec) throws -> Application {
        Application(name: "mail", runtime: try makeRuntime(.iOS6, screens: mailScreens()), hierarchy: hierarchy)
    }

    /// A random hierarchy: tabs (1 to 7) of stacks (1 to 4 deep) or single screens.
    private func randomHierarchy(_ random: inout SeededGenerator) -> HierarchySpec {
        func screen() -> String { Self.screens.randomElement(using: &random)! }
        func tab() -> HierarchySpec {
            Bool.random(using: &random)
                ? .navigation((0..<Int.random(in: 1...4, using: &random)).map { _ in screen() })
                : .screen(screen())
        }
        if Int.random(in: 0..<4, using: &random) == 0 { return tab() }
        let count = Int.random(in: 1...7, using: &random)
        return .tabs((0..<count).map { _ in tab() }, selected: Int.random(in: 0..<count, using: &random))
    }

    @Test("randomized hierarchies (seeded) survive terminate and cold launch exactly", arguments: 0..<25)
    func roundTrip(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let app = try app(randomHierarchy(&random))
        app.runtime.trace.isEnabled = false
        try app.launch()
        // Type into some controllers, present up to two modals, type there too.
        for controller in app.controllers where controller.screen.table == nil && Bool.random(using: &random) {
            controller.type(bytes: Int.random(in: 1...5000, using: &random))
        }
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            let modal = try app.runtime.makeController(screen: Self.screens.randomElement(using: &random)!)
            try app.window.presentationContext!.present(modal)
            modal.type(bytes: Int.random(in: 1...3000, using: &random))
        }
        let saved = app.makeRestorationArchive()
        try app.home()
        app.kill()
        #expect(app.dataLossBytes == 0)
        try app.launch()
        #expect(app.lastRestorationError == nil)
        let restored = app.makeRestorationArchive()
        #expect(restored == saved)
        #expect(restored.userDataBytes == saved.userDataBytes)
        // The same screens are on top, and the user data's bytes are identical.
        let checksums = app.controllers.flatMap { $0.userData.map { $0.checksum() } }
        #expect(checksums.count == app.controllers.reduce(0) { $0 + $1.userData.count })
    }

    @Test("a truncated archive: a clear error and a clean launch, not a half-restored app")
    func truncated() throws {
        let app = try app(.tabs([.navigation(["inbox", "message"]), .screen("settings")], selected: 1))
        try app.launch()
        app.window.topViewController!.type(bytes: 100)
        try app.home()
        app.kill()
        let data = try Data(contentsOf: URL(fileURLWithPath: app.archivePath))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: app.archivePath))
        #expect(try app.launch() == .cold)
        #expect(app.lastRestorationError == .corrupt(path: app.archivePath, reason: "no checksum line: the file is truncated"))
        #expect(app.runtime.trace.summary.contains("restorationFailed"))
        // A clean launch: the hierarchy of the app's declaration, no user data.
        let tabs = try #require(app.rootViewController as? TabBarController)
        #expect(tabs.selectedIndex == 1)
        #expect(app.controllers.allSatisfy { $0.userData.isEmpty })
        #expect(app.state == .active)
    }

    @Test("an altered archive fails its checksum; one naming an unknown screen does not fit")
    func alteredAndMismatched() throws {
        let app = try app(.nav("inbox"))
        try app.launch()
        try app.home()
        app.kill()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: app.archivePath)))
        bytes[10] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: app.archivePath))
        try app.launch()
        #expect(app.lastRestorationError == .corrupt(path: app.archivePath,
                                                       reason: "checksum mismatch: the archive was altered or damaged"))
        app.kill()

        var archive = app.makeRestorationArchive()
        archive.root = .init(kind: "screen", screen: "no-such-screen", children: [], selected: nil, userData: [])
        try archive.write(to: app.archivePath)
        try app.launch()
        #expect(app.lastRestorationError == .mismatch(path: app.archivePath, reason: "unknown screen 'no-such-screen'"))
        #expect(app.rootViewController is NavigationController)
    }

    @Test("garbage, an empty file, and another app's archive all launch clean")
    func garbage() throws {
        let app = try app(.screen("inbox"))
        for content in [Data(), Data(repeating: 0xFF, count: 4096), Data("{\"format\":1}\n#checksum 0\n".utf8)] {
            try content.write(to: URL(fileURLWithPath: app.archivePath))
            try app.launch()
            #expect(app.lastRestorationError != nil)
            #expect(app.rootViewController?.screen.name == "inbox")
            app.kill()
        }
        let other = RestorationArchive(app: "photos", root: .init(kind: "screen", screen: "inbox", children: [],
                                                                  selected: nil, userData: []), modals: [])
        try other.write(to: app.archivePath)
        try app.launch()
        #expect(app.lastRestorationError == .mismatch(path: app.archivePath, reason: "the archive is for app 'photos'"))
    }

    @Test("saving is atomic: no temporary file is left, and the previous archive stays until the rename")
    func atomicSave() throws {
        let app = try app(.screen("inbox"))
        try app.launch()
        try app.enterBackground()
        let directory = (app.archivePath as NSString).deletingLastPathComponent
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(!files.contains { $0.contains(".tmp-") })
        #expect(try RestorationArchive.read(from: app.archivePath) == app.makeRestorationArchive())
    }

    // didEnterBackground runs the app's code: user data of a controller left compressed since the
    // app was suspended (a resume reads back only what is on screen) is read back before the
    // archive is written, so what the archive marks saved is in it.
    @Test("the archive written at didEnterBackground holds user data of a controller still compressed from an earlier suspension")
    func saveReadsCompressedUserData() throws {
        let (device, mail) = try twoMailApps(.init(budgetBytes: 512 << 20, compressor: .lz4, os: .iOS13, release: .iOS18),
                                             termination: JetsamPolicy())
        try device.open("mail")
        let navigation = mail.window.rootViewController as! NavigationController
        try navigation.push(try mail.runtime.makeController(screen: "message"))
        let message = mail.window.topViewController!
        message.type(bytes: 3000)
        try navigation.push(try mail.runtime.makeController(screen: "attachment"))
        try device.open("notes")
        #expect(device.compress(device.installed("mail")!) && message.isCompressed)
        try device.open("mail")  // resumes: only what is on screen is read back
        #expect(message.isCompressed)
        try device.open("notes")  // didEnterBackground: the archive again
        #expect(!message.isCompressed)
        #expect(try RestorationArchive.read(from: mail.archivePath)?.userDataBytes == 3000)
        mail.kill()
        #expect(mail.dataLossBytes == 0)
    }
}
