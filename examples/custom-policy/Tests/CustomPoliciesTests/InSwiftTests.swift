import CustomPolicies
import PressureLabTesting
import Testing

/// Scenarios, controllers and apps written in Swift (the README's examples, run).
@Suite("PressureLab in Swift")
struct InSwiftTests {
    @Test func scenarioInSwift() throws {
        let scenario = try Scenario(
            name: "mail-and-photos", seed: 42,
            device: .init(memoryBytes: 256 << 20),
            apps: [
                .init(name: "photos", dataBytes: 2 << 20,
                      screens: [try .table("grid", rows: 5000, visibleRows: 14, cellViews: 5, cellBytes: 6 << 10, backing: 4 << 20),
                                try .plain("detail", tree: .levels(depth: 3, fanout: 4, bytes: 2048), outlets: 6,
                                           backing: 12 << 20, cache: 4 << 20, model: 1 << 20)],
                      root: .nav("grid")),
                .init(name: "mail", screens: [try .plain("inbox", backing: 4 << 20, cache: 8 << 20)], root: .nav("inbox")),
            ],
            script: [.launch("photos"), .scroll(120), .repeat(6, [.push("detail"), .pop()]), .switchTo("mail"),
                     .warning(.critical), .switchTo("photos")])
        let run = try Footprint.run(scenario, policy: Cleanup(DropModelsFirst()))
        Footprint.expect(run, .peakRetainedBytes, atMost: 64 << 20)
        #expect(run.timeline.count == 17)
    }

    @Test func controllerOfYourOwn() throws {
        final class Compose: ViewController {
            override func didReceiveMemoryWarning() {
                super.didReceiveMemoryWarning()   // the generation's unload work
                releaseModel()                    // this screen's model is cheap to read back
            }
        }
        let runtime = try RuntimeContext(app: "mail", generation: .iOS5)
        try runtime.register(ScreenSpec(name: "compose", view: try .tree(depth: 2, fanout: 3, bytes: 1024), modelBytes: 1 << 20))
        let compose = Compose(screen: try runtime.screen(named: "compose"), runtime: runtime)
        try Window().show(compose)
        #expect(compose.isViewLoaded && compose.model != nil)
        compose.receiveMemoryWarning()
        #expect(compose.model == nil)   // its own release; the view is on screen and stays
        #expect(compose.isViewLoaded)
    }

    @Test func appInSwift() throws {
        let myScreens = [try ScreenSpec.plain("inbox", backing: 1 << 20), try .plain("message", model: 256 << 10),
                         try .plain("compose"), try .plain("settings")]
        let runtime = try RuntimeContext(app: "mail", generation: .iOS6)
        for screen in myScreens { try runtime.register(screen) }
        let app = Application(name: "mail", runtime: runtime,
                              hierarchy: .tabs([.nav("inbox"), .screen("settings")], selected: 0))
        try app.launch()                                   // cold launch
        let inbox = app.window.topViewController!
        try (inbox.parent as! NavigationController).push(try runtime.makeController(screen: "message"))
        try app.window.topViewController!.present(try runtime.makeController(screen: "compose"))
        app.window.topViewController!.type(bytes: 2048)    // user data
        try app.home()                                     // saves the restoration archive, suspends
        app.kill()                                         // jetsam: no callback
        try app.launch()                                   // cold launch: stacks, tab, modal and user data restored
        #expect(app.window.topViewController?.screen.name == "compose")
        #expect(app.dataLossBytes == 0)
    }
}
