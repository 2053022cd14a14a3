import PressureLab
import PressureLabHarness

/// The dumps `pressurelab import` reads (docs/importing.md), each turned into scenario
/// declarations with every figure's origin (the dump's file and line) in a comment.
package enum ImportFormat: String, CaseIterable, Sendable {
    /// Android's `adb shell dumpsys meminfo PACKAGE`: the app's memory by kind.
    case meminfo
    /// UIKit's `recursiveDescription` as lldb prints it: a view tree with frames.
    case views
    /// Android's `uiautomator dump` XML: a view tree with bounds.
    case uiautomator
    /// `vmmap --summary` of an iOS process or a `.memgraph`: the app's memory by region.
    case vmmap
    /// A jetsam event report (`JetsamEvent-*.ips`, `bug_type` 298) or an iOS 9 LowMemory
    /// report: every process on the device at the moment the system killed one (``JetsamImporter``).
    case jetsam

    /// What the format is, for messages and help.
    package var summary: String {
        switch self {
        case .meminfo: return "adb shell dumpsys meminfo PACKAGE (Android 4.4 to 14)"
        case .views: return "UIKit's recursiveDescription, as lldb or Cycript prints it"
        case .uiautomator: return "adb shell uiautomator dump (XML)"
        case .vmmap: return "vmmap (--summary) of a macOS or iOS process or a .memgraph"
        case .jetsam: return "an iOS jetsam event report, JetsamEvent-*.ips (bug_type 298), or an iOS 9 LowMemory report: the whole device"
        }
    }

    /// The bundled device profile a scenario of this format names when `--profile` is not given.
    package var defaultProfile: String {
        switch self {
        case .meminfo, .uiautomator: return "pixel-3-2018"
        case .views, .vmmap, .jetsam: return "iphone-xs-2018"
        }
    }
}

/// What the command line gives an importer beyond the files.
package struct ImportOptions: Sendable {
    /// The app's name (`--app`); nil: made from the dump's process or package name.
    package var app: String?
    /// The screen's name (`--screen`); nil: `main`.
    package var screen: String?
    /// The process to take from a dump of several (`--process`).
    package var process: String?
    /// The display scale for frames in points (`--scale`); nil: the format's default.
    package var scale: Double?
    /// The snapshot (1-based) that is the app's background footprint (`--background`).
    package var background: Int?
    /// The device profile the scenario names (`--profile`): a bundled name or a profile file;
    /// nil: the format's default.
    package var profile: String?
    /// The device's memory in bytes (`--memory`); nil: room for the app (twice what it declares).
    package var memory: Int?
    /// `--memory-scale N`: the process simulated at 1/N of its size (``ImportedScenario/memoryScale``); nil: 1.
    package var memoryScale: Int?

    package init(app: String? = nil, screen: String? = nil, process: String? = nil, scale: Double? = nil,
                background: Int? = nil, profile: String? = nil, memory: Int? = nil, memoryScale: Int? = nil) {
        self.memory = memory
        self.memoryScale = memoryScale
        self.app = app
        self.screen = screen
        self.process = process
        self.scale = scale
        self.background = background
        self.profile = profile
    }
}

/// A dump that cannot be imported: where (file and line; line 0 for the file as a whole) and
/// what was expected and found. Nothing is written when an import fails.
package struct ImportError: Error, Sendable, Equatable, CustomStringConvertible {
    package var path: String
    package var line: Int
    package var message: String
    /// True when the command line asked for something the dump does not have (exit 64);
    /// false when the dump itself is not what it should be (exit 65).
    package var isUsage: Bool

    package init(path: String, line: Int, _ message: String, isUsage: Bool = false) {
        self.path = path
        self.line = line
        self.message = message
        self.isUsage = isUsage
    }

    /// `FILE:LINE: message` (`FILE: message` for the file as a whole), on one line.
    package var description: String {
        let location = line > 0 ? "\(path):\(line)" : path
        return "\(location): \(ScenarioDiagnostic.escaped(message))"
    }
}

/// Names made valid for a scenario (`[a-z0-9-]+`).
package enum ImportNames {
    /// `com.twitter.android` -> `twitter-android`: a first component of two or three letters
    /// (a reverse domain's `com`, `org`, `io`) is dropped, the rest lowercased, every run of
    /// other characters one `-`; `fallback` when nothing is left.
    package static func valid(_ raw: String, fallback: String = "app") -> String {
        var parts = raw.split(separator: ".", omittingEmptySubsequences: true).map(String.init)
        if parts.count > 1, (2...3).contains(parts[0].count), parts[0].allSatisfy(\.isLetter) { parts.removeFirst() }
        var name = ""
        for scalar in parts.joined(separator: "-").lowercased().unicodeScalars {
            let isValid = (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9")
            if isValid { name.unicodeScalars.append(scalar) } else if !name.isEmpty, !name.hasSuffix("-") { name += "-" }
        }
        while name.hasSuffix("-") { name.removeLast() }
        if name.hasPrefix("ui-") { name = "app-" + name }
        return name.isEmpty ? fallback : String(name.prefix(64))
    }

    /// Whether `name` is already valid: `[a-z0-9-]+`, at most ``ScenarioLimits/nameLength``
    /// characters (names name the run's files).
    package static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= ScenarioLimits.nameLength && name.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 }
    }
}
