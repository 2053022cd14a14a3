import Foundation
import PressureLabHarness

/// A jetsam event report as PressureLab reads it (docs/importing.md, "Jetsam event
/// reports"): the moment the system killed a process for memory, every process on the
/// device with its resident pages and states, the page size and the device's page counts.
///
/// Two layouts: the JSON report of iOS 10 and later (`JetsamEvent-*.ips`, `bug_type` 298: a
/// header line, then the report object) and the plain-text LowMemory report of iOS 9 and
/// earlier (``readLowMemory(_:)``).
package struct JetsamReport: Sendable, Equatable {
    /// Which layout the report had.
    package enum Layout: String, Sendable, Equatable {
        /// `JetsamEvent-*.ips`: JSON, `bug_type` 298 (iOS 10 and later).
        case json = "JSON"
        /// `LowMemory-*.ips` / `.plist` text: iOS 9 and earlier.
        case lowMemory = "LowMemory text"
    }

    /// One process of the report.
    package struct Process: Sendable, Equatable {
        /// Its name (`"pid N"` when the report gives none).
        package var name: String
        /// Its resident pages (`rpages`).
        package var residentPages: Int
        /// Its states, as the report writes them (`frontmost`, `suspended`, `daemon`, ...).
        package var states: [String]
        /// Why the system killed it (`per-process-limit`, `vm-pageshortage`, `highwater`, ...), or
        /// nil when it was not killed.
        package var killReason: String?
        /// The report's line where the process's entry starts.
        package var line: Int

        /// Whether it is one of the system's daemons (the system's share, not an app).
        package var isDaemon: Bool { states.contains("daemon") }
        /// Whether it was the app in front.
        package var isFrontmost: Bool { states.contains("frontmost") }
    }

    package var layout: Layout
    /// Bytes a page (`pageSize`; 4096 in a LowMemory report, which does not say).
    package var pageSize: Int
    /// The device's model identifier (`product`, `Hardware Model`), when given.
    package var product: String?
    /// The OS build (`build`, `OS Version`), when given.
    package var build: String?
    /// When the report was taken (`date`, `Date`), when given.
    package var date: String?
    /// The process the report names as the largest (`largestProcess`, `Largest process`).
    package var largestProcess: String?
    /// The device's page counts by the report's names (`free`, `active`, `wired`, ...).
    package var memoryPages: [String: Int]
    /// Pages the compressor holds (`compressorSize`, `Compressor Size`), when given.
    package var compressorPages: Int?
    /// Every process, in the report's order.
    package var processes: [Process]

    /// The device's physical pages as the report counts them: free, active, inactive,
    /// speculative, throttled and wired pages, and the compressor's.
    package var physicalPages: Int {
        ["free", "active", "inactive", "speculative", "throttled", "wired"].reduce(compressorPages ?? 0) {
            $0.addingSaturating(memoryPages[$1] ?? 0)
        }
    }

    /// The device a model identifier names, for the few this table knows (Apple's "Identify
    /// your iPhone model", support.apple.com/en-us/108044); nil for another.
    package static func deviceClass(_ product: String) -> String? {
        let known = ["iPhone4,1": "iPhone 4S", "iPhone5,2": "iPhone 5", "iPhone7,2": "iPhone 6",
                     "iPhone8,1": "iPhone 6s", "iPhone9,1": "iPhone 7", "iPhone10,4": "iPhone 8",
                     "iPhone11,2": "iPhone XS", "iPhone12,1": "iPhone 11", "iPhone13,2": "iPhone 12",
                     "iPhone14,5": "iPhone 13", "iPhone15,2": "iPhone 14 Pro"]
        return known[product]
    }

    /// The processes killed (those with a reason).
    package var kills: [Process] { processes.filter { $0.killReason != nil } }

    /// Reads a report of either layout; `dump` names the file in errors.
    /// - Throws: ``ImportError`` located at the line where the text stopped being a report,
    ///   saying what was expected.
    package static func read(_ dump: DumpText) throws(ImportError) -> JetsamReport {
        guard let first = dump.lines.firstIndex(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            throw ImportError(path: dump.path, line: 0, "the file is empty; expected a jetsam event report (a JSON header line "
                + "with \"bug_type\":\"298\", then the report) or a LowMemory text report (iOS 9 and earlier)")
        }
        let opening = dump.lines[first].trimmingCharacters(in: .whitespaces)
        if opening.hasPrefix("{") { return try readJSON(dump, from: first) }
        if opening.hasPrefix("Incident Identifier:") || dump.lines.contains(where: { $0.hasPrefix("Free pages:") }) {
            return try readLowMemory(dump)
        }
        throw ImportError(path: dump.path, line: first + 1, "expected a jetsam event report: a JSON header line with "
            + "\"bug_type\":\"298\" (JetsamEvent-*.ips, iOS 10 and later) or a LowMemory text report starting "
            + "'Incident Identifier:' (iOS 9 and earlier); found '\(opening.prefix(60))'")
    }
}
