import Foundation
import PressureLabHeap
import SystemPackage

/// Figures a paper or an artifact published for an experiment, kept in a data file beside
/// its scenario with their source (repository, commit, files): for Fleet's,
/// `scenarios/experiments/fleet-published.json`. They are what modelled figures are set
/// beside; nothing in a run reads them.
public struct PublishedExperiment: Codable, Sendable, Equatable {
    /// Where the figures come from.
    public struct Source: Codable, Sendable, Equatable {
        /// The repository (`jiachengh/Fleet`).
        public var repository: String
        /// The commit the figures were read at.
        public var commit: String
        /// The file of each kind of figure, by kind.
        public var files: [String: String]

        /// Where figures come from: a repository, a commit, and the file of each kind of figure.
        public init(repository: String, commit: String, files: [String: String]) {
            (self.repository, self.commit, self.files) = (repository, commit, files)
        }
    }

    /// Where the figures were published (a paper, an artifact).
    public var published: String
    /// The repository, commit and files they were read from.
    public var source: Source
    /// The apps, in the order the experiment launches them.
    public var apps: [String]
    /// Apps alive right after each launch, per configuration (`android-no-swap`, ...).
    public var aliveAfterLaunch: [String: [Int]]
    /// Hot-launch samples in milliseconds, per configuration and app.
    public var hotLaunchMs: [String: [String: [Double]]]
    /// Each app's memory in the background (PSS + swap, the mean over the prints), kB, per
    /// configuration and app, where the source measured it.
    public var backgroundKB: [String: [String: Double]]?
    /// Notes on the figures, by topic.
    public var notes: [String: String]

    /// Published figures, as a data file holds them.
    public init(published: String, source: Source, apps: [String], aliveAfterLaunch: [String: [Int]],
                hotLaunchMs: [String: [String: [Double]]], backgroundKB: [String: [String: Double]]? = nil,
                notes: [String: String]) {
        (self.published, self.source, self.apps) = (published, source, apps)
        (self.aliveAfterLaunch, self.hotLaunchMs, self.backgroundKB, self.notes) = (aliveAfterLaunch, hotLaunchMs, backgroundKB, notes)
    }

    /// Reads the data file at `path` (a located error when it is not one).
    public static func read(from path: String) throws(HarnessError) -> PublishedExperiment {
        do {
            let bytes = try InputKind.experiment.contents(of: path)
            return try JSONDecoder().decode(PublishedExperiment.self, from: Data(bytes))
        } catch let error as InputFile.Problem {
            throw .cannotRead(path: path, reason: error.description)
        } catch {
            throw .cannotRead(path: path, reason: "not a published-figures file: \(error)")
        }
    }
}

/// Modelled figures beside published ones: relative errors and medians.
public enum PublishedComparison {
    /// (modelled - published) / published; nil when the published figure is 0.
    public static func relativeError(_ modelled: Double, _ published: Double) -> Double? {
        published == 0 ? nil : (modelled - published) / published
    }

    /// The median of `values` (the mean of the two middle ones for an even count); nil when empty.
    public static func median(_ values: [Double]) -> Double? {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The mean of `values`; nil when empty.
    public static func mean(_ values: [Int]) -> Double? {
        values.isEmpty ? nil : Double(values.reduce(0, +)) / Double(values.count)
    }
}
