import Foundation
import PressureLabHarness
import PressureLabHeap
import SystemPackage

/// Joins the results directories of a sweep's shards into one set of cells, refusing, with
/// the reason, shards of another tool version or another sweep, cells in two shards, and
/// cells in none.
package enum SweepMerge {
    /// What the directories hold together: the manifest they share and every cell's record,
    /// in cell order.
    package struct Merged: Sendable {
        package var manifest: SweepManifest
        package var records: [CellRecord]
    }

    /// Reads and checks `directories`.
    package static func collect(_ directories: [SweepDirectory]) throws(SweepError) -> Merged {
        guard let first = directories.first else { throw .mergeRefused("no directory given") }
        var manifests: [(SweepDirectory, SweepManifest)] = []
        for directory in directories {
            guard let manifest = try directory.manifest() else {
                throw .mergeRefused("\(directory.path) has no sweep.json: it is not a sweep's results directory")
            }
            manifests.append((directory, manifest))
        }
        let reference = manifests[0].1
        // A manifest is a file on disk: its cell count is checked before anything counts to it.
        guard (0...SweepFile.maximumCells).contains(reference.cells) else {
            throw .mergeRefused("\(first.path)/sweep.json says the sweep has \(reference.cells) cells; a sweep has at most "
                + "\(SweepFile.maximumCells)")
        }
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
                guard (0..<reference.cells).contains(index) else {
                    throw .mergeRefused("\(directory.path) holds cell \(index), but the sweep has \(reference.cells) cells")
                }
                if let other = owner[index] {
                    throw .mergeRefused("cell \(index) is in both \(other) and \(directory.path) (the same shard given twice?)")
                }
                owner[index] = directory.path
            }
        }
        let missingCount = reference.cells - owner.count
        if missingCount > 0 {
            let shards = Set(manifests.map(\.1.shard))
            let count = manifests.compactMap { try? Shard(parsing: $0.1.shard).count }.max() ?? 1
            // At most ten of each are named: a shard count can be as large as the cells.
            let absentShards = count > 1 ? (1...count).lazy.map { "\($0)/\(count)" }.filter { !shards.contains($0) } : nil
            let absent = absentShards.map { Array($0.prefix(10)) } ?? []
            let absentMore = absentShards.map { Array($0.prefix(11)).count > 10 } ?? false
            let missing = Array((0..<reference.cells).lazy.filter { owner[$0] == nil }.prefix(10))
            let listed = missing.map(String.init).joined(separator: ", ") + (missingCount > 10 ? ", ..." : "")
            throw .mergeRefused("\(missingCount) of \(reference.cells) cells are missing (\(listed))"
                + (absent.isEmpty ? "; finish the shards that did not (pressurelab sweep FILE --shard I/N --output DIR --resume)"
                    : "; no directory of shard \(absent.joined(separator: ", "))\(absentMore ? ", ..." : "") was given"))
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
    package static func resultsFile(_ merged: Merged) -> ResultsFile? {
        guard var file = merged.records.first?.results else { return nil }
        file.runs = merged.records.flatMap(\.results.runs)
        let profiles = Set(merged.records.compactMap { $0.results.host.profile?.hash })
        if profiles.count != 1 { file.host.profile = nil }
        return file
    }

    /// What is in the way of the results and the database and cannot be replaced by a rename
    /// (a directory): refused before anything is written (a sweep checks it before its cells
    /// run too), so that nothing is moved aside and left behind.
    package static func refuseDirectories(results: String, database: String?) throws(SweepError) {
        for path in [results, database].compactMap({ $0 }) {
            if let status = HostFiles.statusIfPresent(FilePath(path), followingLinks: false), status.type == .directory {
                throw .io("\(path): cannot write the \(path == results ? "results" : "database") there: it is a directory; "
                    + "move it away or name another file")
            }
        }
    }

    /// Writes the merged results (JSON) and the database (SQLite), all or nothing: both are
    /// written to temporaries beside their destinations first, then renamed into place; when
    /// either fails, neither is left (a results file without its database, or the reverse, is
    /// never written). The two must be different files (the command checks).
    package static func write(_ merged: Merged, results: String, database: String?) throws(SweepError) {
        guard let file = resultsFile(merged) else { throw .mergeRefused("the sweep has no cells") }
        try refuseDirectories(results: results, database: database)
        let text: String
        do { text = try ResultFormatter.json(file) } catch { throw .io("\(results): cannot encode the results: \(error)") }
        let databaseTemporary = try database.map { path throws(SweepError) in try SweepDatabase.prepare(merged, for: path) }
        do throws(FileError) {
            let json = try AtomicFile(replacing: FilePath(results))
            Array(text.utf8).withUnsafeBytes { json.write($0) }
            do {
                try json.finish()
            } catch {
                json.discard()
                throw error
            }
            // The old database is kept aside until the results are in place, and put back if
            // they cannot be: a failed merge leaves both files as they were.
            var previous: FilePath?
            if let database, let databaseTemporary {
                if HostFiles.statusIfPresent(FilePath(database), followingLinks: false) != nil {
                    let aside = FilePath("\(databaseTemporary).previous")
                    do { try HostFiles.rename(FilePath(database), to: aside) } catch {
                        json.discard()
                        throw error
                    }
                    previous = aside
                }
                do {
                    try HostFiles.rename(FilePath(databaseTemporary), to: FilePath(database))
                } catch {
                    if let previous { try? HostFiles.rename(previous, to: FilePath(database)) }
                    json.discard()
                    throw error
                }
            }
            do {
                try json.replaceDestination()
            } catch {
                if let database {
                    if let previous { try? HostFiles.rename(previous, to: FilePath(database)) } else { HostFiles.remove(FilePath(database)) }
                }
                throw error
            }
            if let previous { HostFiles.remove(previous) }
        } catch {
            if let databaseTemporary { HostFiles.remove(FilePath(databaseTemporary)) }
            throw .io(error.description)
        }
    }
}
