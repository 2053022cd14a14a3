import Foundation

/// Runs the built `pressurelab` executable (the one beside the test binary, as `swift test`
/// runs it from any scratch path, else `.build/debug/pressurelab`, built by
/// `swift build --build-tests`) and checks exit codes, output files and messages.
public enum Executable {
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The fixtures every test target shares (scenarios, traces, broken files).
    public static let fixtures = packageRoot.appendingPathComponent("Tests/PressureLabHarnessTests/Fixtures")
    public static let small = fixtures.appendingPathComponent("small.yaml").path

    public static var path: String {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("pressurelab").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        for candidate in [".build/debug/pressurelab", ".build/release/pressurelab"] {
            let path = packageRoot.appendingPathComponent(candidate).path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return packageRoot.appendingPathComponent(".build/debug/pressurelab").path
    }

    public struct Outcome {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        /// Ended by a signal (a crash), not an exit.
        public var crashed: Bool

        public init(status: Int32, stdout: String, stderr: String, crashed: Bool) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
            self.crashed = crashed
        }
    }

    /// Runs the built binary (or another copy of it, `executable`) in `directory` (the
    /// package by default), with `environment` added to this process's.
    public static func run(_ arguments: [String], executable: String = path, in directory: URL = packageRoot,
                    environment extra: [String: String] = [:]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
        environment.merge(extra) { _, given in given }
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                       stderr: String(decoding: stderr, as: UTF8.self),
                       crashed: process.terminationReason == .uncaughtSignal)
    }

    public static func temporary(_ name: String) -> String {
        NSTemporaryDirectory() + "pressurelab-e2e-\(UUID().uuidString)-\(name)"
    }

    /// A new, empty temporary directory (the caller removes it).
    public static func temporaryDirectory(_ name: String) throws -> URL {
        let directory = URL(fileURLWithPath: temporary(name))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}

/// Sweep files for tests that run sweeps through the executable.
public enum SweepFixtures {
    /// A sweep file of `cells` cells of the small scenario (two policies, seeds 1...cells/2).
    public static func file(in directory: URL, seeds: Int, policies: String = "[ios6, lru]", extra: String = "") throws -> String {
        let path = directory.appendingPathComponent("grid.yaml").path
        try """
            sweep: 1
            output: results
            scenarios: [\(Executable.small)]
            policy: \(policies)
            seeds: { from: 1, to: \(seeds) }
            \(extra)
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
