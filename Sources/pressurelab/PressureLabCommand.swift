import ArgumentParser
import PressureLabHarness
import PressureLabHeap

/// `pressurelab`: simulate an app runtime under memory pressure, with real memory.
@main
struct PressureLabCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pressurelab",
        abstract: "Simulate an app runtime under memory pressure with real memory, and measure what cleanup costs and saves.",
        version: PressureLabVersion.current,
        subcommands: [GenerationsCommand.self, PoliciesCommand.self, DeviceCommand.self, HeapCommand.self],
        defaultSubcommand: GenerationsCommand.self
    )
}

/// The version of the tool, reported in results.
enum PressureLabVersion {
    static let current = "0.1.0"
}
