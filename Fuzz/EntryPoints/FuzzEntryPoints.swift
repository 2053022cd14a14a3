import Foundation
import PressureLab
import PressureLabHarness
import PressureLabHeap
import PressureLabImport
import PressureLabSweep

/// Byte entry points for fuzzing every reader of PressureLab's input files, one a reader.
///
/// Each takes arbitrary bytes, runs them through the reader the tool uses, and swallows
/// the reader's error: refusing bad input is the correct answer, and only a crash, a hang
/// or a runaway allocation is a bug. Each returns whether the bytes were accepted. The
/// fuzz targets of `Fuzz/` call these, and the regression tests replay the fuzz corpora
/// through them in-process. A target of the main package (`PressureLabFuzzEntryPoints`, in
/// `Fuzz/EntryPoints/`), not part of the libraries PressureLab ships: what it reads of
/// their internals is `package`, which this target, in the same package, can see.
public enum FuzzEntryPoints {
    /// One reader's entry point.
    public typealias EntryPoint = @Sendable (UnsafeRawBufferPointer) -> Bool

    /// Every entry point by the name of its fuzz target (also its directory under
    /// `Fuzz/Corpus/`).
    public static let byTarget: [String: EntryPoint] = [
        "FuzzScenario": scenario,
        "FuzzRestoration": DecoderFuzzing.restorationArchive,
        "FuzzViewDescription": DecoderFuzzing.viewDescription,
        "FuzzBaseline": baseline,
        "FuzzThresholds": thresholds,
        "FuzzResults": results,
        "FuzzProfile": profile,
        "FuzzTrace": trace,
        "FuzzMeminfo": meminfo,
        "FuzzViews": views,
        "FuzzUIAutomator": uiautomator,
        "FuzzVmmap": vmmap,
        "FuzzJetsam": jetsam,
        "FuzzFreezerFile": FreezerFileFuzzing.compressedFile,
        "FuzzSweep": SweepFuzzing.sweep,
        "FuzzPolicy": PolicyFuzzing.policy,
    ]

    /// The text of `bytes` as every reader of a text file gets it (``TextInput``: UTF-8 or
    /// UTF-16 with a byte-order mark, line ends made `\n`), or nil when it is refused.
    static func text(_ bytes: UnsafeRawBufferPointer, lineBreaks: TextInput.LineBreaks = .common) -> String? {
        try? TextInput.decode(Array(bytes), lineBreaks: lineBreaks).text
    }

    /// The importers' entry points for the fuzz targets, a package of their own (``importer(_:_:)``
    /// takes a package type, which another package cannot name).
    @discardableResult
    public static func meminfo(_ bytes: UnsafeRawBufferPointer) -> Bool { importer(.meminfo, bytes) }
    /// `import views` (``importer(_:_:)``).
    @discardableResult
    public static func views(_ bytes: UnsafeRawBufferPointer) -> Bool { importer(.views, bytes) }
    /// `import uiautomator` (``importer(_:_:)``).
    @discardableResult
    public static func uiautomator(_ bytes: UnsafeRawBufferPointer) -> Bool { importer(.uiautomator, bytes) }
    /// `import vmmap` (``importer(_:_:)``).
    @discardableResult
    public static func vmmap(_ bytes: UnsafeRawBufferPointer) -> Bool { importer(.vmmap, bytes) }

    /// `import jetsam`: the bytes as a jetsam event report (JSON or LowMemory text), read,
    /// imported and the scenario checked by the scenario reader (not run).
    @discardableResult
    public static func jetsam(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let text = text(bytes) else { return false }
        do {
            let imported = try JetsamImporter.importScenario(DumpText(text, path: "fuzz.ips"))
            _ = try Importers.check(imported.yaml, source: "fuzz.ips", destination: nil,
                                    loader: ScenarioLoader(hostLimitBytes: scenarioHostLimitBytes))
            return true
        } catch {
            return false
        }
    }

    /// Reads `bytes` as a dump of `format` (text as ``DumpText/read(_:)`` decodes it),
    /// imports it and renders the scenario, which the scenario reader checks.
    @discardableResult
    package static func importer(_ format: ImportFormat, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let text = text(bytes) else { return false }
        do {
            let imported = try Importers.importScenario(format, [DumpText(text, path: "fuzz.txt")], options: .init())
            _ = try Importers.render(imported, loader: ScenarioLoader(hostLimitBytes: scenarioHostLimitBytes))
            return true
        } catch {
            return false
        }
    }

    /// Reads `bytes` as an LSApp replay trace, streamed as ``LSAppTrace/parse(path:hostLimitBytes:)``
    /// reads a file: in chunks (of 61 bytes, so that lines and UTF-8 sequences split across
    /// them), then the user's app uses, as a replay takes them.
    @discardableResult
    public static func trace(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var reader = LSAppTrace.Reader(path: "fuzz-trace.tsv")
        let all = Array(bytes)
        do {
            for start in stride(from: 0, to: all.count, by: 61) { try reader.feed(all[start..<min(all.count, start + 61)]) }
            let trace = try reader.finish()
            for user in trace.users.prefix(4) { _ = trace.uses(of: user) }
            return true
        } catch {
            return false
        }
    }

    /// Reads `bytes` as a device profile file: text as ``ProfileLoader/load(path:)`` decodes
    /// it (``TextInput``, YAML's line breaks), then ``ProfileLoader/parse(_:path:)``.
    @discardableResult
    public static func profile(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let text = text(bytes, lineBreaks: .yaml) else { return false }
        do {
            _ = try ProfileLoader().parse(text, path: "fuzz-profile.yaml")
            return true
        } catch {
            return false
        }
    }

    /// The host limit the scenario entry point checks declared sizes against (16 GiB), fixed
    /// so that a finding does not depend on the machine that found it.
    public static let scenarioHostLimitBytes = 16 << 30

    /// Reads `bytes` as a scenario file: text as ``ScenarioLoader/load(path:)`` decodes it
    /// (``TextInput``, YAML's line breaks), then ``ScenarioLoader/parse(_:path:)``.
    @discardableResult
    public static func scenario(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let text = text(bytes, lineBreaks: .yaml) else { return false }
        do {
            _ = try ScenarioLoader(hostLimitBytes: scenarioHostLimitBytes).parse(text, path: "fuzz.yaml")
            return true
        } catch {
            return false
        }
    }

    /// Reads `bytes` as a baseline file: text as ``Baseline/read(from:)`` decodes it, then
    /// ``Baseline/decode(_:path:)``.
    @discardableResult
    public static func baseline(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let text = text(bytes) else { return false }
        do {
            _ = try Baseline.decode(Data(text.utf8), path: "fuzz-baseline.json")
            return true
        } catch {
            return false
        }
    }

    /// Reads `bytes` as a thresholds file: text as ``Thresholds/read(from:)`` decodes it, then
    /// ``Thresholds/decode(_:path:)``.
    @discardableResult
    public static func thresholds(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let text = text(bytes) else { return false }
        do {
            _ = try Thresholds.decode(Data(text.utf8), path: "fuzz-thresholds.json")
            return true
        } catch {
            return false
        }
    }

    /// Reads `bytes` as a results file (``ResultsFile/decode(_:path:)``).
    @discardableResult
    public static func results(_ bytes: UnsafeRawBufferPointer) -> Bool {
        do {
            _ = try ResultsFile.decode(Data(bytes), path: "fuzz-results.json")
            return true
        } catch {
            return false
        }
    }
}
