import Foundation
import PressureLabHarness
import PressureLabHeap
import SystemPackage

/// Joins the results directories of a sweep's shards into one set of cells, refusing, with
/// the reason, shards of another tool version or another sweep, cells in two shards, and
/// cells in none.
public enum SweepMerge {
    /// What the directories hold together: the manifest they share and every cell's record,
    /// in cell order.
    public struct Merged: Sendable {
        public var manifest: SweepManifest
        public var records: [CellRecord]
    }

    /// Reads and checks `directories`.
    public static func collect(_ directories: [SweepDirectory]) throws(SweepError) -> Merged {
        guard let first = directories.first else { throw .mergeRefused("no directory given") }
        var manifests: [(SweepDirectory, SweepManifest)] = []
        for directory in directories {
            guard let manifest = try directory.manifest() else {
                throw .mergeRefused("\(directory.path) has no sweep.json: it is not a sweep's results directory")
            }
            manifests.append((directory, manifest))
        }
        let reference = manifests[0].1
        for (directory, manifest) in manifests.dropFirst() {
            if manifest.tool != reference.tool {
                throw .mergeRefused("\(directory.path) was run by pressurelab \(manifest.tool), \(first.path) by \(reference.tool)")
            }
            if manifest.sweep != reference.sweep || manifest.cells != reference.cells {
                throw .mergeRefused("\(directory.path) holds another sweep (\(manifest.file), hash \(manifest.sweep)) than "
                    + "\(first.path) (\(reference.file), hash \(reference.sweep))")
            }
        }
        var owner: [Int: String] = [:]
        for (directory, _) in manifests {
            for index in try directory.finishedIndices() {
                guard index < reference.cells else {
                    throw .mergeRefused("\(directory.path) holds cell \(index), but the sweep has \(reference.cells) cells")
                }
                if let other = owner[index] {
                    throw .mergeRefused("cell \(index) is in both \(other) and \(directory.path) (the same shard given twice?)")
                }
                owner[index] = directory.path
            }
        }
        let missing = (0..<reference.cells).filter { owner[$0] == nil }
        if !missing.isEmpty {
            let shards = Set(manifests.map(\.1.shard))
            let count = manifests.compactMap { try? Shard(parsing: $0.1.shard).count }.max() ?? 1
            var absent: [String] = []
            if count > 1 {
                absent = (1...count).map { "\($0)/\(count)" }.filter { !shards.contains($0) }
            }
            let listed = missing.prefix(10).map(String.init).joined(separator: ", ") + (missing.count > 10 ? ", ..." : "")
            throw .mergeRefused("\(missing.count) of \(reference.cells) cells are missing (\(listed))"
                + (absent.isEmpty ? "; finish the shards that did not (pressurelab sweep FILE --shard I/N --output DIR --resume)"
                    : "; no directory of shard \(absent.joined(separator: ", ")) was given"))
        }
        var records: [CellRecord] = []
        records.reserveCapacity(reference.cells)
        for index in 0..<reference.cells {
            let record = try SweepDirectory(path: owner[index]!).record(index)
            guard record.sweep == reference.sweep, record.cell.index == index else {
                throw .mergeRefused("\(SweepDirectory(path: owner[index]!).cellPath(index)) is not cell \(index) of sweep \(reference.sweep)")
            }
            guard record.tool == reference.tool else {
                throw .mergeRefused("\(SweepDirectory(path: owner[index]!).cellPath(index)) was run by pressurelab \(record.tool), "
                    + "the sweep by \(reference.tool)")
            }
            records.append(record)
        }
        return Merged(manifest: reference, records: records)
    }

    /// One results file (`pressurelab.results/1`) of every cell's runs, in cell order.
    public static func resultsFile(_ merged: Merged) -> ResultsFile? {
        guard var file = merged.records.first?.results else { return nil }
        file.runs = merged.records.flatMap(\.results.runs)
        let profiles = Set(merged.records.compactMap { $0.results.host.profile?.hash })
        if profiles.count != 1 { file.host.profile = nil }
        return file
    }

    /// Writes the merged results (JSON) and the database (SQLite) atomically.
    public static func write(_ merged: Merged, results: String, database: String?) throws(SweepError) {
        guard let file = resultsFile(merged) else { throw .mergeRefused("the sweep has no cells") }
        do {
            let text = try ResultFormatter.json(file)
            try HostFiles.writeAtomically(FilePath(results), contents: Array(text.utf8))
        } catch let error as FileError {
            throw .io(error.description)
        } catch {
            throw .io("\(results): cannot encode the results: \(error)")
        }
        if let database { try SweepDatabase.write(merged, to: database) }
    }
}
