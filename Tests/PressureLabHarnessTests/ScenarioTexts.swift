import PressureLabHarness

/// What the tests of inputs and their limits share: scenario texts, and the messages a reader
/// gives for them.
enum ScenarioTexts {
    static func diagnostics(_ text: String, path: String = "h.yaml", loader: ScenarioLoader = ScenarioLoader()) -> [String] {
        do {
            _ = try loader.parse(text, path: path)
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    /// One app launched once: a run that gives real metrics in a few milliseconds.
    static let launchOnly = """
        scenario: 1
        name: h
        device: { memory: 64MiB }
        apps: { a: { screens: { s: {} }, root: s } }
        script: [ { launch: a } ]
        """

    static func scenario(screens: String, script: String, memory: String = "64MiB", apps: Int = 1) -> String {
        var text = "scenario: 1\nname: h\ndevice:\n  memory: \(memory)\napps:\n"
        for index in 0..<apps { text += "  a\(index):\n    screens:\n\(screens)\n    root: { nav: home }\n" }
        return text + "script:\n\(script)\n"
    }

    static func failure<Failure: Error & CustomStringConvertible>(_ body: () throws(Failure) -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return error.description
        }
    }
}
