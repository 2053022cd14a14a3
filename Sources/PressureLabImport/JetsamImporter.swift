import Foundation
import PressureLab
import PressureLabHarness

/// `pressurelab import jetsam REPORT`: a jetsam event report becomes a scenario of that
/// moment (docs/importing.md, "Jetsam event reports"). Each process that is not a daemon is
/// an app holding its resident bytes (`rpages` x `pageSize`) as app-wide data; the daemons
/// are the system's share, taken off the memory the apps share. The apps are launched in the
/// report's order, the app in front last, so that the others are suspended in that order (a
/// jetsam band lists its processes least recently used first); each killed process's reason
/// is a comment beside it.
package enum JetsamImporter {
    /// What the scenario's apps and the device's memory are simulated at, at most: above it
    /// the scenario says `memory_scale: N` (1/N of every byte, figures reported at full size).
    static let simulatedBytes = 256 << 20

    /// An imported report: the scenario's text, the report it came from and the scale.
    package struct Imported: Sendable {
        /// The scenario, YAML, every figure with its line in the report.
        package var yaml: String
        /// The report as read.
        package var report: JetsamReport
        /// Each app's name in the scenario, by the index of its process in the report.
        package var appNames: [Int: String]
        /// `memory_scale` (1: full size).
        package var memoryScale: Int
        /// The memory the apps share, full size.
        package var budgetBytes: Int
    }

    /// Imports the report in `dump` (``JetsamReport/read(_:)``).
    /// - Throws: ``ImportError`` for text that is not a jetsam report, located.
    package static func importScenario(_ dump: DumpText, profile: String? = nil) throws(ImportError) -> Imported {
        let report = try JetsamReport.read(dump)
        let page = report.pageSize
        let apps = report.processes.indices.filter { !report.processes[$0].isDaemon && report.processes[$0].residentPages > 0 }
        guard !apps.isEmpty else {
            throw ImportError(path: dump.path, line: report.processes[0].line, "the report has no app: every process is a daemon "
                + "or holds no page, so there is nothing to run")
        }
        let appBytes = apps.reduce(0) { $0.addingSaturating(report.processes[$1].residentPages.multipliedSaturating(by: page)) }
        let daemonBytes = report.processes.filter(\.isDaemon).reduce(0) { $0.addingSaturating($1.residentPages.multipliedSaturating(by: page)) }
        let wiredBytes = (report.memoryPages["wired"] ?? 0).multipliedSaturating(by: page)
        // The memory the apps share at that moment: what they hold and the pages still free.
        // The rest of the device's pages (wired, the daemons', file-backed caches, the
        // compressor's) is the system's and is not modelled (docs/importing.md).
        let freeBytes = (report.memoryPages["free"] ?? 0).multipliedSaturating(by: page)
        let measured = report.physicalPages.multipliedSaturating(by: page)
        let budget = appBytes.addingSaturating(freeBytes)
        let scale = min(ScenarioLimits.memoryScale, max(1, budget / simulatedBytes + (budget % simulatedBytes == 0 ? 0 : 1)))
        var names: [Int: String] = [:]
        var used = Set<String>()
        for index in apps {
            var name = appName(report.processes[index].name)
            if used.contains(name) {
                var suffix = 2
                while used.contains("\(name)-\(suffix)") { suffix += 1 }
                name = "\(name)-\(suffix)"
            }
            used.insert(name)
            names[index] = name
        }
        let yaml = render(report, path: dump.path, apps: apps, names: names, scale: scale, budget: budget, measured: measured,
                          daemonBytes: daemonBytes, wiredBytes: wiredBytes, profile: profile ?? "iphone-xs-2018")
        return Imported(yaml: yaml, report: report, appNames: names, memoryScale: scale, budgetBytes: budget)
    }

    /// A scenario name for a process: lowercase letters, digits and dashes.
    static func appName(_ process: String) -> String {
        var name = ""
        for scalar in process.lowercased().unicodeScalars {
            let ok = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
            name += ok ? String(scalar) : (name.hasSuffix("-") || name.isEmpty ? "" : "-")
        }
        while name.hasSuffix("-") { name.removeLast() }
        name = String(name.prefix(ScenarioLimits.nameLength - 8))
        while name.hasSuffix("-") { name.removeLast() }
        return name.isEmpty ? "app" : name
    }

    static func render(_ report: JetsamReport, path: String, apps: [Int], names: [Int: String], scale: Int, budget: Int,
                       measured: Int, daemonBytes: Int, wiredBytes: Int, profile: String) -> String {
        let page = report.pageSize
        func scaled(_ bytes: Int) -> Int { bytes / scale }
        let file = (path as NSString).lastPathComponent
        var lines = ["# Imported by 'pressurelab import jetsam \(file)': the moment of a jetsam event report"
                     + " (\(report.layout.rawValue)), docs/importing.md, \"Jetsam event reports\".",
                     "# Report: \(report.product.map { "product \($0), " } ?? "")\(report.build.map { "\($0), " } ?? "")"
                        + "\(report.date.map { "taken \($0), " } ?? "")page size \(page) B, largest process "
                        + "\(report.largestProcess ?? "not named").",
                     "# Device: \(report.physicalPages) pages (free, active, inactive, speculative, throttled, wired and the "
                        + "compressor's) x \(page) B = \(measured) B; \(wiredBytes) B wired, \(daemonBytes) B in the "
                        + "\(report.processes.filter(\.isDaemon).count) daemons (the system's share). The apps share what they hold "
                        + "and the \(report.memoryPages["free"] ?? 0) free pages: \(budget) B.",
                     "# Device class: \(report.product.map { JetsamReport.deviceClass($0).map { c in "\(c) (\(report.product!))" } ?? $0 } ?? "not named in the report")."]
        if scale > 1 {
            lines.append("# Simulated at 1/\(scale) (memory_scale): every byte figure below is the report's divided by \(scale); "
                + "results report full size.")
        }
        let kills = report.kills
        lines.append("# Kills in the report: " + (kills.isEmpty ? "none." : kills.map { process in
            "\(process.name) (\(process.killReason ?? ""), line \(process.line))"
        }.joined(separator: ", ") + "."))
        lines += ["scenario: 1", "name: \(scenarioName(file))",
                  "description: " + ImportedScenario.scalar("Jetsam event \(report.date ?? file): \(apps.count) apps, "
                    + "\(kills.count) killed in the report"),
                  "seed: 0", "device:", "  profile: \(ImportedScenario.scalar(profile))", "  memory: \(scaled(budget))B"]
        if scale > 1 { lines.append("  memory_scale: \(scale)") }
        lines.append("apps:")
        for index in apps {
            let process = report.processes[index]
            let bytes = process.residentPages.multipliedSaturating(by: page)
            lines.append("  # \(path):\(process.line): \(process.name), \(process.residentPages) rpages x \(page) B = \(bytes) B, "
                + "states \(process.states.isEmpty ? "none" : process.states.joined(separator: ", "))"
                + (process.killReason.map { "; KILLED in the report: \($0)" } ?? ""))
            lines += ["  \(names[index]!):", "    data: \(scaled(bytes))B",
                      "    screens:", "      main: {}", "    root: main"]
        }
        lines.append("script:")
        // The report's order is the order to launch in (least recently used first); the app
        // in front last, so that it is in front at the end.
        let front = apps.filter { report.processes[$0].isFrontmost }
        for index in apps.filter({ !report.processes[$0].isFrontmost }) + front {
            lines.append("  - launch: \(names[index]!)")
        }
        // Text from the report (a process's name, a date) is made one line in every comment:
        // a line break in it would end the comment and be read as keys.
        let safe = lines.map { line -> String in
            let indent = String(line.prefix { $0 == " " })
            guard line.dropFirst(indent.count).hasPrefix("# ") else { return line }
            return ImportedScenario.comment(indent, String(line.dropFirst(indent.count + 2)))
        }
        return safe.joined(separator: "\n") + "\n"
    }

    /// The scenario's name: the report file's, without its extension, as a name.
    static func scenarioName(_ file: String) -> String {
        appName((file as NSString).deletingPathExtension)
    }

    /// The summary the command prints: each app's process, its states and bytes, the report's
    /// kill beside the model's.
    package static func summary(_ imported: Imported, modelEnds: [String: String]) -> [String] {
        let report = imported.report
        var lines = ["jetsam report (\(report.layout.rawValue)): \(report.processes.count) processes, "
            + "\(imported.appNames.count) apps, \(report.processes.filter(\.isDaemon).count) daemons (the system's share), "
            + "page size \(report.pageSize) B, largest process \(report.largestProcess.map(ImportedScenario.oneLine) ?? "not named")"
            + (imported.memoryScale > 1 ? ", simulated at 1/\(imported.memoryScale)" : "")]
        lines.append("kills: in the report \(report.kills.count), in the model \(modelEnds.count)")
        for index in imported.appNames.keys.sorted() {
            let process = report.processes[index], name = imported.appNames[index]!
            let mib = String(format: "%.1f MiB", Double(process.residentPages) * Double(report.pageSize) / 1_048_576)
            let states = process.states.isEmpty ? "no state" : ImportedScenario.oneLine(process.states.joined(separator: ", "))
            lines.append("  \(name) (\(states), \(mib)): "
                + "report \(process.killReason.map { "killed (\(ImportedScenario.oneLine($0)))" } ?? "alive"); model \(modelEnds[name] ?? "alive")")
        }
        for process in report.kills where process.isDaemon {
            lines.append("  \(ImportedScenario.oneLine(process.name)) (daemon, the system's share): report killed (\(ImportedScenario.oneLine(process.killReason ?? ""))); model: not an app")
        }
        return lines
    }
}
