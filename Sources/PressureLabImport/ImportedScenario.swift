import PressureLab
import PressureLabHarness

/// What an importer made of a dump: a scenario of one app, each figure with its origins.
/// ``yaml`` renders it as scenario text (format 1) with the origins as comments.
package struct ImportedScenario: Sendable, Equatable {
    /// Comment lines at the top of the file: the command, the format, what was taken.
    package var notes: [String]
    /// The device's memory: room for the app, so that the first run shows its footprint.
    package var deviceMemoryBytes: Int
    /// The bundled profile or profile file the device names.
    package var profile: String
    package var app: App
    /// The footprint figure the dump's tool reports itself (meminfo's TOTAL PSS, vmmap's
    /// Physical footprint), set beside what was modelled after an import.
    package var footprint: Reported?
    /// What the dump has and the scenario does not model, each with its size.
    package var leftOut: [Reported] = []
    /// What the importer assumed that the user should know (a display scale), said on standard
    /// error by the command.
    package var warnings: [String] = []
    /// Where the device's memory came from: the importer's choice (room for the app) or `--memory`.
    package var memorySource = MemorySource.roomForTheApp
    /// `--memory-scale N`: the scenario declares every byte figure (the device's memory
    /// included) at 1/N and says `memory_scale: N`; the figures here stay the dump's.
    package var memoryScale = 1

    /// Where ``deviceMemoryBytes`` came from.
    package enum MemorySource: Sendable, Equatable {
        /// Twice what the app declares (``roomyDevice(for:)``).
        case roomForTheApp
        /// `--memory BYTES`.
        case option
    }

    /// A figure of the dump's, with where it is printed (`FILE:LINE`).
    package struct Reported: Sendable, Equatable {
        /// What the dump calls it (`TOTAL PSS`, `owned unmapped (graphics)`, ...).
        package var what: String
        package var bytes: Int
        package var origin: String
        /// For a footprint: whether it counts clean (file-backed) memory, as Pss does and a
        /// physical footprint does not; the report compares it with the same part of the model.
        package var countsClean: Bool

        package init(what: String, bytes: Int, origin: String, countsClean: Bool = true) {
            self.what = what
            self.bytes = bytes
            self.origin = origin
            self.countsClean = countsClean
        }
    }

    /// A size and where it came from: `FILE:LINE what` lines, one a term of the sum.
    package struct Figure: Sendable, Equatable {
        package var bytes: Int
        package var origins: [String]

        package init(bytes: Int, origins: [String]) {
            self.bytes = bytes
            self.origins = origins
        }
    }

    /// The app: its dirty data, clean mapped memory, screens and background behaviour.
    package struct App: Sendable, Equatable {
        package var name: String
        package var notes: [String] = []
        package var data: Figure?
        package var clean: Figure?
        package var screens: [Screen] = []
        /// `on_background` items (`caches`, `models`, `backing`) with why, and what cannot be said.
        package var onBackground: [String] = []
        package var backgroundNotes: [String] = []

        package init(name: String) { self.name = name }
    }

    /// A screen: a view tree (and a table's cells) with backing stores, a model.
    package struct Screen: Sendable, Equatable {
        package var name: String
        package var notes: [String] = []
        /// The tree as the reader takes it (`{ views, fanout, bytes }`) and why.
        package var views: Int
        package var fanout: Int
        package var bytesPerView: Int
        package var treeOrigins: [String] = []
        package var backing: Figure?
        package var model: Figure?
        /// A table screen's rows, visible rows and cell shape.
        package var table: Table?

        package init(name: String, views: Int, fanout: Int, bytesPerView: Int) {
            self.name = name
            self.views = views
            self.fanout = fanout
            self.bytesPerView = bytesPerView
        }
    }

    /// A table screen's declarations.
    package struct Table: Sendable, Equatable {
        package var rows: Int
        package var visibleRows: Int
        package var cellViews: Int
        package var cellBytes: Int
        package var origins: [String]
    }

    package init(notes: [String], deviceMemoryBytes: Int, profile: String, app: App) {
        self.notes = notes
        self.deviceMemoryBytes = deviceMemoryBytes
        self.profile = profile
        self.app = app
    }

    /// Every byte the scenario declares for the app (data, trees, cells, backing, models).
    package var declaredDirtyBytes: Int {
        var total = app.data?.bytes ?? 0
        for screen in app.screens {
            total += screen.views * screen.bytesPerView + (screen.backing?.bytes ?? 0) + (screen.model?.bytes ?? 0)
            if let table = screen.table { total += table.visibleRows * table.cellBytes }
        }
        return total
    }

    /// A device with room: twice what the app declares (clean memory included), rounded up
    /// to 64 MiB, at least 256 MiB.
    package static func roomyDevice(for bytes: Int) -> Int {
        let step = 64 << 20
        return max(256 << 20, (bytes * 2 + step - 1) / step * step)
    }
}

extension ImportedScenario {
    /// The scenario as YAML text: `scenario: 1`, the device, the app, and a script that
    /// launches it (and sends it to the background when a background snapshot was given).
    package var yaml: String {
        var out: [String] = notes.map { Self.comment("", $0) }
        out += ["scenario: 1", "name: \(app.name)",
                "description: Imported from a dump by pressurelab import (origins in the comments).",
                "device:",
                memorySource == .option ? "  # --memory: the device's memory as given."
                    : "  # Room for the app: its first run shows its own footprint, not pressure.",
                "  memory: \(Self.size(scaled(deviceMemoryBytes)))"]
        if memoryScale > 1 {
            out += ["  # --memory-scale \(memoryScale): every byte figure below is 1/\(memoryScale) of the dump's (the device's memory "
                    + "\(deviceMemoryBytes) B); runs report them at full size (docs/importing.md).", "  memory_scale: \(memoryScale)"]
        }
        out += ["  profile: \(Self.scalar(profile))", "apps:"]
        out += appLines(indent: "  ")
        out += ["script:", "  - launch: \(app.name)"]
        if !app.backgroundNotes.isEmpty || !app.onBackground.isEmpty { out += ["  - home", "  - idle: 10s"] }
        return out.joined(separator: "\n") + "\n"
    }

    /// The app's entry under `apps:`, each line prefixed by `indent` (merging uses it).
    package func appLines(indent: String) -> [String] {
        var out: [String] = app.notes.map { Self.comment(indent, $0) }
        out.append("\(indent)\(app.name):")
        let inner = indent + "  "
        if let data = app.data { out += lines("data", data, inner) }
        if let clean = app.clean { out += lines("clean", clean, inner) }
        out.append("\(inner)screens:")
        for screen in app.screens { out += screenLines(screen, indent: inner + "  ") }
        out.append("\(inner)root: \(app.screens.first?.name ?? "main")")
        out += app.backgroundNotes.map { Self.comment(inner, $0) }
        if !app.onBackground.isEmpty { out.append("\(inner)on_background: [\(app.onBackground.joined(separator: ", "))]") }
        return out
    }

    /// A screen's entry under `screens:`, each line prefixed by `indent`.
    package func screenLines(_ screen: Screen, indent: String) -> [String] {
        var out: [String] = screen.notes.map { Self.comment(indent, $0) }
        out.append("\(indent)\(screen.name):")
        let inner = indent + "  "
        out += screen.treeOrigins.map { Self.comment(inner, $0) }
        out.append("\(inner)tree: { views: \(screen.views), fanout: \(screen.fanout), bytes: \(Self.size(scaled(screen.bytesPerView))) }")
        if let backing = screen.backing { out += lines("backing", backing, inner) }
        if let model = screen.model { out += lines("model", model, inner) }
        if let table = screen.table {
            out += table.origins.map { Self.comment(inner, $0) }
            out += ["\(inner)kind: table", "\(inner)rows: \(table.rows)", "\(inner)visible_rows: \(table.visibleRows)",
                    "\(inner)cell: { views: \(table.cellViews), bytes: \(Self.size(scaled(table.cellBytes))) }"]
        }
        return out
    }

    func lines(_ key: String, _ figure: Figure, _ indent: String) -> [String] {
        let scale = memoryScale > 1 ? [Self.comment(indent, "1/\(memoryScale) of \(figure.bytes) B (--memory-scale \(memoryScale)).")] : []
        return figure.origins.map { Self.comment(indent, $0) } + scale + ["\(indent)\(key): \(Self.size(scaled(figure.bytes)))"]
    }

    /// `bytes` as the scenario declares it: 1/``memoryScale`` (rounded; a figure that is not 0
    /// stays at least 1 byte).
    package func scaled(_ bytes: Int) -> Int {
        guard memoryScale > 1, bytes > 0 else { return bytes }
        return max(1, (bytes + memoryScale / 2) / memoryScale)
    }

    /// A comment line: `indent# text`, the text from the dump made one line whatever it holds.
    /// YAML ends a line at CR, LF, NEL, U+2028 and U+2029, so a process name holding one would
    /// end the comment early and what follows would be read as keys: every control character
    /// (C0, DEL, C1), U+2028, U+2029 and U+FEFF is written as an escape (`\r`, `\u{85}`).
    package static func comment(_ indent: String, _ text: String) -> String {
        "\(indent)# \(oneLine(text))"
    }

    /// `text` with every character that could end a YAML line, or that a terminal would act
    /// on, escaped (see ``comment(_:_:)``).
    package static func oneLine(_ text: String) -> String {
        ScenarioDiagnostic.escaped(text)
    }

    /// A text value as a YAML scalar: plain when it is safe (`pixel-3-2018`, `../p.yaml`), else
    /// single-quoted (a path with spaces, `#` or `: `), line breaks escaped away first.
    package static func scalar(_ text: String) -> String {
        let safe = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            (scalar.value >= 0x30 && scalar.value <= 0x39) || (scalar.value >= 0x41 && scalar.value <= 0x5A)
                || (scalar.value >= 0x61 && scalar.value <= 0x7A) || "-_./".unicodeScalars.contains(scalar)
        } && !text.hasPrefix("-")
        guard !safe else { return text }
        return "'" + oneLine(text).replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// A size the scenario reader reads back exactly: MiB or KiB when whole, else bytes.
    package static func size(_ bytes: Int) -> String {
        if bytes > 0, bytes % (1 << 20) == 0 { return "\(bytes >> 20)MiB" }
        if bytes > 0, bytes % 1024 == 0 { return "\(bytes >> 10)KiB" }
        return "\(bytes)B"
    }
}
