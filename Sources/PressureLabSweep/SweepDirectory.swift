import Foundation
import PressureLabHarness
import PressureLabHeap
import SystemPackage

/// What a sweep's results directory holds, and how it is written:
///
/// - `sweep.json`: the manifest (``SweepManifest``): tool version, sweep hash, cell count,
///   the shard this directory ran.
/// - `cells/NNNNNN.json`: one finished cell (``CellRecord``), written atomically by the
///   worker that ran it, so that a cell is either whole or absent, whatever kills what.
/// - `cells/NNNNNN.failed.json`: why a cell failed (``CellFailure``), and
///   `cells/NNNNNN.failed.log`, its worker's standard error; removed when the cell later
///   succeeds.
/// - `results.json` and `results.sqlite`: the merged results, once every cell is there.
package struct SweepDirectory: Sendable {
    package let path: String

    package init(path: String) {
        self.path = path
    }

    package var manifestPath: String { "\(path)/sweep.json" }
    package var cellsPath: String { "\(path)/cells" }
    package var resultsPath: String { "\(path)/results.json" }
    package var databasePath: String { "\(path)/results.sqlite" }

    package func cellPath(_ index: Int) -> String { "\(cellsPath)/\(Self.name(index)).json" }
    package func failurePath(_ index: Int) -> String { "\(cellsPath)/\(Self.name(index)).failed.json" }
    /// A failed cell's worker's whole standard error.
    package func failureLogPath(_ index: Int) -> String { "\(cellsPath)/\(Self.name(index)).failed.log" }

    static func name(_ index: Int) -> String {
        let digits = String(index)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// Creates the directory and `cells/`.
    package func create() throws(SweepError) {
        do {
            try HostFiles.makeDirectories(FilePath(cellsPath))
        } catch {
            throw .io(error.description)
        }
    }

    /// The manifest, or nil when there is none.
    package func manifest() throws(SweepError) -> SweepManifest? {
        guard HostFiles.statusIfPresent(FilePath(manifestPath)) != nil else { return nil }
        return try Self.decode(SweepManifest.self, at: manifestPath)
    }

    /// Writes the manifest atomically.
    package func write(_ manifest: SweepManifest) throws(SweepError) {
        try Self.write(manifest, to: manifestPath)
    }

    /// The indices of the finished cells (files named `NNNNNN.json` in `cells/`); none when
    /// there is no `cells/` yet. A directory that cannot be read is an error, never "empty".
    package func finishedIndices() throws(SweepError) -> [Int] {
        try names().compactMap { name -> Int? in
            // Exactly NNNNNN.json as the tool names them: `-1.json` or `+5.json` is no cell.
            guard name.hasSuffix(".json"), let index = Int(name.dropLast(5)), index >= 0, name == "\(Self.name(index)).json"
            else { return nil }
            return index
        }.sorted()
    }

    /// The indices of the cells that failed (and have not succeeded since).
    package func failedIndices() throws(SweepError) -> [Int] {
        try names().compactMap { name -> Int? in
            guard name.hasSuffix(".failed.json"), let index = Int(name.dropLast(12)), index >= 0,
                  name == "\(Self.name(index)).failed.json" else { return nil }
            return index
        }.sorted()
    }

    /// Removes what an earlier sweep killed outright left: temporaries of records whose
    /// writer died mid-write (`NNNNNN.json.tmp-PID-X`, never a result) and its workers'
    /// standard-error files (`NNNNNN.stderr`). Call it before any worker starts.
    package func removeStaleTemporaries() throws(SweepError) {
        for name in try names() where name.contains(".tmp-") || name.hasSuffix(".stderr") {
            HostFiles.remove(FilePath("\(cellsPath)/\(name)"))
        }
    }

    private func names() throws(SweepError) -> [String] {
        guard HostFiles.statusIfPresent(FilePath(cellsPath)) != nil else { return [] }
        do {
            return try FileManager.default.contentsOfDirectory(atPath: cellsPath)
        } catch {
            throw .io("\(cellsPath): cannot list the finished cells: \(error.localizedDescription)")
        }
    }

    /// A finished cell's record that could not be read, set aside (renamed) so that its cell
    /// runs again: where it went and why.
    package struct SetAside: Sendable, Equatable, CustomStringConvertible {
        package var index: Int
        package var path: String
        package var reason: String

        package var description: String {
            "cell \(index): its record could not be read (\(reason)); set aside as \(path), the cell runs again"
        }
    }

    /// Checks the records of `indices` and sets aside (renames to `NNNNNN.unreadable`, or
    /// `NNNNNN.unreadable-2`, ...) each that is not a readable record of cell `index` of
    /// sweep `hash`: truncated, garbage, a directory. Returns what was set aside.
    package func setAsideUnreadableRecords(_ indices: [Int], sweep hash: String) -> [SetAside] {
        var setAside: [SetAside] = []
        for index in indices {
            let reason: String
            do {
                let record = try record(index)
                guard record.sweep != hash || record.cell.index != index else { continue }
                reason = record.sweep != hash ? "it is a record of sweep \(record.sweep)" : "it is the record of cell \(record.cell.index)"
            } catch {
                reason = error.description
            }
            var target = "\(cellsPath)/\(Self.name(index)).unreadable"
            var attempt = 1
            while HostFiles.statusIfPresent(FilePath(target), followingLinks: false) != nil {
                attempt += 1
                target = "\(cellsPath)/\(Self.name(index)).unreadable-\(attempt)"
            }
            do {
                try HostFiles.rename(FilePath(cellPath(index)), to: FilePath(target))
                setAside.append(SetAside(index: index, path: target, reason: reason))
            } catch {
                continue  // left in place: the cell stays "finished" and the merge says why it cannot read it
            }
        }
        return setAside
    }

    /// Reads a finished cell.
    package func record(_ index: Int) throws(SweepError) -> CellRecord {
        try Self.decode(CellRecord.self, at: cellPath(index))
    }

    /// Writes a finished cell atomically (flushed first) and removes an earlier failure.
    package func write(_ record: CellRecord) throws(SweepError) {
        try Self.write(record, to: cellPath(record.cell.index))
        HostFiles.remove(FilePath(failurePath(record.cell.index)))
        HostFiles.remove(FilePath(failureLogPath(record.cell.index)))
    }

    /// Writes a cell's failure atomically.
    package func write(_ failure: CellFailure) throws(SweepError) {
        try Self.write(failure, to: failurePath(failure.cell.index))
    }

    static func write<Value: Encodable>(_ value: Value, to path: String) throws(SweepError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let bytes: [UInt8]
        do {
            bytes = Array(try encoder.encode(value)) + [0x0A]
        } catch {
            throw .io("\(path): cannot encode: \(error)")
        }
        do {
            try HostFiles.writeAtomically(FilePath(path), contents: bytes)
        } catch {
            throw .io(error.description)
        }
    }

    static func decode<Value: Decodable>(_ type: Value.Type, at path: String) throws(SweepError) -> Value {
        let bytes: [UInt8]
        do {
            bytes = try InputKind.sweepRecord.contents(of: path)
        } catch {
            throw .io("\(path): cannot read: \(error)")
        }
        do {
            return try JSONDecoder().decode(Value.self, from: Data(bytes))
        } catch {
            throw .io("\(path): not a readable sweep file: \(error)")
        }
    }
}

/// `sweep.json`: what a results directory holds results of.
package struct SweepManifest: Codable, Sendable, Equatable {
    package var schema = "pressurelab.sweep/1"
    /// The tool version that ran the cells.
    package var tool: String
    /// The sweep's hash (``SweepPlan/hash``).
    package var sweep: String
    /// The sweep file, as given.
    package var file: String
    /// Cells in the whole sweep.
    package var cells: Int
    /// The shard this directory ran (`I/N`).
    package var shard: String

    package init(tool: String, sweep: String, file: String, cells: Int, shard: Shard) {
        self.tool = tool
        self.sweep = sweep
        self.file = file
        self.cells = cells
        self.shard = shard.description
    }
}

/// One finished cell: what it was, and its results.
package struct CellRecord: Codable, Sendable {
    package var schema = "pressurelab.sweep-cell/1"
    package var tool: String
    package var sweep: String
    package var cell: SweepCell
    package var results: ResultsFile

    package init(tool: String, sweep: String, cell: SweepCell, results: ResultsFile) {
        self.tool = tool
        self.sweep = sweep
        self.cell = cell
        self.results = results
    }
}

/// Why a cell failed: the worker's exit status or signal and its last lines on standard error.
package struct CellFailure: Codable, Sendable {
    package var cell: SweepCell
    /// "exit status 1", "killed by signal 9".
    package var status: String
    package var standardError: [String]

    package init(cell: SweepCell, status: String, standardError: [String]) {
        self.cell = cell
        self.status = status
        self.standardError = standardError
    }
}
