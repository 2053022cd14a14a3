import PressureLabHeap
import SystemPackage

/// The kinds of file the tool reads, each with the most bytes it may have. Every one is read
/// through `InputFile`: a regular file (a FIFO, a device or a directory is refused at once)
/// of at most ``maximumBytes``, so that no input can hang a command or take memory without
/// bound. The limits are far above what the tool writes or ships.
public enum InputKind: String, CaseIterable, Sendable {
    /// A scenario, profile, sweep, baseline, thresholds, results or usage-trace file.
    case scenario, profile, sweep, baseline, thresholds, results, trace
    /// A published experiment (`experiments/*.json`, `*.yaml`).
    case experiment
    /// A sweep's record of one cell, or its plan, in the results directory.
    case sweepRecord = "sweep record"
    /// A tool's dump that `pressurelab import` reads (`dumpsys meminfo`, `recursiveDescription`,
    /// `uiautomator dump`, `vmmap --summary`).
    case dump

    /// The most bytes a file of this kind may have.
    public var maximumBytes: Int {
        switch self {
        case .scenario: return YAMLPrescan.maximumFileBytes          // 4 MiB
        case .profile, .sweep, .thresholds: return 1 << 20           // 1 MiB
        case .dump: return 64 << 20                                  // a long loop of meminfo prints
        case .experiment: return 16 << 20
        case .baseline: return 64 << 20
        case .results, .sweepRecord: return 512 << 20
        case .trace: return LSAppTrace.maximumFileBytes              // 512 MiB
        }
    }

    /// The file's contents, checked as `InputFile` checks them.
    public func contents(of path: String) throws(InputFile.Problem) -> [UInt8] {
        try InputFile.contents(of: FilePath(path), maximumBytes: maximumBytes)
    }

    /// The file's text, decoded as ``TextInput`` decodes every text input (UTF-8 or UTF-16
    /// with a byte-order mark; line ends made `\n`; YAML's own line breaks too for the YAML
    /// kinds), or why not.
    public func text(of path: String) throws(TextProblem) -> TextInput.Decoded {
        let bytes: [UInt8]
        do { bytes = try contents(of: path) } catch { throw .unreadable(error) }
        do { return try TextInput.decode(bytes, lineBreaks: lineBreaks) } catch { throw .notText(error) }
    }

    /// The line breaks of this kind: YAML's for scenarios, profiles and sweeps.
    public var lineBreaks: TextInput.LineBreaks {
        switch self {
        case .scenario, .profile, .sweep: return .yaml
        default: return .common
        }
    }

    /// Why a text input could not be read: the file, or its bytes.
    public enum TextProblem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The file could not be read (see `InputFile/Problem`).
        case unreadable(InputFile.Problem)
        /// Its bytes are not text this tool reads, at a line and column.
        case notText(TextInput.Refusal)

        /// The reason, without the path.
        public var description: String {
            switch self {
            case .unreadable(let problem): return problem.description
            case .notText(let refusal): return refusal.message
            }
        }

        /// The 1-based line and column of the problem (0 and 0 for an unreadable file).
        public var location: (line: Int, column: Int) {
            switch self {
            case .unreadable: return (0, 0)
            case .notText(let refusal): return (refusal.line, refusal.column)
            }
        }
    }

    /// "PATH: cannot read the KIND: REASON", for messages.
    public func message(_ path: String, _ problem: InputFile.Problem) -> String {
        "\(path): cannot read the \(rawValue): \(problem)"
    }
}
