import Foundation
import GRDB
import PressureLabHarness
import PressureLabHeap
import SystemPackage

/// A sweep's results as a SQLite database, for slicing a grid of thousands of cells with SQL:
///
/// - `sweep(key, value)`: `tool`, `hash`, `file`, `cells`.
/// - `cells(cell, scenario, policy, termination, profile, compressor, seed, user, repeats,
///   memory_scale)`: one row per cell (NULL: the scenario's own value). `memory_scale` is the
///   scenario's `device.memory_scale` (1 when it has none): the cell simulated 1/N of the
///   memory, and its byte figures are at full size all the same.
/// - `metrics(cell, metric, kind, unit, value, min, max, runs)`: one row per cell and metric
///   (every ``GatedMetric``): `value` is the mean over the cell's runs.
/// - `results`: the two joined, one row per cell and metric.
///
/// ```sh
/// sqlite3 results.sqlite "SELECT policy, termination, AVG(value) FROM results
///                         WHERE metric = 'peakRetainedBytes' GROUP BY 1, 2 ORDER BY 3"
/// ```
package enum SweepDatabase {
    /// Writes the database to a temporary beside `path`, then renames it into place.
    package static func write(_ merged: SweepMerge.Merged, to path: String) throws(SweepError) {
        let temporary = try prepare(merged, for: path)
        do {
            try HostFiles.rename(FilePath(temporary), to: FilePath(path))
        } catch {
            HostFiles.remove(FilePath(temporary))
            throw .io("\(path): cannot write the database: \(error)")
        }
    }

    /// Writes the database to a temporary beside `path` and returns the temporary's path, for
    /// the caller to rename into place (with the files it belongs with) or remove.
    static func prepare(_ merged: SweepMerge.Merged, for path: String) throws(SweepError) -> String {
        let temporary = "\(path).tmp-\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 36))"
        HostFiles.remove(FilePath(temporary))
        do {
            let queue = try DatabaseQueue(path: temporary)
            try queue.write { db in
                try createSchema(db)
                for (key, value) in [("tool", merged.manifest.tool), ("hash", merged.manifest.sweep),
                                     ("file", merged.manifest.file), ("cells", String(merged.manifest.cells))] {
                    try db.execute(sql: "INSERT INTO sweep(key, value) VALUES (?, ?)", arguments: [key, value])
                }
                for record in merged.records { try insert(record, db) }
            }
            try queue.close()
            return temporary
        } catch {
            HostFiles.remove(FilePath(temporary))
            throw .io("\(path): cannot write the database: \(error)")
        }
    }

    static func createSchema(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE sweep(key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE cells(
                cell INTEGER PRIMARY KEY, scenario TEXT NOT NULL, policy TEXT NOT NULL, termination TEXT NOT NULL,
                profile TEXT, compressor TEXT, seed INTEGER, user TEXT, repeats INTEGER NOT NULL,
                memory_scale INTEGER NOT NULL);
            CREATE TABLE metrics(
                cell INTEGER NOT NULL REFERENCES cells(cell), metric TEXT NOT NULL, kind TEXT NOT NULL, unit TEXT NOT NULL,
                value REAL NOT NULL, min REAL NOT NULL, max REAL NOT NULL, runs INTEGER NOT NULL,
                PRIMARY KEY(cell, metric));
            CREATE VIEW results AS
                SELECT cells.*, metrics.metric, metrics.kind, metrics.unit, metrics.value, metrics.min, metrics.max, metrics.runs
                FROM cells JOIN metrics USING(cell);
            """)
    }

    static func insert(_ record: CellRecord, _ db: Database) throws {
        let cell = record.cell
        let seed: DatabaseValue = cell.seed.map { $0 <= UInt64(Int64.max) ? Int64($0).databaseValue : String($0).databaseValue } ?? .null
        try db.execute(sql: """
            INSERT INTO cells(cell, scenario, policy, termination, profile, compressor, seed, user, repeats, memory_scale)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [cell.index, cell.scenario, cell.policy.name, cell.termination.name, cell.profile,
                             cell.compressor?.rawValue, seed, cell.user, cell.repeats,
                             record.results.runs.first?.memoryScale ?? 1])
        let runs = record.results.runs
        guard !runs.isEmpty else { return }
        for metric in GatedMetric.allCases {
            let values = runs.map { metric.value(in: $0) }
            let mean = values.reduce(0, +) / Double(values.count)
            try db.execute(sql: "INSERT INTO metrics(cell, metric, kind, unit, value, min, max, runs) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           arguments: [cell.index, metric.rawValue, "\(metric.kind)", metric.unit.rawValue, mean,
                                       values.min()!, values.max()!, values.count])
        }
    }
}
