import Foundation

/// Runs a measurement in a process of its own (`pressurelab-probe`, built with the tests),
/// where no other test allocates meanwhile: process-wide heap figures mean something there
/// whether the tests run in parallel or not.
enum QuietProcessProbe {
    /// The probe next to the test binary (`swift test`), else in `.build/debug`.
    static var path: String {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("pressurelab-probe").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/pressurelab-probe").path
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `probe` and returns the `name=value` figures it printed.
    static func run(_ probe: String) throws -> [String: Int] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [probe]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw Failure(description: "\(path) \(probe) failed (\(process.terminationStatus)): "
                + (String(data: errors, encoding: .utf8) ?? ""))
        }
        var figures: [String: Int] = [:]
        for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let value = Int(parts[1]) else { throw Failure(description: "unreadable line: \(line)") }
            figures[String(parts[0])] = value
        }
        return figures
    }
}
