import PressureLabHarness

/// Why a sweep, or a merge of sweep results, cannot go on. Each says what to do.
package enum SweepError: Error, Equatable, CustomStringConvertible {
    /// The sweep file is invalid: every problem, located.
    case invalidFile(path: String, problems: [String])
    /// A scenario of the sweep is invalid.
    case invalidScenario(String)
    /// `--shard` is not `I/N` with 1 <= I <= N.
    case invalidShard(String)
    /// The results directory holds results of another sweep (or another tool version).
    case foreignResults(directory: String, reason: String)
    /// The results directory holds finished cells and `--resume` was not given.
    case resumeNeeded(directory: String, finished: Int)
    /// Shards that cannot be merged (another version or sweep, overlapping or missing cells).
    case mergeRefused(String)
    /// A file could not be read or written.
    case io(String)

    package var description: String {
        switch self {
        case .invalidFile(_, let problems): return problems.joined(separator: "\n")
        case .invalidScenario(let text): return text
        case .invalidShard(let text):
            return "--shard \(text): expected I/N with 1 <= I <= N <= \(Shard.maximumCount) (for example 2/3)"
        case .foreignResults(let directory, let reason): return "\(directory): \(reason)"
        case .resumeNeeded(let directory, let finished):
            return "\(directory) already holds \(finished) finished cell\(finished == 1 ? "" : "s") of this sweep; "
                + "give --resume to run only the missing ones, or remove the directory to start again"
        case .mergeRefused(let reason): return "cannot merge: \(reason)"
        case .io(let text): return text
        }
    }
}

/// `I/N`: the I-th of N deterministic slices of a sweep's cells (cells whose index modulo N
/// is I - 1), so that N machines, each given its own I, run every cell once between them.
package struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 1 to ``count``.
    package var number: Int
    package var count: Int

    /// The whole sweep.
    package static let whole = Shard(number: 1, count: 1)

    package init(number: Int, count: Int) {
        self.number = number
        self.count = count
    }

    /// The most shards a sweep may be cut into: one a cell at most.
    package static let maximumCount = SweepFile.maximumCells

    /// Reads `I/N` (N at most ``maximumCount``).
    package init(parsing text: String) throws(SweepError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let number = Int(parts[0]), let count = Int(parts[1]), (1...Self.maximumCount).contains(count),
              (1...count).contains(number) else {
            throw .invalidShard(text)
        }
        self.init(number: number, count: count)
    }

    /// Whether the cell at `index` is in this shard.
    package func contains(_ index: Int) -> Bool { index % count == number - 1 }

    package var description: String { "\(number)/\(count)" }
}
