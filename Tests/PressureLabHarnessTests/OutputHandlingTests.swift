#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestSupport

/// Runs the `pressurelab` executable of the build these tests were built with (found next
/// to the test bundle; `.build/debug` otherwise), with a chosen environment, standard
/// output and signal.
enum BuiltExecutable {
    /// The executable beside the test bundle, or the one ``Executable`` finds.
    static let path: String = {
        var directories: [URL] = []
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        if let executable = Bundle.main.executableURL { directories.append(executable.deletingLastPathComponent()) }
        directories.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        for directory in directories {
            let candidate = directory.appendingPathComponent("pressurelab").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return Executable.path
    }()

    /// A started process and its output pipes.
    final class Running {
        let process = Process()
        private let out = Pipe(), err = Pipe()
        private let redirectsStandardOutput: Bool

        init(_ arguments: [String], environment extra: [String: String], standardOutput: FileHandle?) throws {
            process.executableURL = URL(fileURLWithPath: BuiltExecutable.path)
            process.arguments = arguments
            process.currentDirectoryURL = Executable.packageRoot
            var environment = ProcessInfo.processInfo.environment
            environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
            environment.merge(extra) { _, new in new }
            process.environment = environment
            redirectsStandardOutput = standardOutput != nil
            process.standardOutput = standardOutput ?? out
            process.standardError = err
            try process.run()
        }

        /// Waits for the end; reads what the process wrote.
        func finish() -> Executable.Outcome {
            let stdout = redirectsStandardOutput ? Data() : out.fileHandleForReading.readDataToEndOfFile()
            let stderr = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Executable.Outcome(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                                      stderr: String(decoding: stderr, as: UTF8.self),
                                      crashed: process.terminationReason == .uncaughtSignal)
        }
    }

    /// Runs to the end.
    static func run(_ arguments: [String], environment: [String: String] = [:],
                    standardOutput: FileHandle? = nil) throws -> Executable.Outcome {
        try Running(arguments, environment: environment, standardOutput: standardOutput).finish()
    }
}

/// A fresh, empty directory for one test, removed afterwards.
final class ScratchDirectory {
    let path: String

    init(in base: String = NSTemporaryDirectory()) throws {
        path = (base.hasSuffix("/") ? base : base + "/") + "pressurelab-outputs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Every entry below the directory (relative paths), recursively.
    func contents() -> [String] {
        (FileManager.default.subpaths(atPath: path) ?? []).sorted()
    }
}

/// The file type bits of a path (not following a final symbolic link).
func fileType(_ path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & S_IFMT
}

@Suite("Output handling: write errors, devices, clashes, failed runs, signals", .serialized)
struct OutputHandlingTests {
    static let hasFullDevice = FileManager.default.fileExists(atPath: "/dev/full")

    @Test("a write error on the trace, the results or the HTML fails the run (exit 1) and names the file",
          .enabled(if: hasFullDevice))
    func writeErrorsNameTheFile() throws {
        for option in ["--trace", "--output", "--html"] {
            let outcome = try BuiltExecutable.run(["run", Executable.small, "--policy", "ios6", option, "/dev/full"])
            #expect(outcome.status == 1, "\(option): exit \(outcome.status), \(outcome.stderr)")
            #expect(outcome.stderr.contains("/dev/full"), "\(option): \(outcome.stderr)")
            #expect(outcome.stderr.contains("No space left on device"), "\(option): \(outcome.stderr)")
            #expect(fileType("/dev/full") == S_IFCHR)
        }
    }

    @Test("a write error on standard output fails the command (exit 1)", .enabled(if: hasFullDevice))
    func standardOutputErrors() throws {
        for arguments in [["list", "policies"], ["run", Executable.small, "--policy", "ios6"]] {
            let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
            defer { try? full.close() }
            let outcome = try BuiltExecutable.run(arguments, standardOutput: full)
            #expect(outcome.status == 1, "\(arguments): exit \(outcome.status), \(outcome.stderr)")
            #expect(outcome.stderr.contains("standard output: No space left on device"), "\(arguments): \(outcome.stderr)")
        }
    }

    @Test("an output that is a device or a FIFO is written in place, never replaced; a directory is an error")
    func specialFilesWrittenInPlace() throws {
        let once = try BuiltExecutable.run(["run", Executable.small, "--policy", "ios6", "--output", "/dev/null"])
        #expect(once.status == 0, "\(once.stderr)")
        #expect(fileType("/dev/null") == S_IFCHR)
        // Both written in place: one character device may take two outputs.
        let twice = try BuiltExecutable.run(["run", Executable.small, "--policy", "ios6", "--output", "/dev/null",
                                             "--trace", "/dev/../dev/null", "--html", "/dev/null"])
        #expect(twice.status == 0, "\(twice.stderr)")
        #expect(fileType("/dev/null") == S_IFCHR)

        let scratch = try ScratchDirectory()
        let fifo = scratch.file("results.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        // Held open for reading and writing, so the tool's open does not wait for a reader.
        let reader = open(fifo, O_RDWR | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let fifoRun = try BuiltExecutable.run(["run", Executable.small, "--policy", "ios6", "--output", fifo])
        #expect(fifoRun.status == 0, "\(fifoRun.stderr)")
        #expect(fileType(fifo) == S_IFIFO)
        var received = [UInt8](repeating: 0, count: 1 << 16)
        let count = read(reader, &received, received.count)
        let text = String(decoding: received.prefix(max(count, 0)), as: UTF8.self)
        #expect(text.contains("\"schema\""), "the FIFO received: \(text.prefix(200))")

        let directoryRun = try BuiltExecutable.run(["run", Executable.small, "--policy", "ios6", "--output", scratch.path])
        #expect(directoryRun.status == 1, "\(directoryRun.stderr)")
        #expect(directoryRun.stderr.contains(scratch.path) && directoryRun.stderr.contains("Is a directory"),
                "\(directoryRun.stderr)")
        #expect(fileType(scratch.path) == S_IFDIR)
        #expect(scratch.contents() == ["results.fifo"])
    }

    @Test("two options naming one file (also through another spelling) are bad usage (exit 64) naming both")
    func sameFileTwice() throws {
        let scratch = try ScratchDirectory()
        let target = scratch.file("same.out")
        let symlink = scratch.file("link")
        try FileManager.default.createSymbolicLink(atPath: symlink, withDestinationPath: scratch.path)
        let cases: [([String], String, String)] = [
            (["run", Executable.small, "--output", target, "--trace", target], "--output", "--trace"),
            (["run", Executable.small, "--trace", target, "--html", "\(symlink)/./same.out"], "--trace", "--html"),
            (["report", Executable.small, "--html", target, "--markdown", "\(scratch.path)//same.out"], "--html", "--markdown"),
        ]
        for (arguments, first, second) in cases {
            let outcome = try BuiltExecutable.run(arguments)
            #expect(outcome.status == 64, "\(arguments): exit \(outcome.status), \(outcome.stderr)")
            #expect(outcome.stderr.contains(first) && outcome.stderr.contains(second), "\(outcome.stderr)")
            #expect(!FileManager.default.fileExists(atPath: target))
        }
        // An existing file reached through a hard link is the same file too.
        try "old".write(toFile: target, atomically: false, encoding: .utf8)
        #expect(link(target, scratch.file("hard")) == 0)
        let hard = try BuiltExecutable.run(["run", Executable.small, "--output", target, "--trace", scratch.file("hard")])
        #expect(hard.status == 64, "\(hard.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "old")
    }

    @Test("a failed run leaves no trace, results or HTML file, and an HTML failure names the file")
    func failedRunLeavesNothing() throws {
        let scratch = try ScratchDirectory()
        let trace = scratch.file("trace.jsonl"), output = scratch.file("results.json")
        // The run fails: no temporary directory can be made for the app's bundle.
        let failed = try BuiltExecutable.run(["run", Executable.small, "--trace", trace, "--output", output],
                                             environment: ["TMPDIR": scratch.file("missing")])
        #expect(failed.status == 1, "\(failed.stderr)")
        #expect(scratch.contents() == [], "left behind: \(scratch.contents())")

        let html = scratch.file("missing/report.html")
        let htmlFailed = try BuiltExecutable.run(["run", Executable.small, "--trace", trace, "--output", output, "--html", html])
        #expect(htmlFailed.status == 1, "\(htmlFailed.stderr)")
        #expect(htmlFailed.stderr.contains(html) && htmlFailed.stderr.contains("No such file or directory"),
                "\(htmlFailed.stderr)")
        #expect(scratch.contents() == [], "left behind: \(scratch.contents())")

        // An existing results file is kept as it was when the run fails.
        try "previous".write(toFile: output, atomically: false, encoding: .utf8)
        let again = try BuiltExecutable.run(["run", Executable.small, "--output", output, "--html", html])
        #expect(again.status == 1)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "previous")
        #expect(scratch.contents() == ["results.json"], "left behind: \(scratch.contents())")
    }

    /// A scenario that runs for a long time: the small one, then a million push and pop pairs.
    static func longScenario(in scratch: ScratchDirectory) throws -> String {
        let path = scratch.file("long.yaml")
        let text = try String(contentsOfFile: Executable.small, encoding: .utf8)
            .replacingOccurrences(of: "name: small", with: "name: long")
            + "  - repeat: { times: 1000000, steps: [ { push: detail }, { pop: 1 } ] }\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("SIGTERM or SIGINT during a run removes the temporary outputs and bundles, and exits 128 + signal",
          arguments: [SIGTERM, SIGINT])
    func signalLeavesNothing(signal: Int32) throws {
        let inputs = try ScratchDirectory()
        let scenario = try Self.longScenario(in: inputs)
        let temporary = try ScratchDirectory()
        let running = try BuiltExecutable.Running(
            ["run", scenario, "--policy", "ios3", "--trace", temporary.file("trace.jsonl"),
             "--output", temporary.file("results.json")],
            environment: ["TMPDIR": temporary.path], standardOutput: nil)
        // The run has started (its handlers are installed first) once a bundle directory exists.
        // (Not a timed assertion: the deadline only stops the wait; the expectations below judge.)
        let deadline = Date().addingTimeInterval(300)
        while running.process.isRunning, !temporary.contents().contains(where: { $0.contains("-bundle-") }), Date() < deadline {
            usleep(2_000)
        }
        #expect(running.process.isRunning, "the run ended before the signal")
        kill(running.process.processIdentifier, signal)
        let outcome = running.finish()
        #expect(!outcome.crashed, "ended by the signal, not by an exit: \(outcome.stderr)")
        #expect(outcome.status == 128 + signal, "\(outcome.stderr)")
        #expect(temporary.contents() == [], "left behind: \(temporary.contents())")
    }

    @Test("the temporary directories of a process that died are swept by the next run; a live one's are kept; a run leaves none")
    func staleDirectoriesSwept() throws {
        let temporary = try ScratchDirectory()
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/sh")
        ended.arguments = ["-c", "exit 0"]
        try ended.run()
        ended.waitUntilExit()
        let dead = ended.processIdentifier
        let stale = temporary.file("pressurelab-\(dead)-AbC123")
        try FileManager.default.createDirectory(atPath: "\(stale)/notes-bundle-XyZ789", withIntermediateDirectories: true)
        try "x".write(toFile: "\(stale)/notes-bundle-XyZ789/list.plview", atomically: false, encoding: .utf8)
        let live = temporary.file("pressurelab-\(getpid())-DeF456")
        try FileManager.default.createDirectory(atPath: live, withIntermediateDirectories: false)
        let unrelated = temporary.file("pressurelab-e2e-\(dead)-keep")
        try FileManager.default.createDirectory(atPath: unrelated, withIntermediateDirectories: false)

        // A run that makes bundles, under one per-process directory that is removed when it ends.
        let outcome = try BuiltExecutable.run(["run", Executable.small, "--policy", "ios6"],
                                              environment: ["TMPDIR": temporary.path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(Set(temporary.contents()) == [(live as NSString).lastPathComponent, (unrelated as NSString).lastPathComponent],
                "\(temporary.contents())")
    }
}
