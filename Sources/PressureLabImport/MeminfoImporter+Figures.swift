import PressureLab
import PressureLabHarness

extension MeminfoImporter {
    /// One snapshot's memory by scenario key (bytes), each with the rows it sums.
    struct Figures {
        var java = ImportedScenario.Figure(bytes: 0, origins: [])
        var graphics = ImportedScenario.Figure(bytes: 0, origins: [])
        var data = ImportedScenario.Figure(bytes: 0, origins: [])
        var clean = ImportedScenario.Figure(bytes: 0, origins: [])
        /// What the mapping leaves out, said in a comment.
        var dropped: [String] = []

        init(_ snapshot: MeminfoSnapshot, text: DumpText) {
            var leftOut = 0
            var leftOutRows: [String] = []
            for category in MeminfoCategory.allCases {
                guard let row = snapshot.rows[category] else { continue }
                let origin = text.origin(row.line)
                let dirty = snapshot.dirty(category)
                let dirtyTerm = "\(origin) \(category.rawValue): Private Dirty \(row[.privateDirty]) kB"
                    + (row[.swapPssDirty] + row[.swapDirty] > 0 ? " + swapped \(row[.swapPssDirty] + row[.swapDirty]) kB" : "")
                switch category.destination {
                case .javaHeap:
                    java.add(dirty, dirtyTerm)
                case .graphics:
                    graphics.add(dirty, dirtyTerm)
                case .mappedFiles:
                    let cleanShare = max(0, row[.pssTotal] - row[.privateDirty])
                    clean.add(cleanShare, "\(origin) \(category.rawValue): Pss Total \(row[.pssTotal]) - Private Dirty \(row[.privateDirty]) kB")
                    if dirty > 0 { data.add(dirty, dirtyTerm) }
                case .otherDirty:
                    if dirty > 0 { data.add(dirty, dirtyTerm) }
                    let shared = max(0, row[.pssTotal] - row[.privateDirty] - row[.privateClean])
                    if shared + row[.privateClean] > 0 {
                        leftOut += shared + row[.privateClean]
                        leftOutRows.append(category.rawValue)
                    }
                case .sum:
                    continue
                }
            }
            if leftOut > 0 {
                dropped.append("Left out: \(leftOut) kB of clean or shared Pss of \(leftOutRows.joined(separator: ", ")) "
                               + "(not the app's own dirty memory, nor mapped files).")
            }
            if let code = snapshot.summary["Code"] {
                clean.origins.append("App Summary Code: \(code.value) kB Pss (\(text.origin(code.line))), for comparison")
            }
            if let javaSummary = snapshot.summary["Java Heap"] {
                java.origins.append("App Summary Java Heap: \(javaSummary.value) kB (\(text.origin(javaSummary.line))) also counts .art mmap, "
                                    + "imported above as mapped files")
            }
            if let total = snapshot.summary["TOTAL PSS"] ?? snapshot.summary["TOTAL"] {
                dropped.append("App Summary TOTAL Pss: \(total.value) kB (\(text.origin(total.line))).")
            }
        }

        var byKind: [(key: String, item: String, figure: ImportedScenario.Figure)] {
            [("model", "models", java), ("backing", "backing", graphics), ("data", "", data), ("clean", "", clean)]
        }
    }

    /// What the app releases in the background: graphics (`backing`) at most half the
    /// foreground's are released (`on_background` releases a kind whole); the Java heap is
    /// split by ``splitJavaHeap(_:foreground:background:index:)``; what the keys cannot say is
    /// said in comments.
    static func releases(foreground: Figures, background: Figures, index: Int, line: Int,
                         text: DumpText) -> ([String], [String]) {
        var items: [String] = []
        var notes = ["Background: snapshot \(index) (\(text.origin(line))) against the foreground, by kind:"]
        for ((key, item, before), (_, _, after)) in zip(foreground.byKind, background.byKind) {
            let released = before.bytes > 0 && after.bytes * 2 <= before.bytes
            let change = "\(key) \(before.bytes / 1024) -> \(after.bytes / 1024) kB"
            switch key {
            case "model":
                notes.append("  \(change): " + (after.bytes < before.bytes
                    ? "the drop is released (models: ART's background collector compacts and trims the heap), the rest kept as app data"
                    : "kept"))
            case "backing":
                if released { items.append(item) }
                notes.append("  \(change): " + (released ? "released (\(item))" : "kept (less than half released)"))
            case "data":
                notes.append("  \(change): app data is never released on entering the background in a scenario; not expressed")
            default:
                notes.append("  \(change): the system drops clean pages under pressure; not an app release, not expressed")
            }
        }
        notes.append("  caches: dumpsys meminfo has no figure for caches; the screen declares none.")
        return (items, notes)
    }
}

extension MeminfoImporter {
    /// The Java heap in the background: what it lost since the foreground is the screen's
    /// `model`, released on entering the background (`on_background: [models]`, ART's
    /// background collector transition: docs/fidelity.md, "Fleet's experiment"); what it kept
    /// moves to the app's `data`, which a scenario never releases. The views' bytes stay out.
    static func splitJavaHeap(_ app: inout ImportedScenario.App, foreground: Figures, background: Figures, index: Int) {
        guard var model = app.screens.first?.model, background.java.bytes < foreground.java.bytes else { return }
        let released = min(model.bytes, foreground.java.bytes - background.java.bytes)
        let kept = model.bytes - released
        model.origins.append("of which \(released) B released in the background (snapshot \(index)'s Java heap is "
                             + "\(background.java.bytes / 1024) kB): the model; \(kept) B kept, moved to data")
        model.bytes = released
        app.screens[0].model = model
        if kept > 0 {
            var data = app.data ?? ImportedScenario.Figure(bytes: 0, origins: [])
            data.add(kept / 1024, "Java heap kept in the background (snapshot \(index)), less the views")
            data.bytes += kept % 1024
            app.data = data
        }
        if !app.onBackground.contains("models") { app.onBackground.insert("models", at: 0) }
    }
}

extension ImportedScenario.Figure {
    /// Adds `kilobytes` with its origin.
    mutating func add(_ kilobytes: Int, _ origin: String) {
        bytes += kilobytes * 1024
        origins.append(origin)
    }
}
