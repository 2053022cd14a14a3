import PressureLabHeap
import SystemPackage

/// The kinds of file the tool reads, each with the most bytes it may have. Every one is read
/// through ``InputFile``: a regular file (a FIFO, a device or a directory is refused at once)
/// of at most ``maximumBytes``, so that no input can hang a command or take memory without
/// bound. The limits are far above what the tool writes or ships.
public enum InputKind: String, CaseIterable, Sendable {
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

    /// The file's contents, checked as ``InputFile`` checks them.
    public func contents(of path: String) throws(InputFile.Problem) -> [UInt8] {
        try InputFile.contents(of: FilePath(path), maximumBytes: maximumBytes)
    }

    /// "PATH: cannot read the KIND: REASON", for messages.
    public func message(_ path: String, _ problem: InputFile.Problem) -> String {
        "\(path): cannot read the \(rawValue): \(problem)"
    }
}
